"""Visiting what start folders share once.

A start folder's `LoadedContext.skipped` and `deferred` are mostly its ancestors' (the root's
conditional rules, the folders below it), the same objects for every start folder under them. A
sequence the loader builds from tuples it shares between start folders says so with a `segments`
attribute (the shared tuples, compared by identity); any other sequence is one segment of its own.
A rule that looks at every start folder visits each shared segment once through these helpers, so
it costs the objects of the run, not start folders times their ancestors' objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")


def segments(items: Sequence[T]) -> tuple[Sequence[T], ...]:
    """The parts `items` is made of, in order (each may be shared with other start folders)."""
    parts = getattr(items, "segments", None)
    if parts is None:
        return (items,)
    return tuple(parts)


class Unseen(Generic[T]):
    """Hands out each object once (by identity) over many start folders' sequences; a segment
    already visited is skipped whole."""

    def __init__(self) -> None:
        self._segments: set[int] = set()
        self._items: set[int] = set()
        self._held: list[Sequence[T]] = []  # keeps every visited segment alive: its ids are not reused

    def new(self, items: Sequence[T]) -> Iterator[T]:
        """The objects of `items` not met before, in order."""
        for segment in segments(items):
            if id(segment) in self._segments:
                continue
            self._segments.add(id(segment))
            self._held.append(segment)
            for item in segment:
                if id(item) not in self._items:
                    self._items.add(id(item))
                    yield item


def distinct(sequences: Iterable[Sequence[T]]) -> Iterator[T]:
    """Every object of `sequences` once (by identity), in the order first met."""
    unseen: Unseen[T] = Unseen()
    for sequence in sequences:
        yield from unseen.new(sequence)
