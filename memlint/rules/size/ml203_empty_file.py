"""A memory file is empty (or only white space, frontmatter and comments), so its includes are never followed.

## What it does
Reports a CLAUDE.md, CLAUDE.local.md, rule or included file that Claude Code skips because nothing
is left after removing frontmatter and HTML comments and trimming white space. When the file holds
`@includes` (for example on a line that is also inside a comment), the message says they are not
followed either. Auto memory (MEMORY.md) is left to the ML3xx rules.

## Why is this bad?
Claude Code does not follow the includes of a file it skips as empty, so a CLAUDE.md that is only
a comment plus includes loads nothing at all. An empty file left behind is also clutter that
suggests instructions exist where there are none.

## Example
```md CLAUDE.md
<!-- shared conventions: @docs/conventions.md -->
```
```md docs/conventions.md
Use tabs.
```

Use instead:
```md CLAUDE.md
Shared conventions: @docs/conventions.md
```
```md docs/conventions.md
Use tabs.
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.loading.loader import Skipped
from memlint.model.loading.shared import Unseen
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.markdown import find_include_texts
from memlint.rules import RuleMeta
from memlint.rules.size._common import owned, show
from memlint.violations import Finding

META = RuleMeta(
    code="ML203",
    slug="empty-file",
    severity="warning",
    summary="A memory file is empty, so Claude Code skips it and its includes",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    seen: set[str] = set()
    unseen: Unseen[Skipped] = Unseen()  # an object start folders share is judged once (model.shared)
    for loaded in ctx.loads.values():
        for skipped in unseen.new(loaded.skipped):
            key = str(skipped.path)
            if skipped.reason != "empty" or skipped.kind == "automem" or key in seen:
                continue
            seen.add(key)
            if not owned(ctx, skipped.path):
                continue
            doc = ctx.document(skipped.path)
            mentioned = [written for _o, written, _p in find_include_texts(doc.text)]
            if mentioned:
                shown = ", ".join(f"`@{w}`" for w in mentioned[:3]) + (" ..." if len(mentioned) > 3 else "")
                yield Finding(
                    skipped.path, 1,
                    f"Claude Code skips {show(ctx, skipped.path)} as empty (nothing is left after frontmatter "
                    f"and comments), so its includes {shown} are never followed either",
                )
            else:
                yield Finding(
                    skipped.path, 1,
                    f"Claude Code skips {show(ctx, skipped.path)}: it is empty (nothing is left after "
                    "frontmatter, comments and white space); write its instructions or delete it",
                    severity="info",
                )
