"""Claude Code's reading of a memory file's markdown: `@include` references and comment stripping.

Claude Code lexes with `marked` (gfm off); memlint lexes with markdown-it-py in CommonMark mode and
reproduces marked's observable behaviour:

- text in paragraphs, headings, block quotes and link text is scanned for
  `(?:^|\\s)@((?:[^\\s\\\\]|\\\\ )+)`; code blocks, code spans, images, escapes and HTML are not;
- inside list items marked keeps each paragraph's raw source as a `text` token and scans it too, so
  there a code span or inline HTML does not hide an include;
- a block-level HTML token that starts with `<!--` and holds `-->` is scanned only for what is left
  after removing its comments, and is cut from the loaded text together with the blank lines that
  follow it (marked's token includes them). An unclosed `<!--` swallows the rest of the file.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import field
from functools import lru_cache
from typing import TYPE_CHECKING

from memlint.model.cli_js.jstext import JS_WS_CLASS, js_trim, js_trim_start
from memlint.records import dataclass

if TYPE_CHECKING:  # markdown-it-py is imported only when a file needs parsing (it holds `@` or `<!--`)
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

INCLUDE_PATTERN = re.compile(rf"(?:^|[{JS_WS_CLASS}])@((?:[^{JS_WS_CLASS}\\]|\\ )+)")
COMMENT_SPAN = re.compile(r"<!--[\s\S]*?-->")
_INVALID_START = re.compile(r"[#%^&*()]+")
_VALID_START = re.compile(r"[a-zA-Z0-9._-]")


@dataclass(frozen=True, slots=True)
class IncludeRef:
    """One `@path` that Claude Code accepts as an include, where it stands in the file."""

    path: str  # as written after cutting `#fragment` and unescaping `\\ ` (not yet resolved)
    written: str  # the text after `@` as it stands in the file
    line: int  # 1-based line in the whole file
    column: int  # 1-based column of the `@`


@dataclass(frozen=True, slots=True)
class Scan:
    """What Claude Code takes from a file's body."""

    # The body after comment stripping (before trimming) when that changed it, else None: the
    # body itself (`Document.loaded`), not held here, so that a document can let its text go.
    stripped_text: str | None = None
    includes: tuple[IncludeRef, ...] = ()
    comments_stripped: bool = False
    unclosed_comment_line: int | None = None  # a `<!--` block that never closes, 1-based
    parsed: bool = False  # markdown-it-py ran
    rejected: tuple[IncludeRef, ...] = field(default=())  # `@x` the regex found but Claude rejects
    dropped_includes: int = 0  # includes past memlint's `max-includes-per-file` limit: not followed


@lru_cache(maxsize=4096)
def accepted_include(path: str) -> bool:
    """Claude Code's acceptance test for the text after `@` (fragment already cut)."""
    if path.startswith("//") or _is_net_path(path):  # UNC-like and /net/ paths are never read
        return False
    if path.startswith(("./", "~/")) or (path.startswith("/") and path != "/"):
        return True
    return (
        not path.startswith("@")
        and _INVALID_START.match(path) is None
        and _VALID_START.match(path) is not None
    )


def _is_net_path(path: str) -> bool:
    """Claude Code refuses `/net/<host>/...` automount paths."""
    if not path.startswith("/") or "net" not in path.lower():
        return False
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts:
                parts.pop()
            continue
        parts.append(part)
        if len(parts) == 2 and parts[0].lower() == "net":
            return True
    return False


def find_include_texts(text: str) -> list[tuple[int, str, str]]:
    """(offset of `@`, written, path) for each regex match in `text`, acceptance not yet applied."""
    found = []
    for match in INCLUDE_PATTERN.finditer(text):
        written = match.group(1)
        path = include_path(written)
        if path is not None:
            found.append((match.start(1) - 1, written, path))
    return found


def include_path(written: str) -> str | None:
    """The path of the text after `@`: `#fragment` cut, `\\ ` unescaped; None when nothing is left."""
    path = written
    hash_index = path.find("#")
    if hash_index != -1:
        path = path[:hash_index]
    if not path:
        return None
    path = path.replace("\\ ", " ")
    return path or None


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark")
    md.disable("text_join")  # keep escapes and entities apart from text, as marked does
    md.disable("inline")  # inline parsing runs only where it can matter (see `parse`)
    return md


def comment_residue(raw: str) -> str | None:
    """marked's test for a comment HTML token: the text left after removing comments, else None."""
    trimmed = js_trim_start(raw)
    if trimmed.startswith("<!--") and "-->" in trimmed:
        return COMMENT_SPAN.sub("", raw)
    return None


