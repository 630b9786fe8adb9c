"""An `@include` names a file that does not exist, so Claude Code silently loads nothing.

## What it does
Reports every `@path` that Claude Code accepts as an include but whose target does not exist
(resolved against the folder of the including file, `~/` against HOME). Targets that exist under
another letter case (ML109) or without a trailing punctuation mark (ML102) are reported there.

## Why is this bad?
Claude Code ignores a missing include without a word: the instructions the author meant to share
never reach the model, and nobody notices until the agent ignores them.

## Example
```md CLAUDE.md
# Project
Coding standards: @docs/standards.md
```

Use instead:
```md CLAUDE.md
# Project
Coding standards: @docs/standards.md
```
```md docs/standards.md
Use four spaces.
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.engine import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.includes._problems import include_problems, show
from memlint.violations import Finding

META = RuleMeta(
    code="ML101",
    slug="include-target-missing",
    severity="error",
    summary="An @include names a file that does not exist",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for item in include_problems(ctx):
        if item.problem != "missing":
            continue
        ref = item.origin.ref
        yield Finding(
            item.origin.path,
            item.origin.line,
            f"Claude Code loads nothing for `@{ref.written}`: `{show(ctx, item.target)}` does not exist",
            column=ref.column,
        )
