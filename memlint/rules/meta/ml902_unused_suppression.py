"""A `memlint:` suppression comment silences nothing.

## What it does
Reports `<!-- memlint: disable-next-line CODE -->`, `<!-- memlint: disable CODE -->` and
`<!-- memlint: disable-file CODE -->` comments that did not suppress any violation in this run.
The engine finds them after every rule has run.

## Why is this bad?
A stale suppression hides the next real problem at that place, long after the one it was written
for is gone. Claude Code strips the comment, so removing it changes nothing the agent reads.

## Example
```md CLAUDE.md
# Project
<!-- memlint: disable-next-line ML101 -->
See @docs/guide.md for the guide.
```
```md docs/guide.md
# Guide
```

Use instead:
```md CLAUDE.md
# Project
See @docs/guide.md for the guide.
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.violations import Finding

META = RuleMeta("ML902", "unused-suppression", "warning", "A suppression comment suppresses nothing")


def check(ctx: RuleContext) -> Iterator[Finding]:
    """The engine reports unused suppressions (see memlint.suppression); nothing to do here."""
    return iter(())
