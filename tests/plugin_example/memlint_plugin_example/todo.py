"""A CLAUDE.md holds a TODO note.

## What it does
Reports lines of a CLAUDE.md or CLAUDE.local.md that start a TODO note (`TODO`, `FIXME`).

## Why is this bad?
Claude Code loads every line of CLAUDE.md into the model's context at every start. A TODO note
is addressed to the people who maintain the file, not to Claude, yet Claude reads it as part of
its instructions and may act on it.

## Example
```md CLAUDE.md
# Project

TODO: explain the deploy steps
```

Use instead:
```md CLAUDE.md
# Project

Deploy with `make deploy`.
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
    slug="todo-in-memory",
    severity="warning",
    summary="A CLAUDE.md holds a TODO note",
)

_TODO = re.compile(r"\b(TODO|FIXME)\b")


def check(ctx: RuleContext) -> Iterator[Finding]:
    for memory_file in ctx.by_role("claude-md", "local"):
        doc = ctx.document(memory_file.path)
        if doc.problem is not None:
            continue
        for number, line in enumerate(doc.text.splitlines(), start=1):
            match = _TODO.search(line)
            if match:
                yield Finding(
                    memory_file.path, number,
                    f"Claude Code loads this {match.group(1)} note into context at every start as an "
                    "instruction; keep notes for maintainers out of CLAUDE.md",
                    column=match.start() + 1,
                )