class _Locator:
    """Maps scanned snippets back to lines of the body, in reading order: each search starts where
    the previous one of the same pass ended (a block's snippets come in order), so locating every
    include of a 50,000-line paragraph stays linear.

    It searches the newline-normalized source itself and finds where lines start only as far as a
    search reaches (a snippet holds no newline, so its first match after the cursor is the one a
    line-by-line search finds): splitting a large file into lines cost more than the rest of its
    scan when its only include sits near the top."""

    def __init__(self, source: str, line_offset: int) -> None:
        self.source = source
        self.line_offset = line_offset
        self.starts = [0]  # offsets where the lines found so far start
        self.complete = False  # every line start is known
        self.cursor = (0, 0)  # (line index, column) where the next search of this pass starts

    def start(self, line: int) -> None:
        """Begin a pass over the block starting at line index `line`."""
        self.cursor = (line, 0)

    def _known_through(self, line: int = -1, offset: int = -1) -> None:
        """Find line starts until line index `line` and the line holding `offset` are known (or
        the source ends)."""
        starts, source = self.starts, self.source
        while not self.complete and (len(starts) <= line or starts[-1] <= offset):
            newline = source.find("\n", starts[-1])
            if newline == -1:
                self.complete = True
            else:
                starts.append(newline + 1)

    def find(self, needle: str) -> tuple[int, int]:
        start_line, column = self.cursor
        self._known_through(line=start_line)
        if start_line < len(self.starts):
            found = self.source.find(needle, self.starts[start_line] + column)
            if found != -1:
                self._known_through(offset=found)
                index = bisect_right(self.starts, found) - 1
                column = found - self.starts[index]
                self.cursor = (index, column + len(needle))
                return index + 1 + self.line_offset, column + 1
        return start_line + 1 + self.line_offset, 1


def normalize_newlines(body: str) -> str:
    """The source marked lexes: every CRLF and lone CR made LF (the text itself when it has no CR,
    told by a one-character search: see `has_comment_open`)."""
    if "\r" not in body:
        return body
    return body.replace("\r\n", "\n").replace("\r", "\n")


def has_comment_open(text: str) -> bool:
    """`"<!--" in text`. A search for one character runs at memory speed; on Python 3.11 one for
    several characters reads every character in Python's slower loop (a 13 kB file: 18 µs against
    0.2), so a text with no `<` at all, most memory files, is answered by the first."""
    return "<" in text and "<!--" in text


def _holds_from(text: str, needle: str, start: int) -> bool:
    """`needle in text[start:]` without copying the tail, its first character searched first (see
    `has_comment_open`)."""
    return text.find(needle[0], start) != -1 and text.find(needle, start) != -1


_BLANK_LINE = re.compile(r"\n[ \t]*(?:\n|\Z)")


def includes_prefix(source: str) -> str:
    """The part of newline-normalized `source` that decides its includes: up to the first blank
    line after the last `@`. Nothing after a blank line changes how the lines before it parse
    (an unclosed fence or HTML block stays open to the end either way), except a link reference
    definition (`[label]: url`) and a comment to strip: with either, the whole source."""
    last = source.rfind("@")
    if last == -1 or has_comment_open(source):
        return source
    blank = _BLANK_LINE.search(source, last)
    if blank is None:
        return source
    cut = blank.start() + 1
    return source if _holds_from(source, "]:", cut) else source[:cut]


def parse(source: str) -> Sequence[AnyToken]:
    """markdown-it-py tokens (CommonMark, escapes kept apart) of newline-normalized source.

    Inline content is parsed only in blocks that hold an `@` or a `<!--`: nothing else in a
    paragraph can change what Claude Code includes or strips, and inline parsing is most of the
    cost on large files. Other blocks keep an empty `children` list. A source of plain paragraphs
    only is tokenized without markdown-it-py (`plain_tokens`)."""
    plain = plain_tokens(source)
    return plain if plain is not None else parse_markdown_it(source)


