"""An `@include` points back to a file already in its own include chain.

## What it does
Reports an include whose target is the including file itself or one of the files that (directly
or through other includes) include it: `a.md` includes `b.md`, which includes `a.md` again.

## Why is this bad?
Claude Code loads every file once, so a cycle does not loop: the include that closes it is
ignored. It is dead text that suggests an order of reading that does not happen, and it usually
means the files' roles are muddled.

## Example
```md CLAUDE.md
@a.md
```
```md a.md
Style rules. See also @b.md
```
```md b.md
Testing rules. See also @a.md
```

Use instead:
```md CLAUDE.md
@a.md
```
```md a.md
Style rules. See also @b.md
```
```md b.md
Testing rules.
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
    code="ML105",
    slug="include-cycle",
    severity="warning",
    summary="An @include points back into its own include chain",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for item in include_problems(ctx):
        if item.problem != "cycle":
            continue
        ref = item.origin.ref
        links = [show(ctx, f.path) for f in run_chain(ctx, item.context, item.origin.path)]
        target = show(ctx, item.target)
        if target in links:
            links = links[links.index(target):]
        links.append(target)
        what = "includes itself" if len(links) == 2 and links[0] == links[1] else f"closes the cycle {' -> '.join(links)}"
        yield Finding(
            item.origin.path,
            item.origin.line,
            f"`@{ref.written}` {what}: Claude Code loads each file once and ignores this include",
            column=ref.column,
        )
