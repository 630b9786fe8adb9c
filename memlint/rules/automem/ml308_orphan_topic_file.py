"""A topic file beside MEMORY.md that no index entry points to.

## What it does
Reports every topic file of a memory folder that MEMORY.md neither links (`[Title](file.md)`)
nor names as `[[name]]`. Files that the `split-memory-index` fix is about to link again (written
by an earlier, interrupted split) are left to that fix.

## Why is this bad?
MEMORY.md is the only memory Claude Code loads at start. A topic file missing from it is found only
through the memory scan (the newest 200 files, by their description), and not at all once the
folder holds more: the memory is easily never read.

## Example
```md MEMORY.md
# Memory
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md deploy.md
---
name: deploy
description: Blue/green deploys, Fridays only.
---

Blue/green deploys, Fridays only.
```

```md testing.md
---
name: testing
description: Integration tests hit a real database.
---

Integration tests hit a real database.
```

Use instead:
```md MEMORY.md
# Memory
- [Deploy](deploy.md) — blue/green on Fridays only
- [Testing](testing.md) — Integration tests hit a real database.
```

## Fix safety
The fix is unsafe: it adds to MEMORY.md, after its last line, one entry
`- [Title](file.md) — description` per orphan topic file (title from the file's first heading,
else its name; description from its frontmatter, else its first sentence), which Claude Code then
loads at every start. A file with neither a description nor any text gets no entry.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from memlint.engine import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._common import MemoryIndex, split_fix
from memlint.rules.automem._index import MAX_LINE_CHARS, shorten
from memlint.rules.automem._topics import Topic, body_sentence, first_heading, folders, index_by_folder, rel
from memlint.violations import Applicability, Edit, Finding, Fix

META = RuleMeta(
    code="ML308",
    slug="orphan-topic-file",
    severity="warning",
    summary="a topic file that no MEMORY.md entry points to",
    fix="unsafe",
)


def _linked(mem: MemoryIndex) -> tuple[set[str], set[str]]:
    folder = mem.path.parent
    paths = {os.path.normpath(folder / link.target) for link in mem.index.links}
    return paths, {w.name for w in mem.index.wiki}


def _title(topic: Topic) -> str:
    heading = first_heading(topic.doc.body)
    if heading:
        return shorten(heading, 60)
    name = topic.name
    if name and not re.fullmatch(r"[a-z0-9_-]+", name):
        return shorten(" ".join(name.split()), 60)
    stem = re.sub(r"[-_]+", " ", name or topic.path.stem).strip()
    return shorten(stem[:1].upper() + stem[1:], 60) if stem else topic.path.stem


def _hook(topic: Topic) -> str | None:
    if topic.description:
        return " ".join(topic.description.split()) or None
    return body_sentence(topic.doc.body)


def entry_for(topic: Topic, folder: Path) -> str | None:
    hook = _hook(topic)
    if hook is None:
        return None
    title = _title(topic).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    target = rel(topic.path, folder).replace(" ", "%20").replace("(", "%28").replace(")", "%29")
    prefix = f"- [{title}]({target}) \u2014 "
    return prefix + shorten(hook, max(20, MAX_LINE_CHARS - len(prefix)))


def _append(mem: MemoryIndex, entries: list[str]) -> Edit:
    """Insert the entries after the last line of MEMORY.md that is not blank."""
    text, newline = mem.doc.text, mem.doc.newline
    filled = [line for line in mem.index.lines if line.kind != "blank"]
    at = filled[-1].end if filled else mem.index.body_start
    body = newline.join(entries)
    if text[:at] not in ("", "\ufeff") and not text[:at].endswith(("\n", "\r")):  # no line ending yet
        return Edit(mem.path, at, at, newline + body)
    return Edit(mem.path, at, at, body + newline)


def check(ctx: RuleContext) -> Iterator[Finding]:
    by_folder = index_by_folder(ctx)
    for folder, paths in folders(ctx).items():
        mem = by_folder.get(folder)
        if mem is None:
            continue
        linked, wiki = _linked(mem)
        _, plan = split_fix(ctx, mem)
        reused = {t.path for t in plan.topics if t.reused} if plan is not None else set()
        orphans: list[Topic] = []
        for path in paths:
            doc = ctx.document(path)
            topic = Topic(path, doc)
            if os.path.normpath(path) in linked or path in reused or (topic.name and topic.name in wiki):
                continue
            orphans.append(topic)
        if not orphans:
            continue
        entries = {t.path: entry_for(t, folder) for t in orphans if t.doc.problem is None}
        lines = [e for e in entries.values() if e]
        fix = None
        if lines and mem.doc.problem is None and mem.doc.scan().unclosed_comment_line is None:
            # (after an unclosed `<!--` an appended entry would be swallowed by the comment)
            n = len(lines)
            fix = Fix(f"add-index-entries: add {n} entr{'y' if n == 1 else 'ies'} to MEMORY.md for topic files "
                      "it does not link", Applicability.UNSAFE, (_append(mem, lines),))
        for topic in orphans:
            name = rel(topic.path, folder)
            message = (f"no entry of MEMORY.md points to `{name}`: Claude Code loads only the index at start, so "
                       "Claude finds this memory only through the memory scan of the newest 200 files, by its "
                       "description")
            if not topic.description:
                message += " (and it has no `description`)"
            yield Finding(topic.path, 1, message, fix=fix if entries.get(topic.path) else None)
