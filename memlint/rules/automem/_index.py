"""MEMORY.md read as an index: its lines, its one-line entries, and the blocks that are not entries.

Shared by the 3xx rules and the split (`split.py`). Pure functions of a document's text: nothing
here reads a file. Line numbers are 1-based lines of the whole file; offsets are character
offsets in the document's text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal, NamedTuple
from urllib.parse import unquote

from memlint.model.document import Document
from memlint.model.jstext import js_trim

MAX_LINE_CHARS = 200
LineKind = Literal["blank", "heading", "entry", "detail", "code", "layout", "comment"]
BlockKind = Literal["section", "paragraph", "code", "list", "table", "quote", "long-entry", "entry-detail"]

_LINE = re.compile(r"[^\n]*\n|[^\n]+")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$")
_RULE = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_BULLET = re.compile(r"(?:[-*+]|\d{1,9}[.)])[ \t]+")
LINK = re.compile(r"\[((?:[^\[\]\\]|\\.)*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
# The entry form of spec section 6: `- [Title](file.md) — hook` (a dash or colon is accepted too).
_ENTRY = re.compile(
    r"[-*+][ \t]+\[(?P<title>(?:[^\[\]\\]|\\.)+)\]\((?P<target>[^)\s]+\.md)\)"
    r"[ \t]+(?:\u2014|\u2013|--?|:)[ \t]+(?P<hook>\S.*)"
)
# An entry line the long way would find to be a strict entry with one link and nothing else to
# parse: a plain title (no brackets, backslash or backtick), a plain relative target, no `[` or
# backtick in the hook (so no second link, wiki link or code span). Most lines of a big index are
# this; they skip the generic link scans (`_parse(..., fast=False)` is the long way, for tests).
_SIMPLE_ENTRY = re.compile(
    r"[-*+][ \t]+\[(?P<title>[^\[\]\\`\r\n]+)\]\((?P<target>[A-Za-z0-9_.-][A-Za-z0-9_./-]*\.md)\)"
    r"[ \t]+(?:\u2014|\u2013|--?|:)[ \t]+[^\s\[`][^\[`\r\n]*"
)
WIKI = re.compile(r"\[\[([^\[\]\n|]+)(?:\|[^\[\]\n]*)?\]\]")
_CODE_SPAN = re.compile(r"(`+)[^`]*?\1")


class Line(NamedTuple):
    """One line of MEMORY.md (a tuple: an index has one per line, and a 100,000-line file is
    parsed in well under a second)."""

    number: int  # 1-based line of the file
    start: int  # offset of the first character in the document text
    end: int  # offset after the line ending
    raw: str  # the line with its ending
    kind: LineKind
    content: str  # the line without its ending (`\r\n` or `\n`)


class Link(NamedTuple):
    """A link outside code (a tuple, as `Line`: a big index has one per line)."""

    line: int
    column: int
    title: str
    target: str  # as written, fragment and query cut, %-escapes decoded


@dataclass(frozen=True)
class WikiLink:
    line: int
    column: int
    name: str  # the `[[name]]` target, alias cut


class Entry(NamedTuple):
    """A one-line index entry: a list item at column 1 that links a local `.md` file (a tuple)."""

    line: Line
    title: str
    target: str
    well_formed: bool


@dataclass(frozen=True)
class Block:
    """Lines of MEMORY.md that are not index entries (indices into `Index.lines`, inclusive)."""

    first: int
    last: int
    kind: BlockKind
    title: str
    heading: str | None  # the heading the block stands under
    moves_heading: bool  # the block is a whole section, its heading included


@dataclass(frozen=True)
class Index:
    lines: tuple[Line, ...]
    entries: tuple[Entry, ...]
    blocks: tuple[Block, ...]
    links: tuple[Link, ...]
    body_start: int  # offset where the body (after frontmatter) begins
    wiki: tuple[WikiLink, ...] = ()  # `[[name]]` links outside code

    def block_text(self, block: Block) -> str:
        return "".join(line.raw for line in self.lines[block.first : block.last + 1])

    def block_lines(self, block: Block) -> range:
        return range(self.lines[block.first].number, self.lines[block.last].number + 1)


_SCHEME = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:")


@lru_cache(maxsize=65536)
def local_target(target: str) -> str | None:
    """The file a link points to, or None for URLs, anchors and mail links."""
    if target.startswith(("#", "//")) or (":" in target and _SCHEME.match(target)):
        return None
    path = target.split("#", 1)[0].split("?", 1)[0]
    path = unquote(path) if "%" in path else path
    return path or None


_MARKERS = re.compile(r"^(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+|\d{1,9}[.)][ \t]+|\|)+")
_MARKED = re.compile(r"[\\`*_|\[\]#>]|^[-+\d]|\s\s|[\t\n\r\f\v\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|^\s|\s$")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)")


def plain_text(text: str) -> str:
    """A line's words without markdown markers: for titles and descriptions."""
    text = _MARKERS.sub("", js_trim(text))
    if "](" in text:
        text = LINK.sub(lambda m: m.group(1), text)
    if "*" in text or "_" in text:
        text = _EMPHASIS.sub("", text)
    text = text.replace("|", " ").replace("`", "")
    return " ".join(text.split())


