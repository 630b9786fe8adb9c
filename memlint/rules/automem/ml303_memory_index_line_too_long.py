"""A line of MEMORY.md is over 200 characters.

## What it does
Reports every line of MEMORY.md (outside code blocks) longer than 200 characters (UTF-16 units,
as Claude Code counts them).

## Why is this bad?
Claude Code tells Claude to keep index entries "to one line under ~200 chars". A long entry spends
the 25,000-unit budget of the index that every session loads, and detail belongs in the topic file.

## Example
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md) — we deploy with blue/green on Fridays only after the release manager has signed off in the release channel and the smoke tests of staging have passed twice in a row, and we never deploy during the on-call handover
```

Use instead:
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays, after sign-off and two green staging runs
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.engine import RuleContext
from memlint.model.jstext import utf16_len
from memlint.rules import RuleMeta
from memlint.rules.automem._common import auto_memory_indexes
from memlint.rules.automem._index import MAX_LINE_CHARS
from memlint.violations import Finding

META = RuleMeta(
    code="ML303",
    slug="memory-index-line-too-long",
    severity="warning",
    summary="a line of MEMORY.md is over 200 characters",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for mem in auto_memory_indexes(ctx):
        for line in mem.index.lines:
            if line.kind in ("code", "comment"):
                continue
            size = utf16_len(line.content)
            if size > MAX_LINE_CHARS:
                yield Finding(
                    mem.path,
                    line.number,
                    f"this index line is {size} characters: Claude Code asks for index entries under ~200 "
                    "characters; every session loads it whole, so keep a short hook here and move the "
                    "detail into the topic file",
                    column=MAX_LINE_CHARS + 1,
                )
