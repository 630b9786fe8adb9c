"""MEMORY.md read as an index: its lines, its one-line entries, and the blocks that are not entries.

Shared by the 3xx rules and the split (`split.py`). Pure functions of a document's text: nothing
here reads a file. Line numbers are 1-based lines of the whole file; offsets are character
offsets in the document's text.
"""

from __future__ import annotations

import re
from array import array
from functools import lru_cache
from itertools import accumulate
from pathlib import Path
from typing import Literal, NamedTuple
from urllib.parse import unquote

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.jstext import js_trim
from memlint.model.text.document import Document
from memlint.records import dataclass
from memlint.rules.automem._lines import _KIND_CODE, LineKind, Lines
from memlint.rules.automem._lines import Line as Line  # noqa: PLC0414 - re-exported: ML320 imports it from here

MAX_LINE_CHARS = 200
BlockKind = Literal["section", "paragraph", "code", "list", "table", "quote", "long-entry", "entry-detail"]

_FENCE = compile_lazily(r" {0,3}(`{3,}|~{3,})")
_HEADING = compile_lazily(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$")
_RULE = compile_lazily(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_BULLET = compile_lazily(r"(?:[-*+]|\d{1,9}[.)])[ \t]+")
# Link text may hold one level of balanced brackets (`[[v2] Deploy](deploy.md)`), as CommonMark allows.
_TEXT = r"(?:[^\[\]\\]|\\.|\[(?:[^\[\]\\]|\\.)*\])"
LINK = compile_lazily(r"\[(" + _TEXT + r"*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
# The entry form of spec section 6: `- [Title](file.md) — hook` (a dash or colon is accepted too).
_ENTRY = compile_lazily(
    r"[-*+][ \t]+\[(?P<title>" + _TEXT + r"+)\]\((?P<target>[^)\s]+\.md)\)"
    r"[ \t]+(?:\u2014|\u2013|--?|:)[ \t]+(?P<hook>\S.*)"
)
# An entry line the long way would find to be a strict entry with one link and nothing else to
# parse: a plain title (no brackets, backslash or backtick), a plain relative target, no `[` or
# backtick in the hook (so no second link, wiki link or code span). Most lines of a big index are
# this; they skip the generic link scans (`_parse(..., fast=False)` is the long way, for tests).
_SIMPLE_ENTRY = compile_lazily(
    r"[-*+][ \t]+\[(?P<title>[^\[\]\\`\r\n]+)\]\((?P<target>[A-Za-z0-9_.-][A-Za-z0-9_./-]*\.md)\)"
    r"[ \t]+(?:\u2014|\u2013|--?|:)[ \t]+[^\s\[`][^\[`\r\n]*"
)
WIKI = compile_lazily(r"\[\[([^\[\]\n|]+)(?:\|[^\[\]\n]*)?\]\]")
_CODE_SPAN = compile_lazily(r"(`+)[^`]*?\1")


class Link(NamedTuple):
    """A link outside code (a tuple, as `Line`: a big index has one per line)."""

    line: int
    column: int
    title: str
    target: str  # as written, fragment and query cut, %-escapes decoded


@dataclass(frozen=True)
class WikiLink:
    """A `[[name]]` link in MEMORY.md, where it is."""

    line: int
    column: int
    name: str  # the `[[name]]` target, alias cut


class Entry(NamedTuple):
    """A one-line index entry: a list item at column 1 that links a local `.md` file (a tuple; its
    `Line` is made from the index's `Lines` when asked, not stored: a big index has one per line)."""

    number: int  # the file line
    title: str
    target: str
    well_formed: bool
    lines: Lines

    @property
    def line(self) -> Line:
        return self.lines.entry_line(self.number)


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
    """MEMORY.md read as an index: its lines, entries, blocks and links."""

    lines: Lines
    entries: tuple[Entry, ...]
    blocks: tuple[Block, ...]
    links: tuple[Link, ...]
    body_start: int  # offset where the body (after frontmatter) begins
    wiki: tuple[WikiLink, ...] = ()  # `[[name]]` links outside code

    def block_text(self, block: Block) -> str:
        lines = self.lines
        return lines.text[lines.start(block.first) : lines.end(block.last)]

    def block_lines(self, block: Block) -> range:
        return range(self.lines.first + block.first, self.lines.first + block.last + 1)


_SCHEME = compile_lazily(r"[a-zA-Z][a-zA-Z0-9+.-]*:")


@lru_cache(maxsize=65536)
def local_target(target: str) -> str | None:
    """The file a link points to, or None for URLs, anchors and mail links."""
    if target.startswith(("#", "//")) or (":" in target and _SCHEME.match(target)):
        return None
    path = target.split("#", 1)[0].split("?", 1)[0]
    path = unquote(path) if "%" in path else path
    return path or None


_MARKERS = compile_lazily(r"^(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+|\d{1,9}[.)][ \t]+|\|)+")
_MARKED = compile_lazily(r"[\\`*_|\[\]#>]|^[-+\d]|\s\s|[\t\n\r\f\v\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|^\s|\s$")
_EMPHASIS = compile_lazily(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)")


def plain_text(text: str) -> str:
    """A line's words without markdown markers: for titles and descriptions."""
    text = _MARKERS.sub("", js_trim(text))
    if "](" in text:
        text = LINK.sub(lambda m: m.group(1), text)
    if "*" in text or "_" in text:
        text = _EMPHASIS.sub("", text)
    text = text.replace("|", " ").replace("`", "")
    return " ".join(text.split())


def _classify(contents: list[str], fast: bool = True,
              simple_entries: dict[int, re.Match[str]] | None = None) -> list[LineKind]:
    """Each line's kind; `simple_entries` gets the `_SIMPLE_ENTRY` match of such lines, by index."""
    out: list[LineKind] = []
    simple = _SIMPLE_ENTRY.fullmatch if fast else _never
    matches = {} if simple_entries is None else simple_entries
    fence: str | None = None
    comment = False
    for i, content in enumerate(contents):
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
        out.append(kind)
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


def _block_kind(kind: LineKind, content: str) -> BlockKind:
    """The kind of a block from its first line."""
    first = content.lstrip()
    if kind == "code":
        return "code"
    if first.startswith("|"):
        return "table"
    if first.startswith(">"):
        return "quote"
    if _BULLET.match(first):
        return "list"
    return "paragraph"


def _title_of(kinds: list[LineKind], contents: list[str], group: list[int], fallback: str) -> str:
    for i in group:
        if kinds[i] == "code":
            continue
        words = plain_text(contents[i])
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


def parse_index(doc: Document, intro_lines: int = 3, cached: bool = True) -> Index:
    """The index of `doc` (the rules and the split share one parse of each text: `cached`)."""
    return _parse_cached(doc.text, intro_lines) if cached else _parse(doc.text, intro_lines)


@lru_cache(maxsize=4096)
def _parse_cached(text: str, intro_lines: int) -> Index:
    return _parse(text, intro_lines)


def _parse(text: str, intro_lines: int, fast: bool = True) -> Index:
    doc = Document.from_text(Path("MEMORY.md"), text)
    body_start = len(text) - len(doc.body)
    pieces = doc.body.split("\n")  # each line without its `\n`: the last piece is "" when the body ends with one
    if pieces[-1] == "":
        pieces.pop()
    starts = array("q", accumulate((len(piece) + 1 for piece in pieces), initial=body_start))
    starts[-1] = len(text)  # the last line may have no `\n`
    contents = [piece.removesuffix("\r") for piece in pieces]
    del pieces
    simple: dict[int, re.Match[str]] = {}
    kinds = _classify(contents, fast, simple)
    first_number = doc.body_line_offset + 1
    lines = Lines(text, first_number, starts, bytes(map(_KIND_CODE.__getitem__, kinds)))
    entries: list[Entry] = []
    links: list[Link] = []
    wiki: list[WikiLink] = []
    for i, kind in enumerate(kinds):
        if kind == "code" or kind == "comment":
            continue
        if (m := simple.get(i)) is not None:
            number = first_number + i
            title, target = m.group("title", "target")
            links.append(Link(number, m.start("title"), title, target))
            entries.append(Entry(number, (plain_text(title) if _MARKED.search(title) else title.strip()) or target,
                                 target, True, lines))
            continue
        content = contents[i]
        if "[" not in content:
            continue
        number = first_number + i
        visible = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), content) if "`" in content else content
        for m in WIKI.finditer(visible):
            wiki.append(WikiLink(number, m.start() + 1, m.group(1).strip()))
        for m in LINK.finditer(visible):
            target = local_target(m.group(2))
            if target is not None:
                links.append(Link(number, m.start() + 1, m.group(1), target))
        if kind == "entry":
            strict = _ENTRY.fullmatch(content.rstrip())
            first = next(m for m in LINK.finditer(content) if (local_target(m.group(2)) or "").endswith(".md"))
            target = local_target(first.group(2)) or ""
            title = first.group(1)
            entries.append(Entry(number, (plain_text(title) if _MARKED.search(title) else title.strip()) or target,
                                 target, strict is not None, lines))
    simple.clear()
    blocks = _blocks(kinds, contents, intro_lines)
    return Index(lines, tuple(entries), tuple(blocks), tuple(links), body_start, tuple(wiki))


def _blocks(kinds: list[LineKind], contents: list[str], intro_lines: int) -> list[Block]:
    """Group the lines that are not entries into blocks, section by section."""
    headings = [i for i, kind in enumerate(kinds) if kind == "heading"]
    bounds = [(-1, headings[0] if headings else len(kinds))]
    bounds += [(h, headings[n + 1] if n + 1 < len(headings) else len(kinds)) for n, h in enumerate(headings)]
    blocks: list[Block] = []
    for h, stop in bounds:
        level, title = heading_text(contents[h]) if h >= 0 else (0, "")
        body = range(h + 1, stop)
        groups = _groups(kinds, contents, body)
        next_level = heading_text(contents[stop])[0] if stop < len(kinds) else 0
        leaf = h >= 0 and (next_level == 0 or next_level <= level)
        has_index = any(kinds[i] in ("entry", "layout") for i in body)
        if leaf and groups and not has_index and (level > 1 or h != headings[0]):
            last = groups[-1][-1]
            blocks.append(Block(h, last, "section", shorten(title, 60) or "Notes", title, True))
            continue
        top = h < 0 or (level == 1 and h == headings[0])
        for n, group in enumerate(groups):
            nonblank = [i for i in group if kinds[i] != "blank"]
            if top and n == 0 and group[0] == (h + 1 if h >= 0 else 0) + _leading_blanks(kinds, body) \
                    and len(nonblank) <= intro_lines and all(kinds[i] == "detail" for i in nonblank) \
                    and all(len(contents[i]) <= MAX_LINE_CHARS for i in nonblank):
                continue  # a short introduction under the title is part of an index
            kind: BlockKind = _block_kind(kinds[group[0]], contents[group[0]])
            if kinds[group[0]] == "entry":
                kind = "long-entry"
            elif group[0] > 0 and contents[group[0]][:1] in (" ", "\t") and kinds[group[0] - 1] == "entry":
                kind = "entry-detail"
            fallback = title or "Notes"
            direct = h >= 0 and group[0] == h + 1 + _leading_blanks(kinds, body) and len(groups) == 1
            name = shorten(title, 60) if direct and title else _title_of(kinds, contents, group, fallback)
            if kind == "long-entry":
                m = LINK.search(contents[group[0]])
                name = shorten(plain_text(m.group(1)) if m else name, 60)
            if kind == "entry-detail":
                name = shorten(f"{_entry_title(contents[group[0] - 1])} (details)", 60)
            blocks.append(Block(group[0], group[-1], kind, name, title or None, False))
    return blocks


def _leading_blanks(kinds: list[LineKind], body: range) -> int:
    n = 0
    for i in body:
        if kinds[i] != "blank":
            break
        n += 1
    return n


def _entry_title(content: str) -> str:
    m = LINK.search(content)
    return plain_text(m.group(1)) if m else "Entry"


def _groups(kinds: list[LineKind], contents: list[str], body: range) -> list[list[int]]:
    """Runs of non-entry lines (blank lines inside a run join it); an over-long entry alone."""
    groups: list[list[int]] = []
    current: list[int] = []
    pending: list[int] = []
    for i in body:
        kind = kinds[i]
        if kind == "blank":
            if current:
                pending.append(i)
            continue
        if kind in ("detail", "code"):
            current += pending
            pending = []
            current.append(i)
            continue
        if current:
            groups.append(current)
        current, pending = [], []
        if kind == "entry" and len(contents[i]) > MAX_LINE_CHARS:
            groups.append([i])
    if current:
        groups.append(current)
    return groups
