"""The files of a project folder, as paths relative to it: what a conditional rule's `paths:` can
ever match. Listed once per folder and check run (cached on the `Workspace`), pruned like the
loader's walk (`.git`, `node_modules`, virtual environments)."""

from __future__ import annotations

import os
from pathlib import Path
from weakref import WeakKeyDictionary

from memlint.model.loading.loader import PRUNED_FOLDERS
from memlint.model.loading.workspace import Listing, Workspace, walk

# A folder with more files than this is not listed (None): a rule then cannot call a rule dead.
MAX_FILES = 200_000

_CACHE: WeakKeyDictionary[Workspace, dict[str, tuple[str, ...] | None]] = WeakKeyDictionary()


def _walk(base: Path, seen: dict[str, Listing]) -> tuple[str, ...] | None:
    out: list[str] = []
    for folder, subfolders, names in walk(base, seen):  # discovery's listings, where it walked
        subfolders[:] = sorted(d for d in subfolders if d not in PRUNED_FOLDERS)
        relative = os.path.relpath(folder, base)
        prefix = "" if relative == "." else relative.replace(os.sep, "/") + "/"
        out.extend(prefix + name for name in sorted(names))
        if len(out) > MAX_FILES:
            return None
    return tuple(out)


def project_files(workspace: Workspace, base: Path) -> tuple[str, ...] | None:
    """Every file below `base`, relative to it with `/` separators, sorted by folder; None when the
    folder is too large to list."""
    per_run = _CACHE.setdefault(workspace, {})
    key = os.path.abspath(base)
    if key not in per_run:
        per_run[key] = _walk(Path(key), workspace.walked)
    return per_run[key]
