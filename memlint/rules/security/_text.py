"""Line numbers of offsets in a text."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable
from typing import TypeVar


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of `offset` (for one place; use `Lines` for many)."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


class Lines:
    """Line numbers of many offsets in one text, each in O(log lines)."""

    def __init__(self, text: str) -> None:
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self._length = len(text)

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)

    def start(self, offset: int) -> int:
        """The offset where the line holding `offset` starts."""
        return self._starts[self.line(offset) - 1]

    def end(self, offset: int) -> int:
        """The offset of the line break ending the line holding `offset` (or the text's length)."""
        index = self.line(offset)
        return self._starts[index] - 1 if index < len(self._starts) else self._length


# A file with more findings of one kind than this is generated or hostile: counting stops there,
# so a 4 MiB file of look-alike letters or zero-width characters is still checked in seconds.
MAX_PER_FILE = 10_000

T = TypeVar("T")


def capped(items: Iterable[T]) -> tuple[list[T], bool]:
    """The first MAX_PER_FILE items, and whether there were more."""
    out = list(itertools.islice(items, MAX_PER_FILE + 1))
    return out[:MAX_PER_FILE], len(out) > MAX_PER_FILE


def how_many(items: list[T], more: bool) -> str:
    return f"{len(items):,}+" if more else str(len(items))


def and_more(total: int, shown: int, over: bool) -> str:
    """` and 7 more` (`7+` when the per-file cap cut the list) after the first `shown` of `total`."""
    return f" and {total - shown}{'+' if over else ''} more" if total > shown else ""
