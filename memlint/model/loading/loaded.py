"""What a loading produces: the files in the model's context, the ones skipped and deferred, and
the `LoadedContext` that holds them (computed by memlint.model.loading.loader, read by rules and reporters)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field
from pathlib import Path
from typing import Literal

from memlint.model.cli_js.jstext import js_trim, utf16_len
from memlint.model.loading.chain import Chain
from memlint.model.loading.settings import Settings
from memlint.model.memory.automem import Truncation
from memlint.model.release import DEFAULT, Release
from memlint.model.text.document import Document
from memlint.model.text.markdown import IncludeRef
from memlint.records import dataclass

Kind = Literal["managed", "user", "project", "local", "automem"]


def loaded_text(document: Document) -> str:
    """What the model sees of a file loaded whole: its scanned text, trimmed as JavaScript trims."""
    return js_trim(document.loaded)


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
        return loaded_text(self.document)

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
    origin: Origin | None = None  # a rule's include that its `paths:` hold back: the include that asked for it


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
    # in the AGENTS.md plugin's fallback mode (`claude-md-or-agents-md`), the CLAUDE.md, .claude/CLAUDE.md or
    # CLAUDE.local.md of the start folder or above that keeps every AGENTS.md out: the first that loaded, else
    # one the plugin finds on disk that would load on its own (C01, `ag77_local_held_back_by_rule_include`)
    agents_md_kept_out_by: Path | None = None

    def detail(self, skipped: Skipped) -> str:
        """Why `skipped` was left out, as said from this start folder."""
        return f"{skipped.detail}outside {self.start}" if skipped.names_start else skipped.detail

    @property
    def total_chars(self) -> int:
        return sum(f.chars for f in self.files)


def speaking_folder(folder: str) -> str:
    """The folder a file in `folder` belongs to: the one holding the last `.claude` of `folder`, else
    `folder` itself (`/a/.claude/rules` -> `/a`). The AGENTS.md plugin places files by it (its `lLn`),
    and the layout rules say which folder a loaded file speaks about."""
    cut = (folder + "/").rfind("/.claude/")
    return folder if cut == -1 else folder[:cut] or "/"


def agent_texts(loaded: Iterable[LoadedFile]) -> set[str]:
    """The texts an AGENTS file is compared with: the loaded project and local files' (once per
    loading, not once per folder of the walk)."""
    return {f.content for f in loaded if f.kind in ("project", "local") and f.path.name != "AGENTS.md"}
