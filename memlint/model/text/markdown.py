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

from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import field
from functools import lru_cache
from typing import TYPE_CHECKING

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.jstext import JS_WS_CLASS, js_trim, js_trim_start
from memlint.model.text.plain_markdown import PlainToken, plain_tokens
from memlint.records import dataclass

if TYPE_CHECKING:  # markdown-it-py is imported only when a file needs parsing (it holds `@` or `<!--`)
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

    AnyToken = Token | PlainToken  # what `parse` gives: markdown-it-py's tokens or plain ones

INCLUDE_PATTERN = compile_lazily(rf"(?:^|[{JS_WS_CLASS}])@((?:[^{JS_WS_CLASS}\\]|\\ )+)")
# What marked removes as a comment. Never run it over a text: on an unclosed `<!--` it scans to the
# end from every later `<!--` (`<!--` 50,000 times: 35 s). `comment_spans` finds the same spans in
# one pass; tests/hostile/test_quadratic_inputs.py compares the two.
COMMENT_SPAN = compile_lazily(r"<!--[\s\S]*?-->")
_INVALID_START = compile_lazily(r"[#%^&*()]+")
_VALID_START = compile_lazily(r"[a-zA-Z0-9._-]")


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
        return without_comments(raw)
    return None


def comment_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each match of `COMMENT_SPAN` in `text`, in order, in one pass: a `<!--` with
    no `-->` after it ends the search, since no later `<!--` has one either (the regex tries each of
    them and scans to the end from each)."""
    at = 0
    while (start := text.find("<!--", at)) != -1:
        close = text.find("-->", start + 4)
        if close == -1:
            return
        at = close + 3
        yield start, at


def without_comments(text: str) -> str:
    """`COMMENT_SPAN.sub("", text)`: every comment span cut."""
    return _replace_comments(text, lambda span: "")


def blank_comments(text: str) -> str:
    """Every comment span made spaces, its line breaks kept (`COMMENT_SPAN.sub` with each non-LF
    character of a match made a space): what Claude Code strips is not read, and line numbers and
    columns stay those of the file."""
    return _replace_comments(text, lambda span: "\n".join(" " * len(part) for part in span.split("\n")))


def _replace_comments(text: str, replace: Callable[[str], str]) -> str:
    if "<" not in text:
        return text
    out: list[str] = []
    at = 0
    for start, end in comment_spans(text):
        out.append(text[at:start])
        out.append(replace(text[start:end]))
        at = end
    if not out:
        return text
    out.append(text[at:])
    return "".join(out)


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


_BLANK_LINE = compile_lazily(r"\n[ \t]*(?:\n|\Z)")


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
