"""Two entries of MEMORY.md point to the same topic file.

## What it does
Reports every index entry (a list item starting with its link) whose topic file an earlier entry
already links, with the line of the first one.

## Why is this bad?
Claude Code loads every line of the index at start: a second entry for the same memory spends
lines and characters of the 200-line / 25,000-unit budget for nothing, and two different hooks
for one file leave Claude unsure what the memory holds.

## Example
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
- [Testing](testing.md) — integration tests hit a real database
- [Deploy](deploy.md) — blue/green on Fridays only
```

Use instead:
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
- [Testing](testing.md) — integration tests hit a real database
```

## Fix safety
The fix is unsafe (it removes a line Claude reads) and is offered only when the later entry is
the same line as the first, up to white space at its ends.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from memlint.lazy_regex import compile_lazily
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._common import auto_memory_indexes
from memlint.rules.automem._index import Entry
from memlint.violations import Applicability, Edit, Finding, Fix

META = RuleMeta(
    code="ML309",
    slug="duplicate-index-entry",
    severity="warning",
    summary="two MEMORY.md entries point to the same topic file",
    fix="unsafe",
)

_LINK_FIRST = compile_lazily(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[")


def same_file_key(prefix: str, folder: str, target: str) -> str:
    """`os.path.normpath(Path(folder) / target)`; a plain name (no slash, not empty, `.` or `..`) is
    appended to `prefix` (the normalised folder with its trailing slash) without normalising again."""
    if "/" not in target and target not in ("", ".", ".."):
        return prefix + target
    return os.path.normpath(os.path.join(folder, target))


def check(ctx: RuleContext) -> Iterator[Finding]:
    for mem in auto_memory_indexes(ctx):
        first: dict[str, Entry] = {}
        folder = str(mem.path.parent)
        prefix = os.path.join(os.path.normpath(folder), "")
        for entry in mem.index.entries:
            if not _LINK_FIRST.match(entry.line.content):
                continue  # a note that mentions a memory in passing is no entry of its own
            key = same_file_key(prefix, folder, entry.target)
            seen = first.get(key)
            if seen is None:
                first[key] = entry
                continue
            fix = None
            if entry.line.content.strip() == seen.line.content.strip():
                fix = Fix(f"remove the repeated entry '{entry.title}' on line {entry.line.number}",
                          Applicability.UNSAFE, (Edit(mem.path, entry.line.start, entry.line.end, ""),))
            same = "the same entry" if fix else f"entry '{seen.title}'"
            yield Finding(
                mem.path,
                entry.line.number,
                f"entry '{entry.title}' points to `{entry.target}` again ({same} is on line {seen.line.number}): "
                "Claude Code loads both lines, which spend the index's 200-line budget on one memory",
                fix=fix,
            )
