"""MEMORY.md links a topic file that does not exist.

## What it does
Reports every link in MEMORY.md (outside code) to a local `.md` file inside the memory folder that
does not exist, and says when a file of the same name in other letter case is there instead. A link
that leaves the memory folder (`../notes/x.md`) points at no topic file and is not judged here.

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

from memlint.model.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._common import auto_memory_indexes, exists, folder_names
from memlint.violations import Finding

META = RuleMeta(
    code="ML307",
    slug="memory-link-missing-topic",
    severity="error",
    summary="MEMORY.md links a topic file that does not exist",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for mem in auto_memory_indexes(ctx):
        folder = mem.path.parent
        where = str(folder)
        here = folder_names(ctx, where)
        listing = ctx.workspace.listing(where) or []
        names = {name.lower(): name for name, _, is_file in listing if is_file}
        titles = {e.line.number: e.title for e in mem.index.entries}
        for link in mem.index.links:
            if not link.target.lower().endswith(".md"):
                continue
            plain = "/" not in link.target  # a name in the folder: asked without a path per link
            if link.target.startswith(("/", "~")) or (link.target if plain else os.path.normpath(link.target)
                                                      ).startswith(".."):
                continue  # leaves the memory folder: not a topic file
            if here.exists(ctx, where, link.target) if plain else exists(ctx, folder / link.target):
                continue
            what = f"entry '{titles[link.line]}'" if link.line in titles else f"the link '{link.title}'"
            message = (
                f"{what} points to `{link.target}`, which does not exist in the memory folder: when Claude "
                "follows it to read the memory, the read fails and the memory is lost"
            )
            other = names.get(link.target.lower()) if plain else None
            if other and other != link.target:
                message += f"; `{other}` differs only in letter case (file names are case-sensitive here)"
            yield Finding(mem.path, link.line, message, column=link.column)
