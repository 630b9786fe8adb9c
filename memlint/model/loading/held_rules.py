"""The conditional rules of a rules folder, deferred (attached when Claude reads a matching file) while
nothing of the folder loads at start. Claude Code does this for two folders it otherwise leaves alone: the
main repository's rules above a nested worktree, before `nested_worktree_rules_skipped`
(memlint.model.loading.nested_worktree), and every project rules folder of a session started without the
project source, before `conditional_rules_follow_sources` (the loader's folder step)."""

from __future__ import annotations

import posixpath
from typing import Any, Protocol

from memlint.model.cli_js.globs import picomatch
from memlint.model.loading.loaded import Deferred, LoadedFile
from memlint.model.loading.workspace import Workspace


class _Loader(Protocol):
    """What this step asks of a loading (memlint.model.loading.loader's loader; named here, not imported:
    the loader imports this module)."""

    workspace: Workspace
    excludes: tuple[str, ...]

    def facts(self, path: str) -> Any: ...

    def defer(self, deferred: Deferred) -> None: ...


def conditional_rules(loader: _Loader, folder: str, visited: set[str] | None = None) -> list[LoadedFile]:
    """The conditional rules under `folder` (its subfolders too, each real folder once), deferred;
    nothing loads at start, so the step's outcome is empty."""
    visited = set() if visited is None else visited
    resolved = loader.workspace.realpath(folder)[0]
    if resolved in visited:
        return []
    visited.add(resolved)
    for name, is_dir, is_file in loader.workspace.listing(resolved) or ():
        target = loader.workspace.realpath(posixpath.join(folder, name))[0]
        if is_dir:
            conditional_rules(loader, target, visited)
        elif is_file and name.endswith(".md") and not (loader.excludes and picomatch(target, loader.excludes)):
            facts = loader.facts(target)
            if facts.skip is None and facts.globs:
                loader.defer(Deferred(facts.path, "conditional-rule", "project", facts.globs))
    return []
