"""memlint reached one of its own limits on a file and checked the rest of it less.

## What it does
Reports each file on which memlint stopped early because of one of its own bounds on the work a
repository can cause (see docs/limits.md):
- a file with more distinct `@includes` than `max-includes-per-file` (1,000 by default): the
  includes past the limit are not followed, so problems in them or in the files they name are not
  reported;
- settings files that give a start folder more `claudeMdExcludes` patterns than `max-excludes`
  (1,000 by default): the patterns past the limit are not applied (nor checked by ML513), so
  memlint may count as loaded a file that one of them keeps out.

## Why is this bad?
Claude Code has no such limits: it follows every include and applies every pattern. A file that
needs more than a thousand of either is most likely generated or hostile, and what is past the limit
is unchecked.
Split the file, or raise the limit in `.memlint.toml` (`[limits]`) when the includes are real.

## Example
```md .memlint.toml
[limits]
max-includes-per-file = 2
```
```md CLAUDE.md
# Project
@docs/a.md @docs/b.md @docs/c.md
```

Use instead:
```md .memlint.toml
[limits]
max-includes-per-file = 10
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.violations import Finding

META = RuleMeta("ML904", "limit-reached", "warning", "memlint stopped early on a file at one of its own limits")


def check(ctx: RuleContext) -> Iterator[Finding]:
    for hit in ctx.workspace.limit_hits():
        yield Finding(
            hit.path, 1,
            f"memlint's own limit `{hit.limit}` = {hit.value:,} reached: {hit.detail}; raise it under [limits] "
            f"in .memlint.toml if the file is meant to be this large",
        )
