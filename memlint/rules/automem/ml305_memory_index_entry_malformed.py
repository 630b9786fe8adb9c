"""An index entry of MEMORY.md is not of the form `- [Title](file.md) — hook`.

## What it does
Reports list items of MEMORY.md that link a topic file but do not start with the link or have no
hook (a few words after the link saying what the memory holds).

## Why is this bad?
Claude decides whether to open a topic file from its index line alone. Without a hook, or with the
link buried in the middle of the line, the memory is easily overlooked.

## Example
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md)
- See [testing](testing.md) for the policy
```

Use instead:
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
- [Testing](testing.md) — integration tests hit a real database
```
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memlint.engine import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._common import auto_memory_indexes
from memlint.violations import Finding

META = RuleMeta(
    code="ML305",
    slug="memory-index-entry-malformed",
    severity="warning",
    summary="an index entry is not `- [Title](file.md) — hook`",
)

_LINK_FIRST = re.compile(r"(?:[-*+]|\d{1,9}[.)])[ \t]+\[")


def check(ctx: RuleContext) -> Iterator[Finding]:
    for mem in auto_memory_indexes(ctx):
        for entry in mem.index.entries:
            if entry.well_formed or len(entry.line.content) > 200:
                continue
            content = entry.line.content
            if not _LINK_FIRST.match(content):
                why = "the link to the topic file does not start the entry"
            elif re.match(r"\d", content):
                why = "it is a numbered item; Claude Code writes entries as `- ` items"
            else:
                why = "it has no hook after the link (` — ` and a few words saying what the memory holds)"
            yield Finding(
                mem.path,
                entry.line.number,
                f"entry '{entry.title}' is not of the form `- [Title]({entry.target}) — hook`: {why}; Claude "
                "decides whether to read a topic file from this line alone",
            )
