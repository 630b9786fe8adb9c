"""A topic file beside MEMORY.md that no index entry points to.

## What it does
Reports every topic file of a memory folder that MEMORY.md neither links (`[Title](file.md)`)
nor names as `[[name]]`. Files that the `split-memory-index` fix is about to link again (written
by an earlier, interrupted split) are left to that fix. A file MEMORY.md names in its text
(``see `tmux.md` ``) is not an orphan: Claude reads the name and can open it. Nor is a file linked
from a topic file that MEMORY.md links (a second-level index, as the split writes for a group of
entries): Claude opens that file from the index and finds the link there. Nor is a file that
documents the folder instead of holding a memory: no frontmatter, and a name that is `README` or
written in capitals (`README.md`, `SETUP.md`, `SESSION_ANCHOR_0316.md`), the convention for a
folder's own documents, while Claude Code writes each memory to a lower-case file with
frontmatter (`feedback_testing.md`). When none of two or
more topic files MEMORY.md links is in the folder, the index came from another memory folder:
ML307 states that cause once, and the files here are not reported one by one.

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
The fix is unsafe: it adds to MEMORY.md one entry `- [Title](file.md) — description` per orphan
topic file (title from the file's first heading, else its name; description from its
frontmatter, else its first sentence), which Claude Code then loads at every start. An entry goes
under the heading that names the memory's type (`## Feedback` for `feedback_*.md` or
`type: feedback`, ...), else after the last line. The fix never takes the index past Claude Code's
write-guard target (140 lines, 17,500 UTF-16 units): orphans that do not fit are reported, not
added. It adds nothing to a MEMORY.md that holds no index entry yet outside a Claude Code memory
folder (a file of notes that only shares the name). A file with neither a description nor any
text gets no entry, nor does one whose name is not UTF-8 (no link to it can be written). No entry
is added where it would not read as one: after a code fence that is never closed (or an unclosed
`<!--`), an added line would be code (or comment), so the orphans are reported and MEMORY.md is
left as it is.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from memlint.model.cli_js.jstext import utf16_len
from memlint.model.memory.automem import GUARD_TARGET_LINES, GUARD_TARGET_UNITS
from memlint.model.run.memory_identity import identity
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._common import MemoryIndex, exists, folder_names, index_of_text, split_fix
from memlint.rules.automem._index import MAX_LINE_CHARS, heading_text, parse_index, shorten
from memlint.rules.automem._topics import (
    TYPES,
    Topic,
    body_sentence,
    documents_the_folder,
    first_heading,
    folders,
    index_by_folder,
    index_links,
    rel,
)
from memlint.violations import Applicability, Edit, Finding, Fix

# Folders whose MEMORY.md is Claude Code's index by where it is (`model.memory_identity`); elsewhere
# an index must hold an entry before the fix adds one (a MEMORY.md of notes is not an index).
_MEMORY_FOLDERS = frozenset({"auto-memory", "agent-memory", "configured"})

META = RuleMeta(
    code="ML308",
    slug="orphan-topic-file",
    severity="warning",
    summary="a topic file that no MEMORY.md entry points to",
    fix="unsafe",
)


def _reached(ctx: RuleContext, linked: frozenset[str], topics: set[str]) -> set[str]:
    """The topic files linked from linked topic files, and from those in turn: a second-level index
    that MEMORY.md links leads Claude to the entries it holds. Each topic file is parsed at most once."""
    seen: set[str] = set()
    todo = [p for p in linked if p in topics]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        doc = ctx.document(Path(path))
        if doc.problem is not None or "](" not in doc.text:
            continue
        here = os.path.dirname(path)
        for link in parse_index(doc, 0, cached=False).links:
            target = os.path.normpath(os.path.join(here, link.target))
            if target in topics and target not in seen:
                todo.append(target)
    return seen


def _named(name: str, text: str) -> bool:
    """Whether `text` names the file `name` as a word of its own (`see tmux.md`, `memory/tmux.md`),
    not as the tail of a longer name (`old-tmux.md`)."""
    return name in text and re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", text) is not None


def _foreign(ctx: RuleContext, mem: MemoryIndex) -> bool:
    """Whether MEMORY.md links two or more topic files inside its folder and none of them is there."""
    folder = mem.path.parent
    targets = {link.target for link in mem.index.links if link.target.lower().endswith(".md")
               and not link.target.startswith(("/", "~")) and not os.path.normpath(link.target).startswith("..")}
    if len(targets) < 2:
        return False
    here = folder_names(ctx, str(folder))
    return not any(here.exists(ctx, str(folder), t) if "/" not in t else exists(ctx, folder / t) for t in targets)


def _title(topic: Topic) -> str:
    heading = first_heading(topic.doc.body)
    if heading:
        return shorten(heading, 60)
    name = topic.name
    if name and not re.fullmatch(r"[a-z0-9_-]+", name):
        return shorten(" ".join(name.split()), 60)
    raw = name or topic.path.stem
    kind = raw.split("_", 1)[0].lower()
    if "_" in raw and kind in TYPES:
        raw = raw.split("_", 1)[1]  # `feedback_pr_size`: the type is no part of the title
    words = re.sub(r"[-_]+", " ", raw).split()
    text = f"{topic.description or ''} {topic.doc.body[:2000]}"
    words = [_as_written(w, text) for w in words]  # `pr` as the memory writes it: `PR`
    stem = " ".join(words)
    return shorten(stem[:1].upper() + stem[1:], 60) if stem else topic.path.stem


def _as_written(word: str, text: str) -> str:
    match = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE)
    return match.group(0) if match and match.group(0) != match.group(0).lower() else word


def _hook(topic: Topic) -> str | None:
    if topic.description:
        return " ".join(topic.description.split()) or None
    return body_sentence(topic.doc.body)


def entry_for(topic: Topic, folder: Path) -> str | None:
    hook = _hook(topic)
    if hook is None:
        return None
    target = rel(topic.path, folder)
    if not target.isascii() and not _utf8(target):
        return None  # a name that is not UTF-8 (`bad\xff.md`): no link to it can be written in MEMORY.md
    title = _title(topic).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    # (`%` first: the index's links are percent-decoded, so `pct%20.md` would read as `pct .md`)
    target = target.replace("%", "%25").replace(" ", "%20").replace("(", "%28").replace(")", "%29")
    prefix = f"- [{title}]({target}) \u2014 "
    return prefix + shorten(hook, max(20, MAX_LINE_CHARS - len(prefix)))


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _type_of(topic: Topic) -> str | None:
    """The memory's type: its frontmatter, else the prefix Claude Code gives such files."""
    kind = topic.type
    if kind in TYPES:
        return kind
    prefix = topic.path.stem.split("_", 1)[0].lower()
    return prefix if prefix in TYPES and "_" in topic.path.stem else None


