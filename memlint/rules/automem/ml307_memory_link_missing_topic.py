"""MEMORY.md links a topic file that does not exist.

## What it does
Reports every link in MEMORY.md (outside code) to a local `.md` file inside the memory folder that
does not exist, and says when a file of the same name in other letter case is there instead. A link
that leaves the memory folder (`../notes/x.md`) points at no topic file and is not judged here.
One cause, one finding: the missing links of one MEMORY.md are reported together, on the first,
naming the first few with their lines and the count. When none of two or more linked topic files
is in the folder, the index was copied from another memory folder without them, and the finding
says so.

## Why is this bad?
The index promises a memory that is not there: when Claude follows the entry to read the topic
file, the read fails and the memory is lost. Usually the file was renamed or deleted by hand.

## Example
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

Use instead:
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md ~/.claude/projects/<project>/memory/deploy.md
---
name: deploy
description: Blue/green deploys, Fridays only.
metadata:
  type: project
---

Blue/green deploys, Fridays only.
```
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._common import auto_memory_indexes, exists, folder_names
from memlint.violations import Finding

META = RuleMeta(
    code="ML307",
    slug="memory-link-missing-topic",
    severity="error",
    summary="MEMORY.md links a topic file that does not exist",
)


_SHOWN = 5


def check(ctx: RuleContext) -> Iterator[Finding]:
    for mem in auto_memory_indexes(ctx):
        folder = mem.path.parent
        where = str(folder)
        here = folder_names(ctx, where)
        listing = ctx.workspace.listing(where) or []
        names = {name.lower(): name for name, _, is_file in listing if is_file}
        titles = {e.line.number: e.title for e in mem.index.entries}
        judged = 0
        missing: list[tuple[int, int, str, str]] = []  # line, column, what, case note
        for link in mem.index.links:
            if not link.target.lower().endswith(".md"):
                continue
            plain = "/" not in link.target  # a name in the folder: asked without a path per link
            if link.target.startswith(("/", "~")) or (link.target if plain else os.path.normpath(link.target)
                                                      ).startswith(".."):
                continue  # leaves the memory folder: not a topic file
            judged += 1
            if here.exists(ctx, where, link.target) if plain else exists(ctx, folder / link.target):
                continue
            what = f"entry '{titles[link.line]}'" if link.line in titles else f"the link '{link.title}'"
            other = names.get(link.target.lower()) if plain else None
            case = (f"; `{other}` differs only in letter case (file names are case-sensitive here)"
                    if other and other != link.target else "")
            missing.append((link.line, link.column, f"{what} points to `{link.target}`", case))
        if not missing:
            continue
        line, column = missing[0][0], missing[0][1]
        if len(missing) == 1:
            yield Finding(mem.path, line, f"{missing[0][2]}, which does not exist in the memory folder: when Claude "
                          "follows it to read the memory, the read fails and the memory is lost" + missing[0][3],
                          column=column)
            continue
        shown = "; ".join(f"line {n}: {what}{case}" for n, _, what, case in missing[:_SHOWN])
        more = f"; … ({len(missing)} in all)" if len(missing) > _SHOWN else ""
        cause = (f"none of the {judged} topic files this index links is in its folder: it was copied from another "
                 "memory folder without them, so every entry it offers is lost; copy the topic files in or replace "
                 "the index" if len(missing) == judged else
                 "when Claude follows one to read the memory, the read fails and the memory is lost")
        yield Finding(mem.path, line, f"{len(missing)} links point to topic files that do not exist in the memory "
                      f"folder ({shown}{more}): {cause}", column=column)
