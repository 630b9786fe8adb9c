"""Folders that hold another project's code inside the checked one: where nobody starts a session.

A folder below a checked root is *vendored* when it, or a folder between it and the root, is

- a git submodule: a `path = ...` of the root's `.gitmodules`;
- a repository of its own: it holds a `.git` folder or file (a nested clone, a checked-out submodule);
- a package manager's or vendoring tool's copy folder: `node_modules`, `bower_components`, `vendor`,
  `third_party`, `third-party` (the names these tools give them; no prose is read).

Its CLAUDE.md files are the other project's: they load when someone starts Claude Code in that
project, not in this one. Signals only: no file's text is read but `.gitmodules`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from memlint.lazy_regex import compile_lazily
from memlint.model.loading.workspace import Workspace
from memlint.model.source.files import read_file

# Folder names package managers and vendoring tools give the copies they make.
VENDOR_FOLDERS = frozenset({"node_modules", "bower_components", "vendor", "third_party", "third-party"})
_SUBMODULE_PATH = compile_lazily(r"^[ \t]*path[ \t]*=[ \t]*(.*?)[ \t]*$", re.MULTILINE)


def submodule_paths(workspace: Workspace, root: Path) -> frozenset[str]:
    """The folders (absolute, normalized) that `root/.gitmodules` names as submodules, once per run."""

    def read() -> frozenset[str]:
        data = read_file(root / ".gitmodules", 1024 * 1024)
        if not isinstance(data, bytes):
            return frozenset()
        text = data.decode("utf-8", "replace")
        found = set()
        for match in _SUBMODULE_PATH.finditer(text):
            value = match.group(1).strip('"')
            if value and not value.startswith("/"):
                found.add(os.path.normpath(os.path.join(str(root), value)))
        return frozenset(found)

    return workspace.once(("submodule-paths", str(root)), read)


def vendored_by(workspace: Workspace, root: Path, folder: Path) -> Path | None:
    """The outermost folder from `root` (exclusive) down to `folder` (inclusive) that makes `folder`
    vendored, else None (also when `folder` is not below `root`). Answered once per folder and run:
    a folder's answer is its parent's, else its own signals (1,000 nested start folders cost 1,000
    steps, not half a million)."""
    base = os.path.normpath(str(root)).rstrip("/") or "/"
    text = os.path.normpath(str(folder))
    prefix = base.rstrip("/") + "/"
    if not text.startswith(prefix):
        return None
    known: dict[str, Path | None] = workspace.once(("vendored-by", base), dict)
    submodules = submodule_paths(workspace, root)
    chain = []  # the folders from `folder` up to the first whose answer is known (or the root's child)
    current = text
    while current != base and current not in known and current.startswith(prefix):
        chain.append(current)
        current = os.path.dirname(current)
    found = known.get(current)
    for current in reversed(chain):  # down again, outermost first
        if found is None and (os.path.basename(current) in VENDOR_FOLDERS or current in submodules
                              or _holds_git(workspace, current)):
            found = Path(current)
        known[current] = found
    return found


def _holds_git(workspace: Workspace, folder: str) -> bool:
    def probe() -> bool:
        return os.path.lexists(os.path.join(folder, ".git"))

    return workspace.once(("holds-git", folder), probe)