# A line that can only be paragraph text, with no inline markup: it starts with a letter, `@`, `/`
# or `.` (no indent, list marker, heading, quote, fence, rule, setext underline, HTML or link
# definition can start so), and holds no character that opens inline markup (escape, code span,
# emphasis, entity, HTML or autolink, link or image) nor a control character markdown-it rewrites.
_PLAIN_LINE = re.compile(r"[A-Za-z@/.][^\x00-\x08\x0b-\x1f\x7f\\`*_&<>\[\]]*")
# An ATX heading of such text (no `#` after the marker, so no closing sequence to cut): `# Project`.
_PLAIN_HEADING = re.compile(r"(#{1,6})[ \t]+([A-Za-z@/.][^\x00-\x08\x0b-\x1f\x7f\\`*_&<>\[\]#]*)")
# An underscore between two ASCII letters or digits (`missing_doc.md`) can neither open nor close
# emphasis (CommonMark's flanking rules): markdown-it-py joins it back into the text around it.
_INTRAWORD_UNDERSCORE = re.compile(r"(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])")
# The opening line of a fenced code block at the margin: its marker run and info string. A backtick
# fence's info string holds no backtick (else the line is no fence).
_FENCE_OPEN = re.compile(r"(`{3,})([^`]*)|(~{3,})(.*)")


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


if TYPE_CHECKING:
    AnyToken = Token | PlainToken  # what `parse` gives: markdown-it-py's tokens or plain ones


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
    parser at all."""
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


def parse_markdown_it(source: str) -> list[Token]:
    """`parse` by markdown-it-py whatever the source holds."""
    md = _parser()
    env: dict[str, object] = {}
    try:
        tokens = md.parse(source, env)
    except IndexError:  # markdown-it-py 4.3 on a quote ending in `> ` with no line break after it
        if source.endswith("\n"):
            raise
        tokens = _parsed_with_line_break(md, source, env)
    for token in tokens:
        if token.type == "inline":
            token.children = []
            if "@" in token.content or has_comment_open(token.content):
                md.inline.parse(token.content, md, env, token.children)
    return tokens


def _parsed_with_line_break(md: MarkdownIt, source: str, env: dict[str, object]) -> list[Token]:
    """The tokens of `source` (which must not end with a line break) read with one added:
    markdown-it-py then gives the same tokens, but for an HTML block or unclosed fence that runs to
    the end, whose content keeps the break (taken off again here)."""
    tokens = md.parse(source + "\n", env)
    last = source.count("\n") + 1
    for token in tokens:
        if token.type in ("html_block", "fence") and token.map is not None and token.map[1] == last:
            token.content = token.content.removesuffix("\n")
    return tokens


class _NeverSettled(set[str]):
    """The long way (tests): every mention is looked at again."""

    def add(self, element: str) -> None:
        pass


_NEVER_SETTLED = _NeverSettled()
_SETTLE_REPEATS = True


def scan_body(
    body: str, line_offset: int = 0, tokens: Sequence[AnyToken] | None = None, verbatim: bool = False,
    max_includes: int | None = None,
) -> Scan:
    """Includes and loaded text of a file body (the text after its frontmatter); `tokens`, when
    given, are `parse(normalize_newlines(body))`. `verbatim` (C11, 2.1.330+): the text is kept as
    written unless a comment block is removed, and then only comment blocks are cut from it.
    Past `max_includes` distinct includes the rest are only counted (`dropped_includes`):
    memlint's bound on the work one file can cause."""
    has_comment = has_comment_open(body)
    if "@" not in body and not has_comment:
        return Scan()
    source = normalize_newlines(body)
    tokens = parse(source) if tokens is None else tokens
    locator = _Locator(source, line_offset)
    found: dict[str, IncludeRef] = {}
    rejected: list[IncludeRef] = []
    dropped: set[str] = set()

    # Texts after `@` with nothing more to do (no path, a path found, or past the limit): a line of
    # 480,000 `@a` costs one set lookup per `@`. Rejected texts count at every mention: not settled.
    settled: set[str] = set() if _SETTLE_REPEATS else _NEVER_SETTLED

    def scan(text: str) -> None:
        if "@" not in text:
            return
        for written in INCLUDE_PATTERN.findall(text):  # as `find_include_texts`, without a tuple per `@`
            if written in settled:
                continue
            path = include_path(written)
            if path is None or path in found:
                settled.add(written)
                continue  # only the first mention of a path counts
            if max_includes is not None and len(found) + len(rejected) >= max_includes:
                dropped.add(path)  # found and rejected grow no more: every later mention is dropped too
                settled.add(written)
                continue
            line, column = locator.find("@" + written)
            ref = IncludeRef(path, written, line, column)
            if not accepted_include(path):
                rejected.append(ref)
            elif path not in found:
                found[path] = ref

    containers: list[str] = []
    unclosed: int | None = None
    for token in tokens:
        if token.nesting == 1 and token.type in ("list_item_open", "blockquote_open"):
            containers.append(token.type)
        elif token.nesting == -1 and token.type in ("list_item_close", "blockquote_close"):
            containers.pop()
        block_line = token.map[0] if token.map else 0
        if token.type == "html_block":
            residue = comment_residue(token.content)
            if residue is not None and js_trim(residue):
                locator.start(block_line)
                scan(residue)
            elif residue is None and js_trim_start(token.content).startswith("<!--"):
                unclosed = block_line + 1 + line_offset
        elif token.type == "inline":
            if containers and containers[-1] == "list_item_open":
                locator.start(block_line)
                scan(token.content)
            locator.start(block_line)
            _scan_inline(token.children or [], scan)
    loaded = body
    stripped = False
    if has_comment:
        loaded, stripped = _strip_comments(tokens, source.split("\n"), keep_definitions=verbatim)
        if verbatim and not stripped:
            loaded = body
    return Scan(
        stripped_text=None if loaded == body else loaded,
        includes=tuple(found.values()),
        comments_stripped=stripped,
        unclosed_comment_line=unclosed,
        parsed=True,
        rejected=tuple(rejected),
        dropped_includes=len(dropped),
    )


