"""The split of MEMORY.md: every block that is not a one-line index entry moves, verbatim, into a
topic file of its own, and is replaced by one entry `- [Title](slug.md) — description`.

`plan_split` is a pure function of the index text and of what already exists beside it; it never
writes. It checks its own result before returning it: every non-blank line of the old MEMORY.md is
present, verbatim, in the new MEMORY.md or in exactly one new topic file, else `SplitError`.
A topic file that an earlier, interrupted split already wrote (same `name`, same body up to white
space) is recognised and linked again instead of being written a second time under another name.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

from memlint.model.automem import Truncation, truncate_index
from memlint.model.document import Document
from memlint.model.frontmatter import parse_frontmatter
from memlint.model.jstext import JS_WHITESPACE, js_trim
from memlint.rules.automem._index import MAX_LINE_CHARS, Block, Index, parse_index, plain_text, shorten

TYPES = ("user", "feedback", "project", "reference")
MAX_DESCRIPTION = 150
_RESERVED = {"memory", "claude", "claude.local", "agents", "readme"}
_TYPE_WORDS = (
    ("user", re.compile(r"\b(user|preferences?|about me|persona)\b", re.IGNORECASE)),
    ("feedback", re.compile(r"\b(feedback|lessons?|corrections?|mistakes?|gotchas?|pitfalls?|avoid)\b", re.IGNORECASE)),
    ("reference", re.compile(r"\b(references?|links?|resources?|docs|documentation|urls?|contacts?)\b", re.IGNORECASE)),
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s|[\u3002\uff01\uff1f]")


class SplitError(Exception):
    """The split would lose text; nothing is offered."""


@dataclass(frozen=True)
class NewTopic:
    path: Path
    name: str
    title: str
    description: str
    text: str  # the whole file as written
    block: Block
    reused: bool  # already on disk from an earlier run: linked, not written


@dataclass(frozen=True)
class SplitPlan:
    old_text: str
    new_text: str  # the new MEMORY.md
    topics: tuple[NewTopic, ...]
    replacements: tuple[tuple[int, int, str], ...]  # (start, end, new text) in the old MEMORY.md

    @property
    def truncation(self) -> Truncation:
        """How Claude Code would load the new MEMORY.md."""
        return truncate_index(Document.from_text(Path("MEMORY.md"), self.new_text).scan().loaded)


def slugify(title: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    if len(slug) > 48:
        slug = slug[:48].rsplit("-", 1)[0] if "-" in slug[:48] else slug[:48]
    return slug or "note"


def infer_type(title: str, heading: str | None, default: str) -> str:
    for value, pattern in _TYPE_WORDS:
        if pattern.search(title) or (heading and pattern.search(heading)):
            return value
    return default


def description_of(index: Index, block: Block) -> str:
    lines = index.lines[block.first : block.last + 1]
    if block.moves_heading:
        lines = lines[1:]
    words = ""
    for line in lines:
        if line.kind in ("code", "comment"):
            continue
        words = plain_text(line.content)
        if words:
            break
    words = words or block.title
    if block.kind == "long-entry":
        hook = re.split(r"\s(?:\u2014|\u2013|--?|:)\s", words, maxsplit=1)
        words = hook[1] if len(hook) == 2 and hook[1].strip() else words
    return first_sentence(words)


def first_sentence(words: str) -> str:
    """The first sentence of `words`, white space made plain, at most 150 characters."""
    match = _SENTENCE_END.search(words)
    if match and match.start() > 0:
        words = words[: match.start() + (1 if words[match.start()] in "\u3002\uff01\uff1f" else 0)]
    words = "".join(" " if ch in JS_WHITESPACE else ch for ch in words).strip()
    return shorten(words, MAX_DESCRIPTION)


def yaml_scalar(value: str) -> str:
    """`value` as a YAML scalar that reads back as exactly `value`."""
    plain = parse_frontmatter(f"---\nv: {value}\n---\n")
    if plain is not None and plain.error is None and not plain.retried and plain.data.get("v") == value:
        return value
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def _is_ours(existing: str, name: str, block_text: str) -> bool:
    """An earlier split wrote this file: same `name`, same body up to white space."""
    fm = parse_frontmatter(existing)
    if fm is None or fm.data.get("name") != name:
        return False
    return _normalized(existing[fm.end_offset :]) == _normalized(block_text)


def _normalized(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if line.strip()]


def _digest(text: str, k: int, length: int) -> str:
    return hashlib.sha1(f"{k}\0{text}".encode()).hexdigest()[:length]


def plan_split(
    text: str,
    folder: Path,
    existing: Callable[[Path], str | None],
    taken: Collection[str] = (),
    default_type: str = "project",
    intro_lines: int = 3,
) -> SplitPlan | None:
    """The split of MEMORY.md text `text` in `folder`, or None when there is nothing to move.

    `existing(path)` gives the text of a file that exists (None when it does not); `taken` holds
    the lower-cased names of files in the folder (a name differing only in case is taken too)."""
    doc = Document.from_text(folder / "MEMORY.md", text)
    index = parse_index(doc, intro_lines)
    if not index.blocks:
        return None
    newline = doc.newline
    used = {t.lower() for t in taken} | {"memory.md"}
    topics: list[NewTopic] = []
    replacements: list[tuple[int, int, str]] = []
    for block in index.blocks:
        block_text = index.block_text(block)
        body = block_text if block_text.endswith("\n") else block_text + newline
        description = description_of(index, block)
        kind = infer_type(block.title, block.heading, default_type)
        base = slugify(block.title)
        if base in _RESERVED:
            base += "-notes"
        name, reused, k = base, False, 0
        while True:
            on_disk = existing(folder / f"{name}.md")
            if on_disk is not None and f"{name}.md" not in {t.path.name for t in topics} and _is_ours(
                on_disk, name, block_text
            ):
                reused = True
                break
            if on_disk is None and f"{name}.md" not in used:
                break
            name = f"{base}-{_digest(block_text, k // 4, 6 + 2 * (k % 4))}"
            k += 1
        used.add(f"{name}.md")
        file_text = newline.join(
            ["---", f"name: {name}", f"description: {yaml_scalar(description)}", "metadata:", f"  type: {kind}",
             "---", "", ""]
        ) + body
        if reused:
            file_text = on_disk or ""
        title = block.title.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
        prefix = f"- [{title}]({name}.md) \u2014 "
        entry = prefix + shorten(description, max(20, MAX_LINE_CHARS - len(prefix)))
        first, last = index.lines[block.first], index.lines[block.last]
        ending = last.raw[len(last.raw.rstrip("\r\n")) :]
        replacements.append((first.start, last.end, entry + (newline if ending else "")))
        topics.append(NewTopic(folder / f"{name}.md", name, block.title, description, file_text, block, reused))
    new_text = _apply(text, replacements)
    plan = SplitPlan(text, new_text, tuple(topics), tuple(replacements))
    verify(plan, index, intro_lines)
    return plan


def _apply(text: str, replacements: list[tuple[int, int, str]]) -> str:
    out, cursor = [], 0
    for start, end, new in sorted(replacements):
        out.append(text[cursor:start])
        out.append(new)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


def _lines(text: str) -> list[str]:
    return [line.removesuffix("\r") for line in text.split("\n") if js_trim(line)]


def verify(plan: SplitPlan, index: Index, intro_lines: int = 3) -> None:
    """Refuse a plan that loses text: every non-blank line of the old MEMORY.md must be in the
    new MEMORY.md or in the one topic file its block went to."""
    for topic in plan.topics:
        block_text = index.block_text(topic.block)
        if topic.reused:
            if not _is_ours(topic.text, topic.name, block_text):
                raise SplitError(f"{topic.path.name} does not hold the block it stands for")
        elif block_text not in topic.text:
            raise SplitError(f"{topic.path.name} does not hold its block verbatim")
    kept = Counter(_lines(plan.new_text))
    moved = Counter(line for t in plan.topics for line in _lines(index.block_text(t.block)))
    for line, count in Counter(_lines(plan.old_text)).items():
        if kept[line] + moved[line] < count:
            raise SplitError(f"the line {line[:60]!r} would be lost")
    spans = sorted((s, e) for s, e, _ in plan.replacements)
    if any(a[1] > b[0] for a, b in itertools.pairwise(spans)):
        raise SplitError("overlapping blocks")
    if parse_index(Document.from_text(Path("MEMORY.md"), plan.new_text), intro_lines).blocks:
        raise SplitError("the new MEMORY.md would still hold blocks that are not entries")
