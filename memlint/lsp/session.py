"""What the server knows: the folders it checks, the editor's unsaved texts, and the last run.

A run is `memlint check` of each checked folder (the engine's own model and rules), with every
open document's text put in place of the file on disk. The workspace of a run (each file read and
parsed once) is kept for the next run while nothing changed on disk: an edit then only replaces
the edited document. A change on disk (a save, a file created, deleted or renamed, a closed
document) starts the next run from a fresh workspace."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import field
from pathlib import Path

from memlint import engine
from memlint.cache import cache_root, prepare, rank_folder
from memlint.config import Config, load_config
from memlint.errors import MemlintError
from memlint.lsp.focus import focused_rules
from memlint.model.loading.workspace import Workspace
from memlint.model.source.residency import FileChanged
from memlint.model.text import tokens
from memlint.records import dataclass
from memlint.violations import Violation

CONFIG_NAMES = frozenset({".memlint.toml", "pyproject.toml"})


@dataclass(frozen=True)
class Open:
    """A document open in the editor: its text and the version the editor gave it."""

    text: str
    version: int


@dataclass(frozen=True)
class Snapshot:
    """One run: its model (one RuleContext per checked folder), findings by file, and the open
    documents' versions it saw (a code action edits only the version it was made for)."""

    contexts: tuple[engine.RuleContext, ...] = ()
    violations: dict[Path, list[Violation]] = field(default_factory=dict)
    versions: dict[Path, int] = field(default_factory=dict)
    problems: tuple[str, ...] = ()  # configurations that could not be read, runs that failed

    def context_of(self, path: Path) -> engine.RuleContext | None:
        """The run that holds `path` among its memory files (else the first)."""
        for ctx in self.contexts:
            if any(f.path == path for f in ctx.files):
                return ctx
        return self.contexts[0] if self.contexts else None


def key(path: str | os.PathLike[str]) -> Path:
    """How the session names a file: its absolute path, symlinks kept."""
    return Path(os.path.abspath(path))


class Session:
    """The checked folders, the open documents, and what the last run found."""

    def __init__(self, home: Path | None = None) -> None:
        self.home = home
        self.folders: list[Path] = []  # the editor's workspace folders
        self.open: dict[Path, Open] = {}
        self.snapshot = Snapshot()
        self._configs: dict[Path, Config] = {}
        self._workspaces: dict[Path, tuple[int, Workspace]] = {}  # by scope, with the disk generation
        self._generation = 0  # counts changes on disk: a workspace from an older one is not reused
        self._dirty: set[Path] = set()  # open documents edited since the last run
        self._tokenizer: Callable[[str], int] | None = None

    # what the editor tells -------------------------------------------------------------------
    def opened(self, path: Path, text: str, version: int) -> None:
        self.open[path] = Open(text, version)
        self._dirty.add(path)

    def changed(self, path: Path, text: str, version: int) -> None:
        self.open[path] = Open(text, version)
        self._dirty.add(path)

    def closed(self, path: Path) -> None:
        self.open.pop(path, None)
        self.disk_changed([path])

    def disk_changed(self, paths: Iterable[Path]) -> None:
        """Files changed on disk: the next run reads the disk again (and the configuration, when
        one of them is a configuration file)."""
        if any(p.name in CONFIG_NAMES for p in paths):
            self._configs.clear()
        self._generation += 1

    # runs ------------------------------------------------------------------------------------
    def scopes(self, opened: dict[Path, Open]) -> list[Path]:
        """What is checked: every workspace folder, and each open document outside them (by its
        project folder when the editor named no folder and the file is in a project, else the
        file alone: never a whole /tmp or HOME)."""
        out: dict[Path, None] = dict.fromkeys(self.folders)
        for path in opened:
            if any(folder == path or folder in path.parents for folder in out):
                continue
            root = cache_root(str(path))  # a project root (git or configuration), else None
            out[Path(root) if root is not None and not self.folders else path] = None
        return list(out)

    def run(self) -> Snapshot:
        """Check every scope with the open documents' texts; keep and return the result."""
        opened = dict(self.open)  # as it is now: the editor's thread goes on changing `open`
        versions = {p: o.version for p, o in opened.items()}
        contexts: list[engine.RuleContext] = []
        violations: dict[Path, list[Violation]] = {}
        problems: list[str] = []
        dirty, self._dirty = self._dirty, set()
        scopes = self.scopes(opened)
        self._use_run_cache(scopes)
        covered: set[Path] = set()  # files a run looked at already (a MEMORY.md under --home, say)
        try:
            for scope in scopes:
                if scope in covered:
                    continue
                try:
                    ctx, found = self._check(scope, opened, dirty)
                except MemlintError as exc:  # an unreadable configuration: the other scopes go on
                    problems.append(str(exc))
                    self._generation += 1
                    continue
                contexts.append(ctx)
                covered.update(f.path for f in ctx.files)
                for v in found:
                    violations.setdefault(v.path, []).append(v)
        except BaseException:
            self._generation += 1  # which edits reached which workspace is not known: start afresh
            raise
        self.snapshot = Snapshot(tuple(contexts), violations, versions, tuple(problems))
        self._hold_tokenizer()
        return self.snapshot

    def _check(self, scope: Path, opened: dict[Path, Open], dirty: set[Path]) -> tuple[engine.RuleContext, list[Violation]]:
        config = self._configs.get(scope)
        if config is None:
            config = self._configs[scope] = load_config(scope)
        for attempt in range(2):
            workspace = self._workspace(scope, config, opened, dirty, fresh=attempt > 0)
            try:
                with engine.settled_heap():
                    ctx = engine.build_context([scope], config, self.home, workspace)
                    return ctx, engine.run_rules(ctx, focused_rules(ctx, opened))
            except FileChanged:  # a file changed on disk while the run read it: read it all again
                continue
        raise MemlintError(f"{scope}: files kept changing while memlint checked them")

    def _workspace(self, scope: Path, config: Config, opened: dict[Path, Open], dirty: set[Path],
                   fresh: bool) -> Workspace:
        """The last run's workspace with the edited documents replaced, or (after a change on
        disk, or when asked) a new one holding every open document's text."""
        generation = self._generation
        kept = None if fresh else self._workspaces.get(scope)
        if kept is not None and kept[0] == generation:
            workspace = kept[1]
        else:
            workspace = Workspace(config.release, config.limits)
            self._workspaces[scope] = (generation, workspace)
            dirty = set(opened)
        for path in dirty:
            found = opened.get(path)
            if found is not None:
                workspace.put(path, found.text)
        return workspace

    def _hold_tokenizer(self) -> None:
        """Once a run needed cl100k (a context over the byte budget), keep it for the next runs,
        and the counts it made: building it costs more than a warm run, counting the unchanged
        texts again a fifth of one (most projects never need it)."""
        if self._tokenizer is None and tokens.ever_built():
            self._tokenizer = tokens.counter("cl100k")
            self._tokenizer("memlint")
            if tokens.REMEMBERED is None:  # and the counts of texts that did not change
                tokens.REMEMBERED = {}

    def _use_run_cache(self, scopes: list[Path]) -> None:
        """The user's cache folder keeps the decoded tokenizer table (once per user, as `check`
        keeps it): building cl100k reads it back instead of decoding it again."""
        if tokens.RANK_CACHE_DIR is not None or not scopes:
            return
        folder = rank_folder()
        if folder is None:
            return  # inside Claude Code's own folder: no cache
        try:
            prepare(folder)
        except OSError:
            return  # a read-only tree: no cache
        tokens.RANK_CACHE_DIR = folder
