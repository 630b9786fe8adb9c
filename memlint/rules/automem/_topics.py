"""What the topic-file rules (ML307-ML321) share: the topic files of each memory folder, read as
Claude Code's memory scan reads their frontmatter (`name`, `description`, and the type under
`metadata:` or, in the older format, at the top level)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from memlint.lazy_regex import compile_lazily
from memlint.model.run.memory_identity import by_folder, is_memory_folder
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.document import Document
from memlint.records import dataclass
from memlint.rules._entries import FileEntry
from memlint.rules.automem._common import MemoryIndex, indexes, topics
from memlint.rules.automem._index import heading_text, plain_text

TYPES = ("user", "feedback", "project", "reference")
# Claude Code keeps a name matching this as it is; any other it lower-cases and kebab-cases.
CLAUDE_SLUG = compile_lazily(r"[a-z0-9_-]+")


def claude_slug(name: str) -> str:
    """The `name` Claude Code writes for `name` (its own normalisation)."""
    if CLAUDE_SLUG.fullmatch(name):
        return name
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


@dataclass(frozen=True)
class Topic:
    """A topic file beside MEMORY.md."""

    path: Path
    doc: Document

    @property
    def data(self) -> dict[str, Any] | None:
        """The frontmatter mapping, or None when the file has no frontmatter."""
        fm = self.doc.frontmatter
        return None if fm is None else fm.data

    @property
    def name(self) -> str | None:
        return _text((self.data or {}).get("name"))

    @property
    def description(self) -> str | None:
        return _text((self.data or {}).get("description"))

    @property
    def metadata(self) -> dict[str, Any]:
        """Claude Code's metadata: top-level keys other than name/description, then `metadata:`."""
        data = self.data or {}
        merged = {k: v for k, v in data.items() if k not in ("name", "description", "metadata") and v is not None}
        meta = data.get("metadata")
        if isinstance(meta, dict):
            merged.update(meta)
        return merged

    @property
    def type(self) -> str | None:
        return _text(self.metadata.get("type"))

    def key_line(self, key: str) -> int:
        """The file line of a top-level frontmatter key (1 when not found)."""
        fm = self.doc.frontmatter
        if fm is None:
            return 1
        match = re.search(rf"^{re.escape(key)}[ \t]*:", fm.raw, re.MULTILINE)
        return 2 + fm.raw.count("\n", 0, match.start()) if match else 1


def folders(ctx: RuleContext) -> dict[Path, list[Path]]:
    """Each memory folder with its topic files (on disk, as discovery found them), sorted."""
    found = ctx.once(("memory-folders",), lambda: _folders(ctx))
    return {folder: list(paths) for folder, paths in found.items()}


def _folders(ctx: RuleContext) -> dict[Path, list[Path]]:
    out: dict[Path, list[Path]] = {file.path.parent: [] for file in ctx.by_role("automem-index")}
    for folder, paths in by_folder(topics(ctx)).items():
        out.setdefault(folder, []).extend(paths)
    return {folder: sorted(paths) for folder, paths in sorted(out.items())}


def memory_folders(ctx: RuleContext) -> dict[Path, list[Path]]:
    """`folders` limited to auto-memory folders: files beside a MEMORY.md that is no index (a
    hand-kept file, an include) are no topic files (`model.memory_identity`)."""
    return {folder: paths for folder, paths in folders(ctx).items() if is_memory_folder(ctx, folder)}


def all_topics(ctx: RuleContext) -> Sequence[Topic]:
    """Every readable topic file of an auto-memory folder (listed once per run: eight rules ask;
    the one list, which callers only read)."""
    return ctx.once(("all-topics",), lambda: list(_all_topics(ctx)))


def _all_topics(ctx: RuleContext) -> Iterator[Topic]:
    for entry in topic_files(ctx):
        topic = entry.topic()
        if topic is not None:
            yield topic


class TopicFile(FileEntry[Topic | None]):
    """A file of an auto-memory folder for the rules that look at topic files one at a time: the
    topic (None when its text cannot be read), read once for all of them (`FileEntry`)."""

    __slots__ = ()

    def _make(self, ctx: RuleContext) -> Topic | None:
        doc = ctx.document(self.path)
        return Topic(self.path, doc) if doc.problem is None else None

    def topic(self) -> Topic | None:
        return self.value()


def topic_files(ctx: RuleContext) -> Sequence[TopicFile]:
    """Every file of every auto-memory folder, not read yet (listed once per run)."""
    return ctx.once(("topic-files",), lambda: [TopicFile(ctx, path) for paths in memory_folders(ctx).values()
                                               for path in paths])


def index_by_folder(ctx: RuleContext) -> dict[Path, MemoryIndex]:
    return {mem.path.parent: mem for mem in indexes(ctx)}


def documents_the_folder(ctx: RuleContext, topic: Topic) -> bool:
    """A file beside MEMORY.md that documents the folder (how it is kept, how to restore it, where a
    session left off) rather than holding a memory: it has no frontmatter, its name is `README` in
    any case or written in capitals (`SETUP.md`, `SESSION_ANCHOR_0316.md`), the convention for a
    folder's own documents, and the index does not offer it as a memory (does not link it). Claude
    Code writes each memory to a file named in lower case (`user_role.md`, `feedback_testing.md`)
    with frontmatter; a file of a script without letter case (`部署.md`) never counts."""
    if topic.doc.frontmatter is not None:
        return False
    stem = topic.path.name.split(".", 1)[0]
    if stem.lower() != "readme" and not stem.isupper():
        return False
    return not linked_from_index(ctx, topic.path)  # the index is asked only about such a name


def linked_from_index(ctx: RuleContext, path: Path) -> bool:
    """Whether the MEMORY.md beside `path` links it (by a relative link of its folder)."""
    return os.path.normpath(path) in index_links(ctx, path.parent)


def index_links(ctx: RuleContext, folder: Path) -> frozenset[str]:
    """The paths (normalized) that the MEMORY.md of `folder` links, once per folder and run."""
    def read() -> frozenset[str]:
        mem = index_by_folder(ctx).get(folder)
        if mem is None:
            return frozenset()
        return frozenset(os.path.normpath(os.path.join(str(folder), link.target)) for link in mem.index.links)

    return ctx.once(("index-links", folder), read)


def rel(path: Path, folder: Path) -> str:
    try:
        return path.relative_to(folder).as_posix()
    except ValueError:
        return path.as_posix()


def _lines(text: str) -> Iterator[str]:
    """`text.split("\\n")`, one line at a time: the callers stop at the first line they want, where
    splitting made a list of every line of the file first."""
    start = 0
    while True:
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start:end]
        start = end + 1


def body_sentence(body: str) -> str | None:
    """The first sentence of a topic file's text (headings and code skipped), at most 150
    characters, or None when it has no words."""
    in_code = False
    for line in _lines(body):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            in_code = not in_code
            continue
        if in_code or not stripped or heading_text(stripped)[0]:
            continue
        words = plain_text(stripped)
        if words:
            from memlint.rules.automem.split import first_sentence  # not needed on most runs

            return first_sentence(words)
    return None


def first_heading(body: str) -> str | None:
    """The text of the file's first line when it is a heading."""
    for line in _lines(body):
        if line.strip():
            level, text = heading_text(line.rstrip("\r"))
            return text if level and text else None
    return None