def _classify(lines: list[tuple[int, int, str]], first_number: int, fast: bool = True,
              simple_entries: dict[int, re.Match[str]] | None = None) -> list[Line]:
    """Each line with its kind; `simple_entries` gets the `_SIMPLE_ENTRY` match of such lines, by index."""
    out: list[Line] = []
    simple = _SIMPLE_ENTRY.fullmatch if fast else _never
    matches = {} if simple_entries is None else simple_entries
    fence: str | None = None
    comment = False
    for i, (start, end, raw) in enumerate(lines):
        content = raw.rstrip("\n").removesuffix("\r")
        kind: LineKind
        if fence is not None:
            kind = "code"
            match = _FENCE.match(content)
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence) and not js_trim(
                content[match.end() :]
            ):
                fence = None
        elif comment:
            kind = "comment"
            comment = "-->" not in content
        elif match := simple(content):
            kind = "entry"
            matches[i] = match
        elif not (lead := content.lstrip(" ")) or not js_trim(content):
            kind = "blank"
        elif lead[0] in "`~" and (match := _FENCE.match(content)) and not (
                match.group(1)[0] == "`" and "`" in content[match.end() :]):
            kind, fence = "code", match.group(1)
        elif lead.startswith("<!--"):
            kind = "comment"
            comment = "-->" not in content
        elif lead[0] == "#" and _HEADING.match(content):
            kind = "heading"
        elif lead[0] in "-*_" and _RULE.match(content):
            kind = "layout"
        elif _entry_candidate(content):
            kind = "entry"
        else:
            kind = "detail"
        out.append(Line(first_number + i, start, end, raw, kind, content))
    return out


def _never(content: str) -> None:
    return None


def _entry_candidate(content: str) -> bool:
    if not _BULLET.match(content):
        return False
    return "](" in content and any((local_target(m.group(2)) or "").endswith(".md") for m in LINK.finditer(content))


def heading_text(content: str) -> tuple[int, str]:
    match = _HEADING.match(content)
    if match is None:
        return 0, ""
    return len(match.group(1)), plain_text(match.group(2) or "")


def _block_kind(lines: list[Line]) -> BlockKind:
    first = lines[0].content.lstrip()
    if lines[0].kind == "code":
        return "code"
    if first.startswith("|"):
        return "table"
    if first.startswith(">"):
        return "quote"
    if _BULLET.match(first):
        return "list"
    return "paragraph"


def _title_of(lines: list[Line], fallback: str) -> str:
    for line in lines:
        if line.kind == "code":
            continue
        words = plain_text(line.content)
        if words:
            return shorten(words, 60)
    return shorten(fallback, 60)


def shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:-") + "\u2026"


def parse_index(doc: Document, intro_lines: int = 3) -> Index:
    return _parse_cached(doc.text, intro_lines)


@lru_cache(maxsize=4096)
def _parse_cached(text: str, intro_lines: int) -> Index:
    return _parse(text, intro_lines)


def _parse(text: str, intro_lines: int, fast: bool = True) -> Index:
    doc = Document.from_text(Path("MEMORY.md"), text)
    body_start = len(text) - len(doc.body)
    spans = [(m.start() + body_start, m.end() + body_start, m.group(0)) for m in _LINE.finditer(doc.body)]
    simple: dict[int, re.Match[str]] = {}
    lines = _classify(spans, doc.body_line_offset + 1, fast, simple)
    entries: list[Entry] = []
    links: list[Link] = []
    wiki: list[WikiLink] = []
    for i, line in enumerate(lines):
        if line.kind in ("code", "comment"):
            continue
        if (m := simple.get(i)) is not None:
            title, target = m.group("title", "target")
            links.append(Link(line.number, m.start("title"), title, target))
            entries.append(Entry(line, (plain_text(title) if _MARKED.search(title) else title.strip()) or target,
                                 target, True))
            continue
        content = line.content
        if "[" not in content:
            continue
        visible = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), content) if "`" in content else content
        for m in WIKI.finditer(visible):
            wiki.append(WikiLink(line.number, m.start() + 1, m.group(1).strip()))
        for m in LINK.finditer(visible):
            target = local_target(m.group(2))
            if target is not None:
                links.append(Link(line.number, m.start() + 1, m.group(1), target))
        if line.kind == "entry":
            strict = _ENTRY.fullmatch(content.rstrip())
            first = next(m for m in LINK.finditer(content) if (local_target(m.group(2)) or "").endswith(".md"))
            target = local_target(first.group(2)) or ""
            title = first.group(1)
            entries.append(Entry(line, (plain_text(title) if _MARKED.search(title) else title.strip()) or target,
                                 target, strict is not None))
    blocks = _blocks(lines, intro_lines)
    return Index(tuple(lines), tuple(entries), tuple(blocks), tuple(links), body_start, tuple(wiki))