def _section_ends(mem: MemoryIndex) -> dict[str, int]:
    """For each memory type, the last non-blank line of the first heading's own body that names
    it (`## Feedback`, `## Project memories`, `## References`)."""
    lines = mem.index.lines
    out: dict[str, int] = {}
    current: str | None = None
    for i, line in enumerate(lines):
        if line.kind == "heading":
            words = heading_text(line.content)[1].lower()
            current = next((t for t in TYPES if re.search(rf"\b{t}", words) and t not in out), None)
            if current is not None:
                out[current] = i
            continue
        if current is not None and line.kind != "blank":
            out[current] = i
    return out


def _edits(mem: MemoryIndex, placed: list[tuple[str | None, str]]) -> list[Edit]:
    """Insert each entry under its type's heading, else after the last non-blank line."""
    text, newline = mem.doc.text, mem.doc.newline
    lines = mem.index.lines
    ends = _section_ends(mem)
    filled = [i for i, line in enumerate(lines) if line.kind != "blank"]
    by_line: dict[int, list[str]] = {}
    for kind, entry in placed:
        at = ends.get(kind or "", filled[-1] if filled else -1)
        by_line.setdefault(at, []).append(entry)
    edits = []
    for at, entries in sorted(by_line.items()):
        body = newline.join(entries)
        offset = lines[at].end if at >= 0 else mem.index.body_start
        if at >= 0 and not lines[at].raw.endswith("\n") or at < 0 and text[:offset] not in ("", "\ufeff") and not text[:offset].endswith(("\n", "\r")):  # no line ending yet
            edits.append(Edit(mem.path, offset, offset, newline + body))
        else:
            follow = lines[at + 1] if at + 1 < len(lines) else None
            gap = newline if follow is not None and follow.kind == "heading" else ""
            edits.append(Edit(mem.path, offset, offset, body + newline + gap))
    return edits


def _entries_land(mem: MemoryIndex, edits: list[Edit], entries: list[str]) -> bool:
    """Whether every added line reads as an index entry once the edits are made."""
    from memlint.fixes import apply_edits  # the fix machinery is imported only when a fix is planned

    after = index_of_text(mem.path, apply_edits(mem.doc.text, edits))
    landed = {entry.line.content for entry in after.index.entries}
    return all(entry in landed for entry in entries)


def _stuck(mem: MemoryIndex) -> str:
    """Why an added line would not read as an entry."""
    filled = [line for line in mem.index.lines if line.kind != "blank"]
    if filled and filled[-1].kind == "code":
        return "MEMORY.md ends inside a code block, where an added line would be code, not an entry (close the block first)"
    return "where it would go in MEMORY.md, an added line would not read as an entry"


