"""One memory file: its bytes, its text as Claude Code decodes it, and what memlint parses from it.

A `Document` is read once per run (the `Workspace` caches it) and parses lazily: the frontmatter
when asked for, markdown-it-py tokens only when the text holds an `@` or a `<!--` (nothing else in
it can change what Claude Code loads).
"""

from __future__ import annotations

import codecs
import sys
from array import array
from dataclasses import field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.jstext import JS_WHITESPACE
from memlint.model.release import DEFAULT, Release
from memlint.model.source.files import FileProblem, read_file
from memlint.model.source.residency import FileChanged
from memlint.model.text.frontmatter import Frontmatter, parse_frontmatter, rule_paths
from memlint.records import dataclass

if TYPE_CHECKING:
    from collections.abc import Sequence

    from memlint.model.source.residency import TextBudget
    from memlint.model.text.markdown import AnyToken, Scan

_LINE_END = compile_lazily(r"\r\n|\r|\n")
_UNSET: Any = object()  # a lazily worked out slot not worked out yet (None is an answer)
# What a document answers without reading its text again once the text is let go (`contains`):
# what is asked of every file of a run, and found in few: the suppression comment marker, a wiki
# link, a mention of AGENTS.md, a slash (a path, ML325); with the text's size, line count, whether it
# is blank or starts with white space (`byte_size`, `line_count`, `blank`, `leads_with_space`).
_MARKS = ("memlint:", "[[", "AGENTS.md", "/")
_MARKED = 1 << len(_MARKS)  # the marks (and the stamp, size and line count) are worked out
_BLANK = _MARKED << 1  # the text is white space alone (Python's `str.strip`)
_LEADING_SPACE = _MARKED << 2  # the text starts with JavaScript white space (a BOM counts)


