"""The instruction files of a start folder add up past Claude Code's total limit.

## What it does
For every start folder, adds up the loaded text of the managed, user, project and local memory
files (and the files they include) that Claude Code loads at start. When the files that are each
within the per-file limit (max(40,000, round(window x 0.05 x characters per token)) characters)
together pass max(120,000, per-file limit) characters, Claude Code (from 2.1.332) shows in `/status`
`Instruction files will impact performance: <n> files, <x> chars in total > <y>` and the notice
`<n> instruction files add up to <x> chars, over the <y>-char total limit`. This rule reports it on the
largest of those files, with the three largest. Auto memory (MEMORY.md) and AGENTS.md files are not
counted, as in Claude Code. Releases before 2.1.332 only warn per file (ML201).

## Why is this bad?
No single file is too large, so nothing else warns, but every character of every one is sent with
every request: together they crowd out the conversation and the code and dilute the instructions
that matter.

## Example
```md .memlint.toml
[options.ML204]
max-total-chars = 60
```
```md CLAUDE.md
# Project
Build with make. Test with make test. Deploy with make deploy.
```
```md .claude/rules/style.md
Use four spaces. Name things for what they are.
```

Use instead:
```md .memlint.toml
[options.ML204]
max-total-chars = 60
```
```md CLAUDE.md
# Project
Build with make.
```
```md .claude/rules/style.md
Use four spaces.
```

## Options
- `window` (default 200000): the model's context window in tokens; Claude Code's limits grow with it
  (the window of 2.1.332's default model was not measured, so memlint assumes 200,000).
- `chars-per-token` (default 4): Claude Code's characters per token for the model (4 for Claude 3.x
  up to Opus/Sonnet 4.6 and Haiku 4.5, 3 for newer models).
- `max-total-chars` (default 0): a stricter total of your own in characters; 0 uses Claude Code's.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.cli_js.jstext import tenths_half_up
from memlint.model.loading.loader import LoadedFile
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.size._common import large_file_threshold, owned, show, window_option
from memlint.violations import Finding

META = RuleMeta(
    code="ML204",
    slug="instruction-files-over-total",
    severity="warning",
    summary="A start folder's instruction files add up past Claude Code's total limit",
    options={"window": 200_000, "chars-per-token": 4, "max-total-chars": 0},
    ranges={"window": "> 0", "chars-per-token": "> 0"},
)

MIN_TOTAL_CHARS = 120_000


def compact(number: int) -> str:
    """Claude Code's number text in these warnings (en-US compact, one decimal: `123.5k`)."""
    if number < 1000:
        return str(number)
    for power, suffix in ((3, "k"), (6, "m"), (9, "b"), (12, "t")):
        tenths = tenths_half_up(number, 10**power)
        if tenths < 10_000 or suffix == "t":
            return f"{tenths // 10}.{tenths % 10}{suffix}"
    raise AssertionError("unreachable")


def _counted(loaded: tuple[LoadedFile, ...]) -> list[LoadedFile]:
    # AGENTS files are added by Claude Code's plugin after the instruction list is built
    return [f for f in loaded if f.kind != "automem" and f.path.name != "AGENTS.md"]


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.release.instruction_total_warning:
        return
    window = window_option(ctx)
    per_file = large_file_threshold(window, int(ctx.options.get("chars-per-token", 4)))
    claude_limit = max(MIN_TOTAL_CHARS, per_file)
    own = int(ctx.options.get("max-total-chars", 0))
    total_limit = own if own > 0 else claude_limit
    seen: set[frozenset[str]] = set()
    for start, loaded in sorted(ctx.loads.items()):
        files = _counted(loaded.files)
        key = frozenset(str(f.path) for f in files)
        if sum(f.chars for f in files if f.chars <= per_file) <= total_limit or key in seen:
            continue
        seen.add(key)
        largest = sorted(files, key=lambda f: -f.chars)[:3]
        target = next((f for f in largest if owned(ctx, f.path)), None)
        if target is None:
            continue
        total = sum(f.chars for f in files)
        where = show(ctx, start)
        where = "the checked folder" if where == "." else where
        shown = ", ".join(f"{show(ctx, f.path)} ({compact(f.chars)})" for f in largest)
        if own > 0:
            why = f"over the total of {own:,} set in memlint's options (Claude Code warns above {claude_limit:,})"
        else:
            why = (f"over Claude Code's total limit of {claude_limit:,} (max(120,000, per-file limit {per_file:,}) "
                   f"for an assumed {window:,}-token window), so `/status` shows `Instruction files will impact "
                   f"performance: {len(files)} files, {compact(total)} chars in total > {compact(claude_limit)}`")
        yield Finding(
            target.path,
            1,
            f"Claude Code {ctx.release.name} started in {where} loads {len(files)} instruction files "
            f"with {total:,} characters in all into every request, {why}; largest: {shown}; "
            "move detail into files Claude reads on demand",
        )