def _marked_texts(children: Sequence[AnyToken]) -> list[AnyToken | str]:
    """Inline children regrouped as marked makes them: a backslash before a character that is not
    ASCII punctuation and an entity like `&amp;` are plain text to marked, so they join the text
    around them; only a real escape (`\\@`) stands apart."""
    out: list[AnyToken | str] = []
    for child in children:
        piece: str | None = None
        if child.type == "text":
            piece = child.content
        elif child.type == "text_special" and (child.info == "entity" or child.content == child.markup):
            piece = child.markup
        if piece is None:
            out.append(child)
        elif out and isinstance(out[-1], str):
            out[-1] += piece
        else:
            out.append(piece)
    return out


def _scan_inline(children: Sequence[AnyToken], scan: Callable[[str], None]) -> None:
    """Text children only: code spans, escapes and images (whose alt text marked does not scan)
    are passed over; inline HTML counts only for what its comments leave."""
    for child in _marked_texts(children):
        if isinstance(child, str):
            scan(child)
        elif child.type == "html_inline":
            residue = comment_residue(child.content)
            if residue is not None and js_trim(residue):
                scan(residue)


def _eat_newlines(lines: list[str], end: int) -> int:
    """marked's `\n+` after a token: the pure-empty lines that follow line `end - 1`."""
    while end < len(lines) - 1 and lines[end] == "":
        end += 1
    if end == len(lines) - 1 and lines[end] == "":
        end = len(lines)
    return end


def _strip_comments(tokens: Sequence[AnyToken], lines: list[str], keep_definitions: bool = False) -> tuple[str, bool]:
    """marked's top-level comment stripping on the CR-normalized source.

    Before 2.1.330 Claude Code re-joins the text from marked's top-level tokens, so two things
    vanish: comment blocks (with the empty lines after them) and link reference definitions, which
    marked keeps out of its token list (markdown-it-py gives them no token either: they are the
    non-blank top-level lines no token covers). From 2.1.330 (`keep_definitions`) only the comment
    blocks are cut from the source."""
    removals: list[tuple[int, int, str]] = []  # (first line, end line, replacement)
    covered = [False] * len(lines)
    for token in tokens:
        if token.level != 0 or token.map is None:
            continue
        start, end = token.map
        for index in range(start, min(end, len(lines))):
            covered[index] = True
        if token.type != "html_block":
            continue
        end = _eat_newlines(lines, end)
        raw = "\n".join(lines[start:end]) + ("\n" if end < len(lines) else "")
        residue = comment_residue(raw)
        if residue is not None:
            removals.append((start, end, residue if js_trim(residue) else ""))
    index = len(lines) if keep_definitions else 0
    while index < len(lines):
        if covered[index] or not js_trim(lines[index]) or (index == len(lines) - 1 and lines[index] == ""):
            index += 1
            continue
        start = index
        while index < len(lines) and not covered[index] and js_trim(lines[index]):
            index += 1
        removals.append((start, _eat_newlines(lines, index), ""))
    if not any(r for r in removals if r[0] != r[1]):
        return "\n".join(lines), False
    removals.sort()
    stripped = any(comment_residue("\n".join(lines[a:b])) is not None for a, b, _ in removals)
    out: list[str] = []
    cursor = 0
    for start, end, replacement in removals:
        if start > cursor:
            out.append("\n".join(lines[cursor:start]) + "\n")
        out.append(replacement)
        cursor = end
    if cursor < len(lines):
        out.append("\n".join(lines[cursor:]))
    return "".join(out), stripped
