"""An `@include` sits deeper in an include chain than Claude Code follows.

## What it does
Claude Code follows includes up to four levels below a memory file it loads at start (the file
itself is level 0, levels 0 to 4 load). This rule reports each include at level 5 or deeper and
names the chain that leads to it.

## Why is this bad?
The file at the end of a long chain is skipped silently, and so is everything it includes.

## Example
```md CLAUDE.md
@a.md
```
```md a.md
@b.md
```
```md b.md
@c.md
```
```md c.md
@d.md
```
```md d.md
@e.md
```
```md e.md
Never loaded.
```

Use instead:
```md CLAUDE.md
@a.md
@e.md
```
```md d.md
Level four.
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.include_problems import include_problems, run_chain
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.violations import Finding

META = RuleMeta(
    code="ML104",
    slug="include-too-deep",
    severity="error",
    summary="An @include is deeper than the four levels Claude Code follows",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for item in include_problems(ctx):
        if item.problem != "too-deep":
            continue
        ref = item.origin.ref
        links = [show(ctx, f.path) for f in run_chain(ctx, item.context, item.origin.path)] + [show(ctx, item.target)]
        level = len(links) - 1
        yield Finding(
            item.origin.path,
            item.origin.line,
            f"Claude Code never loads `{show(ctx, item.target)}`: it is include level {level} in the chain "
            f"{' -> '.join(links)}, and Claude Code stops at level 4; include it from a file higher up",
            column=ref.column,
        )
