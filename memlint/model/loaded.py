"""What a loading produces: the files in the model's context, the ones skipped and deferred, and
the `LoadedContext` that holds them (computed by memlint.model.loader, read by rules and reporters)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Literal, TypeVar, overload

from memlint.model.automem import Truncation
from memlint.model.document import Document
from memlint.model.jstext import js_trim, utf16_len
from memlint.model.markdown import IncludeRef
from memlint.model.release import DEFAULT, Release
from memlint.model.settings import Settings

Kind = Literal["managed", "user", "project", "local", "automem"]
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


@dataclass(frozen=True, slots=True)
class Origin:
    """The include that asked for a file: which file, which line."""

    path: Path
    line: int
    ref: IncludeRef


@dataclass(frozen=True, slots=True)
class LoadedFile:
    """A file in the model's context."""

    path: Path
    kind: Kind
    depth: int  # 0 for a root file, n for an include n levels down
    document: Document
    origin: Origin | None = None
    truncation: Truncation | None = None  # MEMORY.md: what of it loads
    globs: tuple[str, ...] | None = None  # `paths:` of a file loaded despite having them

    @property
    def content(self) -> str:
        """The text as the model sees it: trimmed, frontmatter and comments removed (MEMORY.md:
        truncated). Made from the document when asked, so a run holds each file's text once."""
        if self.truncation is not None:
            return self.truncation.content
        return js_trim(self.document.scan().loaded)

    @property
    def parent(self) -> Path | None:
        return self.origin.path if self.origin else None

    @property
    def chars(self) -> int:
        return utf16_len(self.content)


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file Claude Code considered and left out, and why.

    An external skip's explanation ends with the start folder it lies outside of; it is kept
    without it (`names_start`), so one object serves every start folder that skips the same
    include: `LoadedContext.detail` gives the whole text."""

    path: Path
    reason: str
    kind: Kind
    origin: Origin | None = None
    detail: str = ""
    names_start: bool = False  # the whole explanation is `detail` + "outside <start folder>"


DeferReason = Literal["conditional-rule", "nested-claude-md", "nested-agents-md"]


@dataclass(frozen=True, slots=True)
class Deferred:
    """A file Claude Code loads later, not at start."""

    path: Path
    reason: DeferReason
    kind: Kind
    paths: tuple[str, ...] = ()


@dataclass(frozen=True)
class LoadedContext:
    """Everything Claude Code loads at start in `start`, plus what it skipped and defers."""

    start: Path
    home: Path
    project_root: Path
    automem_dir: Path
    files: tuple[LoadedFile, ...]
    skipped: Chain[Skipped]
    deferred: Chain[Deferred]
    excludes: tuple[str, ...] = ()
    release: Release = DEFAULT  # the Claude Code release this models
    settings: Settings = field(default_factory=Settings)  # the settings that shaped it

    def detail(self, skipped: Skipped) -> str:
        """Why `skipped` was left out, as said from this start folder."""
        return f"{skipped.detail}outside {self.start}" if skipped.names_start else skipped.detail

    @property
    def total_chars(self) -> int:
        return sum(f.chars for f in self.files)
