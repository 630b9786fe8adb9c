"""A memory file is over Claude Code's large-file threshold (or over 4 MiB, and not read at all).

## What it does
Claude Code warns "Large CLAUDE.md file detected" for a managed, user, project or local memory
file (or a file they include) whose loaded text is longer than
max(40,000, round(window x 0.05 x characters per token)) characters: 40,000 for a 200k-token
window. This rule reports every such file it loads, with its size. It also reports an included
file over 4,194,304 bytes, which Claude Code does not read at all. Auto memory (MEMORY.md) has its
own limits (ML3xx). What loads only in a start folder inside another project's copy (a git
submodule, a folder with its own `.git`, or `node_modules`, `vendor/`, `third_party/`) is left
out: nobody starts a session of this project there.

## Why is this bad?
Every character of a memory file is sent with every request: a huge file crowds out the
conversation and the code, costs tokens all session long, and dilutes the instructions that matter.

## Example
```md .memlint.toml
[options.ML201]
max-chars = 40
```
```md CLAUDE.md
# Project
Build with make. Test with make test. Deploy with make deploy.
```

Use instead:
```md CLAUDE.md
# Project
Build with make.
```

## Options
- `window` (default 200000): the model's context window in tokens.
- `chars-per-token` (default 4): Claude Code's characters per token for the model (4 for Claude 3.x
  up to Opus/Sonnet 4.6 and Haiku 4.5, 3 for newer models).
- `max-chars` (default 0): a stricter limit of your own in characters; 0 uses Claude Code's threshold.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from memlint.model.loading.loader import Skipped
from memlint.model.loading.shared import Unseen
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.size._common import large_file_threshold, owned, show, vendored_start, window_option
from memlint.violations import Finding

META = RuleMeta(
    code="ML201",
    slug="file-too-large",
    severity="warning",
    summary="A memory file is over Claude Code's large-file threshold",
    options={"window": 200_000, "chars-per-token": 4, "max-chars": 0},
    ranges={"window": "> 0", "chars-per-token": "> 0"},
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    window = window_option(ctx)
    threshold = large_file_threshold(window, int(ctx.options.get("chars-per-token", 4)))
    own = int(ctx.options.get("max-chars", 0))
    limit = own if own > 0 else threshold
    seen: set[str] = set()
    discovered = {str(f.path) for f in ctx.files}
    unseen: Unseen[Skipped] = Unseen()  # an object start folders share is judged once (model.shared)
    for loaded in ctx.loads.values():
        # A start folder in another project's copy: what loads there is that project's to size.
        # Asked only when something there would be reported (a stat of `.git` for every start
        # folder otherwise); the answer is kept per folder (model.loading.vendored).
        for item in loaded.files:
            if item.kind == "automem" or str(item.path) in seen or not owned(ctx, item.path):
                continue
            if item.chars <= limit:
                seen.add(str(item.path))
                continue
            if vendored_start(ctx, loaded.start):
                continue  # a start folder of this project that loads it reports it
            seen.add(str(item.path))
            if own > 0:
                why = f"over the limit of {limit:,} set in memlint's options (Claude Code warns above {threshold:,})"
            else:
                why = (f"over Claude Code's large-file threshold of {threshold:,} for a {window:,}-token window: "
                       "it warns \"Large CLAUDE.md file detected\"")
            yield Finding(
                item.path, 1,
                f"Claude Code loads all {item.chars:,} characters of {show(ctx, item.path)} into every request, "
                f"{why}; move detail into files Claude reads on demand",
            )
        for skipped in unseen.new(loaded.skipped):
            key = str(skipped.path)
            if skipped.reason != "too-large" or skipped.origin is None or key in seen or key in discovered:
                continue
            if vendored_start(ctx, loaded.start):
                continue
            seen.add(key)
            origin = skipped.origin
            if not owned(ctx, origin.path):
                continue
            yield Finding(
                Path(origin.path), origin.line,
                f"Claude Code loads nothing for `@{origin.ref.written}`: {show(ctx, skipped.path)} is too large "
                f"({loaded.detail(skipped)}), and Claude Code does not read files over 4 MiB",
                column=origin.ref.column,
            )
