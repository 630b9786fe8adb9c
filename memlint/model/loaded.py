"""What a loading produces: the files in the model's context, the ones skipped and deferred, and
the `LoadedContext` that holds them (computed by memlint.model.loader, read by rules and reporters)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from memlint.model.automem import Truncation
from memlint.model.document import Document
from memlint.model.jstext import utf16_len
from memlint.model.markdown import IncludeRef
from memlint.model.release import DEFAULT, Release
from memlint.model.settings import Settings

Kind = Literal["managed", "user", "project", "local", "automem"]


@dataclass(frozen=True)
class Origin:
    """The include that asked for a file: which file, which line."""

    path: Path
    line: int
    ref: IncludeRef


@dataclass(frozen=True)
class LoadedFile:
    """A file in the model's context."""

    path: Path
    kind: Kind
    depth: int  # 0 for a root file, n for an include n levels down
    content: str  # trimmed, as the model sees it
    document: Document
    origin: Origin | None = None
    truncation: Truncation | None = None
    globs: tuple[str, ...] | None = None  # `paths:` of a file loaded despite having them

    @property
    def parent(self) -> Path | None:
        return self.origin.path if self.origin else None

    @property
    def chars(self) -> int:
        return utf16_len(self.content)


@dataclass(frozen=True)
class Skipped:
    """A file Claude Code considered and left out, and why."""

    path: Path
    reason: str
    kind: Kind
    origin: Origin | None = None
    detail: str = ""


DeferReason = Literal["conditional-rule", "nested-claude-md", "nested-agents-md"]


@dataclass(frozen=True)
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
    skipped: tuple[Skipped, ...]
    deferred: tuple[Deferred, ...]
    excludes: tuple[str, ...] = ()
    release: Release = DEFAULT  # the Claude Code release this models
    settings: Settings = field(default_factory=Settings)  # the settings that shaped it

    @property
    def total_chars(self) -> int:
        return sum(f.chars for f in self.files)
