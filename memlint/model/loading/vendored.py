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

from memlint.model.loading.workspace import Workspace
from memlint.model.source.files import read_file

# Folder names package managers and vendoring tools give the copies they make.
VENDOR_FOLDERS = frozenset({"node_modules", "bower_components", "vendor", "third_party", "third-party"})
_SUBMODULE_PATH = re.compile(r"^[ \t]*path[ \t]*=[ \t]*(.*?)[ \t]*$", re.MULTILINE)


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
    vendored, else None (also when `folder` is not below `root`)."""
    base = os.path.normpath(str(root))
    text = os.path.normpath(str(folder))
    if not text.startswith(base.rstrip("/") + "/"):
        return None
    submodules = submodule_paths(workspace, root)
    current = base
    for part in text[len(base.rstrip("/")) + 1 :].split("/"):
        current = os.path.join(current, part)
        if part in VENDOR_FOLDERS or current in submodules or _holds_git(workspace, current):
            return Path(current)
    return None


def _holds_git(workspace: Workspace, folder: str) -> bool:
    def probe() -> bool:
        return os.path.lexists(os.path.join(folder, ".git"))

    return workspace.once(("holds-git", folder), probe)