def _fitting(mem: MemoryIndex, entries: list[tuple[Topic, str]]) -> int:
    """How many of the entries fit before the index reaches the write-guard target."""
    lines = GUARD_TARGET_LINES - mem.truncation.line_count
    units = GUARD_TARGET_UNITS - mem.truncation.size
    n = 0
    for _, entry in entries:
        lines -= 1
        units -= utf16_len(entry) + 1
        if lines < 0 or units < 0:
            break
        n += 1
    return n


def _message(topic: Topic, folder: Path) -> str:
    message = (f"no entry of MEMORY.md points to `{rel(topic.path, folder)}`: Claude Code loads only the index at "
               "start, so Claude finds this memory only through the memory scan of the newest 200 files, by its "
               "description")
    return message + (" (and it has no `description`)" if not topic.description else "")


def check(ctx: RuleContext) -> Iterator[Finding]:
    by_folder = index_by_folder(ctx)
    for folder, paths in folders(ctx).items():
        mem = by_folder.get(folder)
        if mem is None or not paths:
            continue  # no topic file: none is an orphan (and 100,000 links need no paths)
        if _foreign(ctx, mem):
            continue  # the index belongs to another folder: ML307 says so once
        linked, wiki = index_links(ctx, folder), {w.name for w in mem.index.wiki}
        text = mem.doc.text if mem.doc.problem is None else ""
        _, plan = split_fix(ctx, mem)
        reused = {t.path for t in plan.topics if t.reused} if plan is not None else set()
        orphans: list[Topic] = []
        for path in paths:
            doc = ctx.document(path)
            topic = Topic(path, doc)
            if os.path.normpath(path) in linked or path in reused or (topic.name and topic.name in wiki):
                continue
            if _named(rel(path, folder), text):
                continue  # named in the index's text: Claude can follow the name
            if documents_the_folder(ctx, topic):
                continue  # a README or setup note of the folder: no memory to list
            orphans.append(topic)
        if orphans:  # (only then are the linked topic files read for their links)
            reached = _reached(ctx, linked, {os.path.normpath(p) for p in paths})
            orphans = [t for t in orphans if os.path.normpath(t.path) not in reached]
        if not orphans:
            continue
        writable = mem.doc.problem is None and mem.doc.scan().unclosed_comment_line is None
        # (after an unclosed `<!--` an added entry would be swallowed by the comment)
        no_index = not mem.index.entries and identity(ctx, mem.path).kind not in _MEMORY_FOLDERS
        writable = writable and not no_index
        entries = [(t, e) for t in orphans if t.doc.problem is None and (e := entry_for(t, folder))]
        if plan is not None and writable:  # the split of MEMORY.md comes first; the entries in the next pass
            for topic in orphans:
                yield Finding(topic.path, 1, _message(topic, folder) + "; its entry is added once MEMORY.md is split "
                              "(`memlint fix` does both)")
            continue
        fit = _fitting(mem, entries) if writable else 0
        fix = None
        edits = _edits(mem, [(_type_of(t), e) for t, e in entries[:fit]]) if fit else []
        stuck = _stuck(mem) if fit and not _entries_land(mem, edits, [e for _, e in entries[:fit]]) else ""
        if stuck:
            fit, writable = 0, False  # after an unclosed code fence an added line would be code
        added = {t.path for t, _ in entries[:fit]}
        if fit:
            fix = Fix(f"add-index-entries: add {fit} entr{'y' if fit == 1 else 'ies'} to MEMORY.md for topic files "
                      "it does not link", Applicability.UNSAFE, tuple(edits))
        left = len(entries) - fit
        with_entry = {t.path for t, _ in entries}
        for topic in orphans:
            message = _message(topic, folder)
            if no_index and topic.path in with_entry:
                message += ("; its entry is not added: MEMORY.md holds no index entry and is in no Claude Code memory "
                            "folder, so memlint does not take it for an index (once it holds one, the fix adds the others)")
            if stuck and topic.path in with_entry:
                message += f"; its entry is not added: {stuck}"
            if writable and topic.path not in added and topic.path in with_entry:
                message += (f"; its entry is not added ({left} orphan{'s' if left != 1 else ''} left out): more entries would take "
                            f"MEMORY.md past {GUARD_TARGET_LINES} lines or {GUARD_TARGET_UNITS:,} UTF-16 units, the "
                            "size Claude Code's write guard asks the index to be compacted to (it is at "
                            f"{mem.truncation.line_count} lines, {mem.truncation.size:,} units)")
            yield Finding(topic.path, 1, message, fix=fix if topic.path in added else None)
