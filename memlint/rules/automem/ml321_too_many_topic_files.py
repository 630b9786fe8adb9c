"""A memory folder holds more than 200 topic files: Claude Code's memory scan sees only the newest 200.

## What it does
Counts the topic files of each memory folder and, past 200, names those the memory scan does not
list (the oldest by modification time).

## Why is this bad?
Claude Code's memory scan lists the newest 200 `*.md` files of the folder, by modification time;
older memories drop out of it and are found only through an index entry, if there is one.
Merge or delete stale memories.

## Example
201 topic files `note-1.md` ... `note-201.md` in the project's memory folder, each like this:
```md ~/.claude/projects/<project>/memory/note-{1..201}.md
---
name: note-{n}
description: Fact {n}.
---
```

Use instead:
(with `note-1.md` merged into another memory and deleted: 200 topic files)
```md ~/.claude/projects/<project>/memory/MEMORY.md
# Memory
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.memory.topicscan import SCAN_FILES, newest_first
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._topics import memory_folders, rel
from memlint.violations import Finding

META = RuleMeta(
    code="ML321",
    slug="too-many-topic-files",
    severity="warning",
    summary="over 200 topic files: Claude Code's memory scan sees only the newest 200",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for folder, paths in memory_folders(ctx).items():
        if len(paths) <= SCAN_FILES:
            continue
        unseen = newest_first(paths)[SCAN_FILES:]
        shown = ", ".join(f"`{rel(p, folder)}`" for p in unseen[:5])
        if len(unseen) > 5:
            shown += f", \u2026 ({len(unseen)} in all)"
        index = folder / "MEMORY.md"
        anchor = index if index in {f.path for f in ctx.files} else unseen[0]
        yield Finding(
            anchor,
            1,
            f"the memory folder holds {len(paths)} topic files: Claude Code's memory scan lists only the newest "
            f"{SCAN_FILES}, so {shown} are never listed; merge or delete stale memories",
        )
