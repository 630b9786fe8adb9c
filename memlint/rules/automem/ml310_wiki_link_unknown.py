"""A `[[name]]` link in MEMORY.md or a topic file names no memory of the folder.

## What it does
Reports `[[name]]` links (outside code and headings) in MEMORY.md and its topic files when no topic
file of the same memory folder has that `name:` or file name. Names match the way people and Claude
write them: case, `-`/`_` and a type prefix (`[[testing]]` is `feedback_testing.md`) do not matter.
A folder where no `[[...]]` names a memory does not link memories that way (the brackets are prose,
such as a note about wiki syntax): it is left alone.

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

Blue/green deploys, Fridays only; see [[rollback-plan]] and [[deploy]].
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

import re
from collections.abc import Iterator

from memlint.lazy_regex import compile_lazily
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.document import Document
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


_TYPE_PREFIX = compile_lazily(r"^(?:user|feedback|project|reference)-")


def _forms(name: str) -> set[str]:
    """How people and Claude write one memory's name: `feedback_testing.md`, `feedback-testing`,
    `testing` and `Testing` all name the same memory."""
    norm = re.sub(r"[\s_]+", "-", name.strip().lower()).removesuffix(".md")
    return {norm, _TYPE_PREFIX.sub("", norm)}


def check(ctx: RuleContext) -> Iterator[Finding]:
    by_folder = index_by_folder(ctx)
    for folder, paths in memory_folders(ctx).items():
        docs = [(path, doc) for path in paths if (doc := ctx.document(path)).problem is None]
        mem = by_folder.get(folder)
        if not any(doc.contains("[[") for _, doc in docs) and (mem is None or not mem.doc.contains("[[")):
            continue  # no `[[` in the folder (most): no names to gather
        known: set[str] = set()
        for path, doc in docs:
            topic = Topic(path, doc)
            known |= _forms(path.stem)
            if topic.name:
                known |= _forms(topic.name) | _forms(claude_slug(topic.name))
        if mem is not None:
            docs.insert(0, (mem.path, mem.doc))
        links = [(path, doc, link) for path, doc in docs if doc.contains("[[")  # most files hold none: no parse
                 for link in parse_index(doc).wiki if not _in_heading(doc, link.line)]
        unknown = [(path, link) for path, _, link in links if not _forms(link.name) & known]
        if len(unknown) == len(links):
            continue  # no `[[...]]` of this folder names a memory: they are prose (a syntax, a wiki), not links
        for path, link in unknown:
            yield Finding(
                path,
                link.line,
                f"`[[{link.name}]]` names no memory of this folder (no topic file is named `{link.name}`, with or "
                "without a type prefix): Claude has nothing to follow; Claude Code counts it as a memory still "
                "to be written",
                column=link.column,
            )


def _in_heading(doc: Document, line: int) -> bool:
    lines = doc.text.split("\n")
    return 0 < line <= len(lines) and lines[line - 1].lstrip().startswith("#")
