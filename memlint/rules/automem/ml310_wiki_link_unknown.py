"""A `[[name]]` link in MEMORY.md or a topic file names no memory of the folder.

## What it does
Reports `[[name]]` links (outside code) in MEMORY.md and its topic files when no topic file of the
same memory folder has that `name:` in its frontmatter (or that file name).

## Why is this bad?
Memories link each other by their `name:` slug. A link to a name nobody has leads Claude nowhere:
usually the other memory was renamed or deleted. Claude Code's own instructions allow a link to a
memory "worth writing later", so this is information, not an error.

## Example
```md MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md deploy.md
---
name: deploy
description: Blue/green deploys, Fridays only.
---

Blue/green deploys, Fridays only; see [[rollback-plan]].
```

Use instead:
```md MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md deploy.md
---
name: deploy
description: Blue/green deploys, Fridays only.
---

Blue/green deploys, Fridays only; see [[deploy]].
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.engine import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._index import parse_index
from memlint.rules.automem._topics import Topic, claude_slug, index_by_folder, memory_folders
from memlint.violations import Finding

META = RuleMeta(
    code="ML310",
    slug="wiki-link-unknown",
    severity="info",
    summary="a `[[name]]` link names no memory of the folder",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    by_folder = index_by_folder(ctx)
    for folder, paths in memory_folders(ctx).items():
        known: set[str] = set()
        docs = []
        for path in paths:
            doc = ctx.document(path)
            if doc.problem is not None:
                continue
            topic = Topic(path, doc)
            known |= {path.stem, path.name}
            if topic.name:
                known |= {topic.name, claude_slug(topic.name)}
            docs.append((path, doc))
        mem = by_folder.get(folder)
        if mem is not None:
            docs.insert(0, (mem.path, mem.doc))
        for path, doc in docs:
            for link in parse_index(doc).wiki:
                if link.name in known:
                    continue
                yield Finding(
                    path,
                    link.line,
                    f"`[[{link.name}]]` names no memory of this folder (no topic file has `name: {link.name}`): "
                    "Claude has nothing to follow; Claude Code counts it as a memory still to be written",
                    column=link.column,
                )
