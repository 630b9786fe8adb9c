"""A folder of the main repository above a worktree nested in it (`.claude/worktrees/<name>/`).

Claude Code (every modelled release, recorded in tests/differential/cases_layouts.py) does not load
the main repository's checked-in files there: its CLAUDE.md, `.claude/CLAUDE.md` and `.claude/rules`
(and, with the AGENTS.md plugin, its AGENTS files), since the worktree checks out its own copies.
Its CLAUDE.local.md, which git does not check out, still loads. Releases before
`nested_worktree_rules_skipped` (2.1.227) still attach its conditional rules when Claude reads a
matching file. The skipped files are said (`nested-worktree`), never processed: their paths stay free.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from memlint.model.loading.held_rules import conditional_rules
from memlint.model.loading.loaded import Deferred, LoadedFile
from memlint.model.loading.walkpaths import FOLDER_NAMES, folder_paths
from memlint.model.loading.workspace import Workspace
from memlint.model.release import Release


class _Loader(Protocol):
    """What this step asks of a loading (memlint.model.loading.loader's loader; named here, not imported:
    the loader imports this module)."""

    workspace: Workspace
    worktree: Any
    release: Release
    excludes: tuple[str, ...]

    def step(self, key: tuple[str, ...], external_ok: bool, make: Callable[[], list[LoadedFile]],
             shared: bool = ...) -> list[LoadedFile]: ...

    def skip(self, path: str, reason: Any, kind: Any, parent: Any, detail: str) -> None: ...

    def process(self, path: str, kind: Any, external_ok: bool, depth: int = ..., origin: Any = ...,
                absent: bool = ...) -> list[LoadedFile]: ...

    def facts(self, path: str) -> Any: ...

    def defer(self, deferred: Deferred) -> None: ...

DETAIL = "the main repository's copy: a worktree nested in it loads its own checked-in files"


def main_repository_folder(
    loader: _Loader, folder: Path, external_ok: bool, missing: frozenset[str], shared: bool,
    sources: frozenset[str],
) -> list[LoadedFile]:
    """The walk's step for `folder`: only its CLAUDE.local.md loads (of the `sources` of
    `--setting-sources`, the project files are looked at only with `project`, it only with `local`)."""
    claude, dot, rules, local = folder_paths(loader.workspace, folder)
    no_claude, no_dot, no_rules, no_local = (name in missing for name in FOLDER_NAMES)
    worktree = loader.worktree
    assert worktree is not None
    files: list[LoadedFile] = []
    if "project" in sources:
        # `.claude/CLAUDE.md` is said once: as its folder's, not again as the `.claude` folder's own CLAUDE.md
        no_claude = no_claude or (folder.name == ".claude" and worktree.skips_project_files(folder.parent))
        present = tuple(p for p, absent in ((claude, no_claude), (dot, no_dot), (rules, no_rules)) if not absent)
        files += loader.step(("worktree-copies", *present), external_ok, lambda: _say_skipped(loader, present), shared)
        if not (no_rules or loader.release.nested_worktree_rules_skipped):
            files += loader.step(("conditional-rules", rules), external_ok,
                                 lambda: conditional_rules(loader, rules), shared)
    if "local" in sources:
        files += loader.step(("process", local), external_ok,
                             lambda: loader.process(local, "local", external_ok, absent=no_local), shared)
    return files


def _say_skipped(loader: _Loader, paths: tuple[str, ...]) -> list[LoadedFile]:
    for path in paths:
        listed = loader.workspace.listing(path) if path.endswith("rules") else None
        if listed or (listed is None and loader.workspace.document(path).readable):
            loader.skip(path, "nested-worktree", "project", None, DETAIL)
    return []
