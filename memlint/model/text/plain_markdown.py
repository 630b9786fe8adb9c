"""markdown-it-py's tokens for the common plain memory file, made without markdown-it-py.

Most memory files are headings, plain paragraphs, tight bullet lists of plain items and fenced code
blocks at the margin. For such a source `plain_tokens` gives the tokens markdown-it-py would give
(the part memlint reads, `PlainToken`), so neither the parser nor its import is paid for; any other
source gives None and takes the full parse (`markdown.parse_markdown_it`).
tests/test_speed_equivalence.py checks with hypothesis that both agree wherever the fast path answers.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from memlint.lazy_regex import compile_lazily
from memlint.records import dataclass

# A line that can only be paragraph text, with no inline markup: it starts with a letter, `@`, `/`
# or `.` (no indent, list marker, heading, quote, fence, rule, setext underline, HTML or link
# definition can start so), and holds no character that opens inline markup (escape, code span,
# emphasis, entity, HTML or autolink, link or image) nor a control character markdown-it rewrites.
_PLAIN_LINE = compile_lazily(r"[A-Za-z@/.][^\x00-\x08\x0b-\x1f\x7f\\`*_&<>\[\]]*")
# An ATX heading of such text (no `#` after the marker, so no closing sequence to cut): `# Project`.
_PLAIN_HEADING = compile_lazily(r"(#{1,6})[ \t]+([A-Za-z@/.][^\x00-\x08\x0b-\x1f\x7f\\`*_&<>\[\]#]*)")
# An underscore between two ASCII letters or digits (`missing_doc.md`) can neither open nor close
# emphasis (CommonMark's flanking rules): markdown-it-py joins it back into the text around it.
_INTRAWORD_UNDERSCORE = compile_lazily(r"(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])")
# The opening line of a fenced code block at the margin: its marker run and info string. A backtick
# fence's info string holds no backtick (else the line is no fence).
_FENCE_OPEN = compile_lazily(r"(`{3,})([^`]*)|(~{3,})(.*)")


@dataclass(slots=True)
class PlainToken:
    """The part of markdown-it-py's `Token` that memlint reads, for `plain_tokens`: a source of
    plain paragraphs is tokenized without importing markdown-it-py at all."""

    type: str
    nesting: int
    map: list[int] | None = None
    level: int = 0
    content: str = ""
    children: list[PlainToken] | None = None
    info: str = ""
    markup: str = ""




def _plain_line(line: str, start: int = 0) -> bool:
    """The line (from `start`) is plain paragraph text: a `_PLAIN_LINE`, also where it holds
    underscores inside words."""
    if _PLAIN_LINE.fullmatch(line, start) is not None:
        return True
    return "_" in line and _PLAIN_LINE.fullmatch(_INTRAWORD_UNDERSCORE.sub("a", line), start) is not None


def plain_tokens(source: str) -> list[PlainToken] | None:
    """The tokens of a source whose every line is blank (spaces and tabs only), a `_PLAIN_LINE`, a
    `_PLAIN_HEADING`, part of a tight bullet list of plain items (`- text`) or of a fenced code
    block opened at the margin (`_fence_end`), else None.

    markdown-it-py makes a heading line a heading, each run of other lines one paragraph whose
    inline content is the lines joined and stripped, and a run of `- text` lines one tight list of
    one-paragraph items. The one difference: inline children, when the content holds an `@`, are a
    single `text` token of the whole content rather than a text token per line between line
    breaks, which scans alike (an include never spans a line break, and a line break is white space
    before the next line's `@`). A list must end at a heading or an empty line not followed by
    another list line (a plain line after it would continue its last item, a list line after blank
    lines make it loose): other sources take the full parse. On a CLAUDE.md of 50,000 `@path`
    lines this is 30 times faster than the full parse, and a short `- Shared: @path` list needs no
    parser at all. A source holding a NUL takes the full parse: markdown-it-py reads each as U+FFFD,
    in a code block's text and info string too."""
    if "\x00" in source:
        return None
    lines = source.split("\n")
    # (first line, end line, kind, heading or list marker, heading text)
    spans: list[tuple[int, int, str, str, str]] = []
    start = -1
    plain = _plain_line
    index = 0
    count = len(lines)
    while index < count:
        line = lines[index]
        if not line.strip(" \t"):
            if start >= 0:
                spans.append((start, index, "paragraph", "", ""))
                start = -1
        elif plain(line):
            if start < 0:
                start = index
        elif line[:2] in _LIST_MARKERS and plain(line, 2):
            if start >= 0:  # a bullet list interrupts the paragraph above it
                spans.append((start, index, "paragraph", "", ""))
                start = -1
            end = _list_end(lines, index, plain)
            if end is None:
                return None
            spans.append((index, end, "list", line[0], ""))
            index = end
            continue
        elif line[0] in "`~" and (fence := _FENCE_OPEN.fullmatch(line)) is not None:
            if start >= 0:  # a fence interrupts the paragraph above it
                spans.append((start, index, "paragraph", "", ""))
                start = -1
            marker, info = (fence.group(1), fence.group(2)) if fence.group(1) else (fence.group(3), fence.group(4))
            found = _fence_end(lines, index, marker)
            if found is None:
                return None
            end, closed = found
            spans.append((index, end, "fence" if closed else "open fence", marker, info))
            index = end
            continue
        else:
            heading = _PLAIN_HEADING.fullmatch(line) if line[0] == "#" else None
            if heading is None:
                return None
            if start >= 0:  # a heading ends the paragraph above it
                spans.append((start, index, "paragraph", "", ""))
                start = -1
            spans.append((index, index + 1, "heading", heading.group(1), heading.group(2)))
        index += 1
    if start >= 0:
        spans.append((start, count, "paragraph", "", ""))
    tokens: list[PlainToken] = []
    for first, end, kind, marker, text in spans:
        if kind == "list":
            tokens += _plain_list(lines, first, end, marker)
            continue
        if kind in ("fence", "open fence"):
            tokens.append(_plain_fence(lines, first, end, marker, text, kind == "fence"))
            continue
        content = (text if marker else "\n".join(lines[first:end])).strip()
        span = [first, end]
        tokens += [
            PlainToken(f"{kind}_open", 1, map=span, level=0, markup=marker),
            PlainToken("inline", 0, map=span, level=1, content=content, children=_plain_children(content)),
            _closing(f"{kind}_close", 0, marker),
        ]
    return tokens


@lru_cache(maxsize=64)
def _closing(kind: str, level: int, markup: str) -> PlainToken:
    """A closing token, one object for every one alike. Plain tokens are read, never changed (only
    markdown-it-py's get their `children` set, in `parse_markdown_it`), so tokens share what is
    equal: closing tokens, and the line map of a block with its inline token. A document keeps its
    tokens for the run (ML108 reads them after the scan), and these were most of them."""
    return PlainToken(kind, -1, level=level, markup=markup)


_LIST_MARKERS = ("- ", "* ", "+ ")


def _list_end(lines: list[str], first: int, plain: Callable[[str, int], bool]) -> int | None:
    """Where the tight list of plain `- text` items starting at line `first` ends, as markdown-it-py
    maps it (the blank lines after it included), or None when the list is not one `plain_tokens`
    makes: markers change, a plain line continues the last item, or blank lines lead to another
    list line (a loose list)."""
    marker = lines[first][:2]
    index = first + 1
    count = len(lines)
    while index < count and lines[index][:2] == marker and plain(lines[index], 2):
        index += 1
    items_end = index
    while index < count and not lines[index].strip(" \t"):
        if lines[index]:  # white space after a list maps in ways not worth copying: the full parse
            return None
        index += 1
    if index == count:  # the end of the source: markdown-it-py has no line after a final newline
        return count - 1 if lines[-1] == "" else count
    following = lines[index]
    if index == items_end:  # no blank line: only a heading ends the list here
        return index if following[0] == "#" and _PLAIN_HEADING.fullmatch(following) is not None else None
    return None if following[:2] in _LIST_MARKERS else index


def _fence_end(lines: list[str], first: int, marker: str) -> tuple[int, bool] | None:
    """The line after the fenced code block opened by `marker` at line `first`, as markdown-it-py
    maps it, and whether a line closes it: after its closing line (the marker's character, at
    least as many, then only spaces and tabs, indented less than four spaces), else the end of the
    source. None for a line that might close it only by how tabs count (an indent holding a tab)."""
    char = marker[0]
    # markdown-it-py has no line after a final line break, nor a last line of spaces and tabs only
    count = len(lines) - 1 if not lines[-1].strip(" \t") else len(lines)
    for index in range(first + 1, count):
        line = lines[index]
        text = line.lstrip(" \t")
        if not text.startswith(char):
            continue
        indent = line[: len(line) - len(text)]
        if "\t" in indent:
            return None
        run = len(text) - len(text.lstrip(char))
        if len(indent) < 4 and run >= len(marker) and not text[run:].strip(" \t"):
            return index + 1, True
    return count, False


def _plain_fence(lines: list[str], first: int, end: int, marker: str, info: str, closed: bool) -> PlainToken:
    """The token of the fenced code block `_fence_end` found: its lines between the fence lines,
    each ending in a line break (but the last line of a source without a final line break)."""
    inner = lines[first + 1 : end - 1 if closed else end]
    content = "".join(f"{line}\n" for line in inner)
    if inner and not closed and end == len(lines):
        content = content[:-1]
    return PlainToken("fence", 0, map=[first, end], level=0, content=content, info=info, markup=marker)


def _plain_list(lines: list[str], first: int, end: int, marker: str) -> list[PlainToken]:
    """The tokens of the tight list `_list_end` found: one hidden paragraph per item."""
    items_end = first
    while items_end < end and lines[items_end].strip(" \t"):
        items_end += 1
    tokens = [PlainToken("bullet_list_open", 1, map=[first, end], level=0, markup=marker)]
    paragraph_close = _closing("paragraph_close", 2, "")
    item_close = _closing("list_item_close", 1, marker)
    for index in range(first, items_end):
        content = lines[index][2:].strip()
        line = [index, index + 1]  # shared by the item (but the last), its paragraph and its inline token
        tokens += [
            PlainToken("list_item_open", 1, map=[index, end] if index == items_end - 1 else line, level=1,
                       markup=marker),
            PlainToken("paragraph_open", 1, map=line, level=2),
            PlainToken("inline", 0, map=line, level=3, content=content, children=_plain_children(content)),
            paragraph_close,
            item_close,
        ]
    tokens.append(_closing("bullet_list_close", 0, marker))
    return tokens


def _plain_children(content: str) -> list[PlainToken] | None:
    """The one text child of an inline token that holds an `@`; None (read as no children, as the
    empty list markdown-it-py leaves unparsed inline tokens) when there is nothing to scan."""
    return [PlainToken("text", 0, content=content)] if "@" in content else None
