"""Visiting what start folders share once.

A start folder's `LoadedContext.skipped` and `deferred` are mostly its ancestors' (the root's
conditional rules, the folders below it): each is a `Chain` of tuples that start folders share
(`segments`, compared by identity; model.loaded). A rule that looks at every start folder reads
each shared segment once through these helpers, so it costs the objects of the run, not start
folders times their ancestors' objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Generic, TypeVar

from memlint.model.loading.chain import Chain

T = TypeVar("T")


class Unseen(Generic[T]):
    """Hands out each object once (by identity) over many start folders' chains; a segment
    already visited is skipped whole."""

    def __init__(self) -> None:
        self._segments: set[int] = set()
        self._items: set[int] = set()
        self._held: list[tuple[T, ...]] = []  # keeps every visited segment alive: its ids are not reused

    def new(self, items: Chain[T]) -> Iterator[T]:
        """The objects of `items` not met before, in order."""
        for segment in items.segments:
            if id(segment) in self._segments:
                continue
            self._segments.add(id(segment))
            self._held.append(segment)
            for item in segment:
                if id(item) not in self._items:
                    self._items.add(id(item))
                    yield item


def distinct(chains: Iterable[Chain[T]]) -> Iterator[T]:
    """Every object of `chains` once (by identity), in the order first met."""
    unseen: Unseen[T] = Unseen()
    for items in chains:
        yield from unseen.new(items)
