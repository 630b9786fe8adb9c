"""MEMORY.md's lines as offsets into its text: what `_index.Index.lines` holds.

A big index has one line per entry (100,000 in the hostile tree): storing each line as a tuple with
two copies of its text took ~350 bytes a line; here a line is one offset and one kind byte, and a
`Line` (offsets, its text sliced when asked) is made only when a caller indexes one.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from typing import Literal, NamedTuple, overload

LineKind = Literal["blank", "heading", "entry", "detail", "code", "layout", "comment"]

_KINDS: tuple[LineKind, ...] = ("blank", "heading", "entry", "detail", "code", "layout", "comment")
_KIND_CODE = {kind: n for n, kind in enumerate(_KINDS)}


def _content_end(text: str, start: int, end: int) -> int:
    """Where a line's content ends: before its line feed, and before one carriage return before that."""
    if end > start and text[end - 1] == "\n":
        end -= 1
    if end > start and text[end - 1] == "\r":
        end -= 1
    return end


class Line(NamedTuple):
    """One line of MEMORY.md, made when asked from `Lines` (a tuple of offsets: its text is
    sliced from the document when a caller reads `raw` or `content`, never stored per line)."""

    number: int  # 1-based line of the file
    start: int  # offset of the first character in the document text
    end: int  # offset after the line ending
    kind: LineKind
    text: str  # the whole document text (shared, not a copy)

    @property
    def raw(self) -> str:
        """The line with its ending."""
        return self.text[self.start : self.end]

    @property
    def content(self) -> str:
        """The line without its ending (`\r\n` or `\n`)."""
        _, start, end, _, text = self
        if end > start and text[end - 1] == "\n":
            end -= 1
        if end > start and text[end - 1] == "\r":
            end -= 1
        return text[start:end]


_new_line = tuple.__new__  # a `Line` without the named tuple's `__new__` in Python (one per line asked)


class Lines(Sequence[Line]):
    """The lines of MEMORY.md as one offset and one kind byte each (9 bytes a line where a stored
    `Line` with its two strings took ~350: a 100,000-line index is 1 MB, not 35). A `Line` is made
    when indexed; `kind`, `content`, `start` and `end` answer for one line without making one."""

    __slots__ = ("_kinds", "_starts", "first", "text")

    def __init__(self, text: str, first: int, starts: array[int], kinds: bytes) -> None:
        self.text = text
        self.first = first  # the file line number of the first line
        self._starts = starts  # len(kinds) + 1 offsets: line i is text[starts[i]:starts[i + 1]]
        self._kinds = kinds

    def __len__(self) -> int:
        return len(self._kinds)

    @overload
    def __getitem__(self, i: int) -> Line: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Line, ...]: ...

    def __getitem__(self, i: int | slice) -> Line | tuple[Line, ...]:
        if isinstance(i, slice):
            return tuple(self._line(j) for j in range(*i.indices(len(self._kinds))))
        if i < 0:
            i += len(self._kinds)
        if not 0 <= i < len(self._kinds):
            raise IndexError("line index out of range")
        return self._line(i)

    def _line(self, i: int) -> Line:
        starts = self._starts
        return _new_line(Line, (self.first + i, starts[i], starts[i + 1], _KINDS[self._kinds[i]], self.text))

    def __iter__(self) -> Iterator[Line]:
        return map(self._line, range(len(self._kinds)))

    def kind(self, i: int) -> LineKind:
        return _KINDS[self._kinds[i]]

    def start(self, i: int) -> int:
        return self._starts[i]

    def end(self, i: int) -> int:
        return self._starts[i + 1]

    def raw(self, i: int) -> str:
        return self.text[self._starts[i] : self._starts[i + 1]]

    def content(self, i: int) -> str:
        start = self._starts[i]
        return self.text[start : _content_end(self.text, start, self._starts[i + 1])]

    def entry_line(self, number: int) -> Line:
        """The `Line` of file line `number`, an index entry (as `self[number - first]`, faster:
        the rules ask for every entry's line)."""
        starts = self._starts
        i = number - self.first
        return _new_line(Line, (number, starts[i], starts[i + 1], "entry", self.text))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Lines):
            return NotImplemented
        return self is other or (self.first == other.first and self._kinds == other._kinds
                                 and self._starts == other._starts and self.text == other.text)

    def __hash__(self) -> int:
        return hash((self.first, self._kinds, self.text))

    def __repr__(self) -> str:
        return f"Lines({list(self)!r})"
