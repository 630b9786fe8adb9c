"""Sequences built from tuples that other sequences share (a start folder's skipped and deferred
files are mostly its ancestors', the same objects for every start folder below them)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from typing import TypeVar, overload

T = TypeVar("T")


class Chain(Sequence[T]):
    """An immutable sequence made of tuples that other sequences share.

    A start folder's skipped and deferred files are mostly its ancestors' (the root's rules, its
    external includes), the same objects for every start folder below them: each start holds the
    shared tuples, not a copy of their items, so memory grows with the files, not with start
    folders times files. A rule that looks at every start folder can visit each shared tuple once
    (`segments`, compared by identity)."""

    __slots__ = ("_length", "segments")

    def __init__(self, segments: Iterable[tuple[T, ...]] = ()) -> None:
        self.segments: tuple[tuple[T, ...], ...] = tuple(s for s in segments if s)
        self._length = sum(map(len, self.segments))

    def __iter__(self) -> Iterator[T]:
        return chain.from_iterable(self.segments)

    def __len__(self) -> int:
        return self._length

    def __bool__(self) -> bool:
        return self._length > 0

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...
    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("Chain index out of range")
        for segment in self.segments:
            if index < len(segment):
                return segment[index]
            index -= len(segment)
        raise AssertionError("unreachable")  # pragma: no cover

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Chain, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Chain({list(self)!r})"


def distinct_segments(chains: Iterable[Chain[T]]) -> Iterator[tuple[T, ...]]:
    """Each segment of `chains` once (by identity): what many start folders share is visited once."""
    seen: set[int] = set()
    for sequence in chains:
        for segment in sequence.segments:
            if id(segment) not in seen:
                seen.add(id(segment))
                yield segment


class Parts(Sequence[T]):
    """A `Chain` being built: single items, and tuples shared with other start folders (`share`)."""

    __slots__ = ("_open", "_segments")

    def __init__(self) -> None:
        self._segments: list[tuple[T, ...]] = []
        self._open: list[T] = []

    def append(self, item: T) -> None:
        self._open.append(item)

    def extend(self, items: Iterable[T]) -> None:
        self._open.extend(items)

    def share(self, segment: tuple[T, ...]) -> None:
        """Add `segment` itself (not a copy): the caller never changes it."""
        if segment:
            self._close()
            self._segments.append(segment)

    def _close(self) -> None:
        if self._open:
            self._segments.append(tuple(self._open))
            self._open = []

    def build(self) -> Chain[T]:
        self._close()
        return Chain(self._segments)

    def __iter__(self) -> Iterator[T]:
        return chain(chain.from_iterable(self._segments), self._open)

    def __len__(self) -> int:
        return sum(map(len, self._segments)) + len(self._open)

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...
    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        return tuple(self)[index]