def _blocks(lines: list[Line], intro_lines: int) -> list[Block]:
    """Group the lines that are not entries into blocks, section by section."""
    headings = [i for i, line in enumerate(lines) if line.kind == "heading"]
    bounds = [(-1, headings[0] if headings else len(lines))]
    bounds += [(h, headings[n + 1] if n + 1 < len(headings) else len(lines)) for n, h in enumerate(headings)]
    blocks: list[Block] = []
    for h, stop in bounds:
        level, title = heading_text(lines[h].content) if h >= 0 else (0, "")
        body = range(h + 1, stop)
        groups = _groups(lines, body)
        next_level = heading_text(lines[stop].content)[0] if stop < len(lines) else 0
        leaf = h >= 0 and (next_level == 0 or next_level <= level)
        has_index = any(lines[i].kind in ("entry", "layout") for i in body)
        if leaf and groups and not has_index and (level > 1 or h != headings[0]):
            last = groups[-1][-1]
            blocks.append(Block(h, last, "section", shorten(title, 60) or "Notes", title, True))
            continue
        top = h < 0 or (level == 1 and h == headings[0])
        for n, group in enumerate(groups):
            chosen = [lines[i] for i in group]
            nonblank = [ln for ln in chosen if ln.kind != "blank"]
            if top and n == 0 and group[0] == (h + 1 if h >= 0 else 0) + _leading_blanks(lines, body) \
                    and len(nonblank) <= intro_lines and all(ln.kind == "detail" for ln in nonblank) \
                    and all(len(ln.content) <= MAX_LINE_CHARS for ln in nonblank):
                continue  # a short introduction under the title is part of an index
            kind: BlockKind = _block_kind(chosen)
            if chosen[0].kind == "entry":
                kind = "long-entry"
            elif group[0] > 0 and lines[group[0]].content[:1] in (" ", "\t") and _after_entry(lines, group[0]):
                kind = "entry-detail"
            fallback = title or "Notes"
            direct = h >= 0 and group[0] == h + 1 + _leading_blanks(lines, body) and len(groups) == 1
            name = shorten(title, 60) if direct and title else _title_of(chosen, fallback)
            if kind == "long-entry":
                m = LINK.search(chosen[0].content)
                name = shorten(plain_text(m.group(1)) if m else name, 60)
            if kind == "entry-detail":
                name = shorten(f"{_entry_title(lines, group[0])} (details)", 60)
            blocks.append(Block(group[0], group[-1], kind, name, title or None, False))
    return blocks


def _leading_blanks(lines: list[Line], body: range) -> int:
    n = 0
    for i in body:
        if lines[i].kind != "blank":
            break
        n += 1
    return n


def _after_entry(lines: list[Line], i: int) -> bool:
    return i > 0 and lines[i - 1].kind == "entry"


def _entry_title(lines: list[Line], i: int) -> str:
    m = LINK.search(lines[i - 1].content)
    return plain_text(m.group(1)) if m else "Entry"


def _groups(lines: list[Line], body: range) -> list[list[int]]:
    """Runs of non-entry lines (blank lines inside a run join it); an over-long entry alone."""
    groups: list[list[int]] = []
    current: list[int] = []
    pending: list[int] = []
    for i in body:
        line = lines[i]
        if line.kind == "blank":
            if current:
                pending.append(i)
            continue
        if line.kind in ("detail", "code"):
            current += pending
            pending = []
            current.append(i)
            continue
        if current:
            groups.append(current)
        current, pending = [], []
        if line.kind == "entry" and len(line.content) > MAX_LINE_CHARS:
            groups.append([i])
    if current:
        groups.append(current)
    return groups