def _utf8_size(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def _leads_with_space(text: str) -> bool:
    return bool(text) and text[0] in JS_WHITESPACE


def line_count_of(text: str) -> int:
    """The lines of `text`, a final line break ending the last one."""
    return text.count("\n") + (0 if text == "" or text.endswith("\n") else 1)


def detect_newline(text: str) -> str:
    """The file's newline style: the first line ending found, else "\\n"."""
    index = text.find("\n")
    cr = text.find("\r")
    if cr != -1 and (index == -1 or cr < index):
        return "\r\n" if text.startswith("\r\n", cr) else "\r"
    return "\n"


def utf16_kind(data: bytes) -> str | None:
    """"UTF-16 LE" / "UTF-16 BE" (with "with a byte-order mark") when `data` is UTF-16 text: it
    starts with a UTF-16 byte-order mark, or its first 64 bytes alternate a NUL and a non-NUL byte
    (ASCII text saved as UTF-16); else None. Claude Code reads it as UTF-8 all the same."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) and not data.startswith(b"\xff\xfe\x00\x00"):
        return f"UTF-16 {'LE' if data[0] == 0xFF else 'BE'} with a byte-order mark"
    head = data[:64]
    if len(head) < 4 or len(head) % 2:
        return None
    even, odd = head[0::2], head[1::2]
    if odd.count(0) == len(odd) and 0 not in even:
        return "UTF-16 LE"
    if even.count(0) == len(even) and 0 not in odd:
        return "UTF-16 BE"
    return None


@dataclass(eq=False, slots=True)
class Document:
    """A file read from disk. `text` is what Claude Code gets from `readFile(path, "utf8")`.

    `stored` is the file's text when it is valid UTF-8 (most files: one copy held, `data`
    re-encodes it exactly on demand), else its bytes; None while a large run has let the text go
    (`model.source.residency`: read again on demand, and checked to be the same). Slots, and lazily
    worked out answers kept in slots of their own (`_UNSET` until asked): a run holds one per
    memory file, and a `__dict__` each (what `cached_property` needs) cost more than the rest of
    the object."""

    path: Path
    stored: bytes | str | None
    problem: FileProblem | None = None
    release: Release = field(default=DEFAULT, repr=False)  # the Claude Code release that reads it
    max_includes: int | None = None  # memlint's bound on the includes followed (see model/limits.py)
    _scan: Scan | None = field(default=None, repr=False)
    _tokens: Sequence[AnyToken] | None = field(default=None, repr=False)
    _decoded: str | None = field(default=None, init=False, repr=False)  # `text` of bytes stored
    _newline: str | None = field(default=None, init=False, repr=False)
    _frontmatter: Frontmatter | None = field(default=_UNSET, init=False, repr=False)
    _rule_globs: tuple[str, ...] | None = field(default=_UNSET, init=False, repr=False)
    _line_starts: array[int] | None = field(default=None, init=False, repr=False)
    _budget: TextBudget | None = field(default=None, init=False, repr=False)  # set: the text may be let go
    _stamp: int = field(default=0, init=False, repr=False)  # hash of the text let go
    _marks: int = field(default=0, init=False, repr=False)  # bit i: the text holds _MARKS[i]; _MARKED, _BLANK
    _size: int = field(default=0, init=False, repr=False)  # UTF-8 bytes of the text let go
    _lines: int = field(default=0, init=False, repr=False)  # its line count (`line_count`)

    @classmethod
    def read(cls, path: Path, release: Release = DEFAULT, listed_plain: bool = False) -> Document:
        """Read `path` the way Claude Code does: regular files up to 4 MiB, else a problem.
        `listed_plain`: this run listed it as a regular file, no link (it is opened without a
        `stat` first; the open handle is checked all the same)."""
        doc = cls._read(path, listed_plain)
        doc.release = release
        return doc

    @classmethod
    def _read(cls, path: Path, listed_plain: bool = False) -> Document:
        """The file's text, or why it cannot be read (`memlint.model.source.files.read_file`)."""
        data = read_file(path, stat_first=not listed_plain)
        if isinstance(data, FileProblem):
            return cls(path, b"", data)
        return cls.from_bytes(path, data)

    @classmethod
    def from_bytes(cls, path: Path, data: bytes, release: Release = DEFAULT) -> Document:
        """A document for bytes read elsewhere (the git index), decoded as a file's are."""
        problem = None
        if b"\x00" in data:
            utf16 = utf16_kind(data)
            problem = FileProblem("utf-16", utf16) if utf16 else FileProblem("binary", "contains NUL bytes")
        else:
            try:
                return cls(path, data.decode("utf-8"), None, release)
            except UnicodeDecodeError as exc:
                problem = FileProblem("invalid-utf8", f"invalid UTF-8 at byte {exc.start}")
        return cls(path, data, problem, release)

    @classmethod
    def from_text(cls, path: Path, text: str, release: Release = DEFAULT) -> Document:
        """A document for text that is not (yet) on disk, e.g. a fix's result."""
        text.encode("utf-8")  # a lone surrogate raises, as it always did
        return cls(path, text, None, release)

    @property
    def readable(self) -> bool:
        """Claude Code can read it (it may still be binary or hold invalid UTF-8)."""
        return self.problem is None or self.problem.reason in ("binary", "utf-16", "invalid-utf8")

    @property
    def data(self) -> bytes:
        """The file's bytes."""
        stored = self.stored
        if stored is None:
            stored = self._read_again()
        return stored.encode("utf-8") if isinstance(stored, str) else stored

    @property
    def text(self) -> str:
        """The text as Node decodes UTF-8: invalid bytes become U+FFFD; a BOM stays as U+FEFF."""
        stored = self.stored
        if isinstance(stored, str):
            return stored
        if stored is None:
            return self._read_again()
        if self._decoded is None:
            self._decoded = stored.decode("utf-8", errors="replace")
        return self._decoded

    @property
    def text_is_exact(self) -> bool:
        """`text` in UTF-8 gives the file's bytes back exactly (it is valid UTF-8)."""
        return not isinstance(self.stored, bytes)

    @property
    def has_bom(self) -> bool:
        stored = self.stored
        if stored is None:
            stored = self._read_again()
        return stored.startswith("\ufeff") if isinstance(stored, str) else stored.startswith(codecs.BOM_UTF8)

    def keep_within(self, budget: TextBudget) -> None:
        """From now on `budget` decides how long this document keeps its text (only a valid
        UTF-8 text read from disk can be let go: it can be read again)."""
        if isinstance(self.stored, str):
            self._budget = budget
            budget.hold(self, self.stored)

    def release_text(self) -> int:
        """Let the text go (read again when asked for); the bytes of memory freed, 0 if none."""
        stored = self.stored
        if not isinstance(stored, str) or self._budget is None:
            return 0
        if not self._marks & _MARKED:  # a text let go again is the same text: worked out once
            self._stamp = hash(stored)
            self._marks = _MARKED | sum(1 << i for i, mark in enumerate(_MARKS) if mark in stored) | (
                0 if stored.strip() else _BLANK) | (_LEADING_SPACE if _leads_with_space(stored) else 0)
            self._size = _utf8_size(stored)
            self._lines = line_count_of(stored)
        self.stored = None
        return sys.getsizeof(stored)

    @property
    def byte_size(self) -> int:
        """`len(self.data)`, without encoding a text (nor reading a text let go again)."""
        stored = self.stored
        if stored is None:
            return self._size
        return _utf8_size(stored) if isinstance(stored, str) else len(stored)

    @property
    def line_count(self) -> int:
        """The lines of `text`, a final line break ending the last one (`text.split("\\n")` less a last
        empty piece), without reading a text let go again."""
        return self._lines if self.stored is None else line_count_of(self.text)

    @property
    def leads_with_space(self) -> bool:
        """The text starts with JavaScript white space or a BOM, without reading a text let go again."""
        return bool(self._marks & _LEADING_SPACE) if self.stored is None else _leads_with_space(self.text)

    @property
    def blank(self) -> bool:
        """`not self.text.strip()`, without reading a text let go again."""
        return bool(self._marks & _BLANK) if self.stored is None else not self.text.strip()

    def contains(self, needle: str) -> bool:
        """`needle in self.text`, answered without reading a text let go again for `_MARKS`."""
        if self.stored is None and needle in _MARKS:
            return bool(self._marks >> _MARKS.index(needle) & 1)
        return needle in self.text

    def _read_again(self) -> str:
        data = read_file(self.path, stat_first=False)
        try:
            text = data.decode("utf-8") if isinstance(data, bytes) else None
        except UnicodeDecodeError:
            text = None
        if text is None or hash(text) != self._stamp or self._budget is None:
            raise FileChanged(self.path)
        self.stored = text
        self._budget.hold(self, text)
        return text

    @property
    def newline(self) -> str:
        if self._newline is None:
            self._newline = detect_newline(self.text)
        return self._newline

    @property
    def frontmatter(self) -> Frontmatter | None:
        """Claude Code's frontmatter: only when `---` is the very first thing in the file (C09:
        releases with `frontmatter_after_bom` skip one leading BOM first). Parsed once."""
        found = self._frontmatter
        if found is _UNSET:
            found = self._frontmatter = self._parse_frontmatter()
        return found

    def _parse_frontmatter(self) -> Frontmatter | None:
        if self.release.frontmatter_after_bom and self.text.startswith("\ufeff"):
            found = parse_frontmatter(self.text[1:])
            return None if found is None else replace(found, end_offset=found.end_offset + 1)
        return parse_frontmatter(self.text)

    @property
    def rule_globs(self) -> tuple[str, ...] | None:
        """The `paths:` globs that make a rule conditional, or None (see frontmatter.rule_paths)."""
        found = self._rule_globs
        if found is _UNSET:
            fm = self.frontmatter
            globs = rule_paths(fm.data) if fm is not None else None
            found = self._rule_globs = tuple(globs) if globs else None
        return found

    @property
    def body(self) -> str:
        """The text after the frontmatter block (all of it when there is none)."""
        fm = self.frontmatter
        return self.text if fm is None else self.text[fm.end_offset :]

    @property
    def loaded(self) -> str:
        """The body as Claude Code loads it: comments stripped (before trimming)."""
        stripped = self.scan().stripped_text
        return self.body if stripped is None else stripped

    @property
    def body_line_offset(self) -> int:
        """How many lines of the file come before `body` (0 without frontmatter)."""
        fm = self.frontmatter
        return 0 if fm is None else self.text.count("\n", 0, fm.end_offset)

    def scan(self) -> Scan:
        """Includes and loaded text, parsed with markdown-it-py only when the body needs it
        (it holds an `@` or a `<!--`)."""
        if self._scan is None:
            from memlint.model.text.markdown import has_comment_open, scan_body

            body = self.body
            needs_tokens = "@" in body or has_comment_open(body)
            self._scan = scan_body(body, self.body_line_offset, self.tokens() if needs_tokens else None,
                                   verbatim=self.release.comments_spliced_verbatim, max_includes=self.max_includes)
        return self._scan

    @property
    def scanned(self) -> Scan | None:
        """The scan when something asked for it already (None: never scanned in this run)."""
        return self._scan

    def tokens(self) -> Sequence[AnyToken]:
        """markdown-it-py tokens of the body (newlines normalized), parsed once, up to where
        nothing further can change its includes (`markdown.includes_prefix`)."""
        if self._tokens is None:
            from memlint.model.text.markdown import includes_prefix, normalize_newlines, parse

            self._tokens = parse(includes_prefix(normalize_newlines(self.body)))
        return self._tokens

    def line_of_offset(self, offset: int) -> int:
        """1-based line number of a character offset in `text`."""
        return self.text.count("\n", 0, offset) + 1

    @property
    def line_starts(self) -> array[int]:
        """The offset in `text` where each line starts; lines end at LF, CRLF or a lone CR (an
        array: 8 bytes a line, where a tuple of ints holds 36)."""
        if self._line_starts is None:
            starts = array("q", (0,))
            starts.extend(m.end() for m in _LINE_END.finditer(self.text))
            self._line_starts = starts
        return self._line_starts

    def line_start(self, line: int) -> int | None:
        """The offset of 1-based `line` in `text`, or None past the end."""
        starts = self.line_starts
        return starts[line - 1] if 1 <= line <= len(starts) else None
