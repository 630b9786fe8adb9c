"""A CLAUDE.md points to a ticket instead of saying what was decided.

## What it does
Reports lines of a CLAUDE.md or CLAUDE.local.md that name an issue-tracker ticket (`ACME-1167`).

## Why is this bad?
Claude Code loads every line of CLAUDE.md into the model's context at every start, but the ticket
itself is not there: Claude sees only its number and cannot open the tracker unless a tool gives it
access, so the instruction carries no content.

## Example
```md CLAUDE.md
# Project

Deploys follow ACME-1167.
```

Use instead:
```md CLAUDE.md
# Project

Deploy on Fridays only, blue/green, after the smoke tests pass.
```
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memlint.engine import RuleContext
from memlint.rules import RuleMeta
from memlint.violations import Finding

META = RuleMeta(
    code="EX101",
    slug="ticket-reference",
    severity="warning",
    summary="A CLAUDE.md points to a ticket instead of saying what was decided",
)

_TICKET = re.compile(r"\b[A-Z][A-Z0-9]{1,9}-\d+\b")


def check(ctx: RuleContext) -> Iterator[Finding]:
    for memory_file in ctx.by_role("claude-md", "local"):
        doc = ctx.document(memory_file.path)
        if doc.problem is not None:
            continue
        for number, line in enumerate(doc.text.splitlines(), start=1):
            match = _TICKET.search(line)
            if match:
                yield Finding(
                    memory_file.path, number,
                    f"Claude Code loads `{match.group()}` as a bare ticket number at every start; Claude cannot "
                    "open the tracker, so write the decision itself",
                    column=match.start() + 1,
                )
