"""The paths one loading walks, made once per run and shared by every start folder: a folder's
memory file names, its real path and its ancestors as `Path` objects, and the probe that says
which names a folder holds (memlint.model.loading.loader)."""

from __future__ import annotations

import os
from pathlib import Path

from memlint.model.loading.workspace import Listing, Workspace, surely_absent
from memlint.model.memory.automem import automem_folder

# Folders no walk of memlint's enters (the loader's, discovery's, the deferred files').
PRUNED_FOLDERS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".hg", ".svn", ".memlint_cache"})
# A folder's own memory files and rules folder, in the order the walk reads them.
FOLDER_NAMES = ("CLAUDE.md", ".claude/CLAUDE.md", ".claude/rules", "CLAUDE.local.md")


def probe(folder: Path, names: tuple[str, ...], listing: Listing | None = None) -> tuple[set[str], set[str]]:
    """(which of `names` exist in `folder`, as `os.path.lexists` says: as links too, and a
    case-insensitive disk may say more; which are certainly not there: `lstat` found no such entry,
    or the folder's walk `listing` of this run shows none in any case). A name in neither
    (permissions, a name too long, a file where a folder should be) reads as a problem, not as
    missing."""
    base = str(folder)
    present: set[str] = set()
    missing = set(surely_absent(listing, names))
    for name in names:
        if name in missing:
            continue
        try:
            os.lstat(os.path.join(base, name))
        except FileNotFoundError:
            missing.add(name)
        except (OSError, ValueError):
            pass
        else:
            present.add(name)
    return present, missing


def joined(workspace: Workspace, folder: Path, *names: str) -> tuple[str, ...]:
    """`str(folder / name)` for each name, joined once per run (the same for every start folder)."""
    return workspace.once(("joined", folder, names), lambda: tuple(str(folder / name) for name in names))


def child(workspace: Workspace, folder: Path, name: str) -> Path:
    """`folder / name`, made once per run."""
    return workspace.once(("child", folder, name), lambda: folder / name)


def project_automem_folder(workspace: Workspace, home: Path, project_root: Path, config_dir: Path | None,
                    name: str | None) -> Path:
    """`automem_folder`, once per project root and run: start folders of one project share it."""
    return workspace.once(("automem-folder", home, project_root, config_dir, name),
                          lambda: automem_folder(home, project_root, config_dir, name))


def folder_paths(workspace: Workspace, folder: Path) -> tuple[str, str, str, str]:
    """A folder's CLAUDE.md, .claude/CLAUDE.md, .claude/rules and CLAUDE.local.md, joined once per run."""
    base = str(folder)
    return workspace.once(("folder-paths", folder), lambda: (
        os.path.join(base, FOLDER_NAMES[0]), os.path.join(base, FOLDER_NAMES[1]),
        os.path.join(base, FOLDER_NAMES[2]), os.path.join(base, FOLDER_NAMES[3])))


PATH_TYPE = type(Path())


def real_folder_path(workspace: Workspace, path: Path) -> Path:
    """`os.path.realpath(path)`, for a folder from its parent's real path (once per folder and run:
    1,000 nested start folders would each resolve every ancestor again)."""
    text = os.path.abspath(path)

    def resolve() -> Path:
        try:
            real = workspace.real_folder(text)
        except (OSError, RuntimeError):  # missing, not a folder, a loop: as realpath says
            real = os.path.realpath(text)
        # the caller's own Path when it already names the real folder (most start folders): no parse
        return path if type(path) is PATH_TYPE and real == text and str(path) == text else Path(real)

    return workspace.once(("real-folder-path", text), resolve)


def ancestors(workspace: Workspace, start: Path) -> list[Path]:
    """`[start, *start.parents]`, each folder's parent Path made once per run and shared between
    start folders (the list itself is built per start: keeping one per folder would grow with the
    square of a deep tree)."""
    parents = workspace.memo.setdefault(("parent-paths",), {})
    assert isinstance(parents, dict)
    out = [start]
    current = start
    while True:
        key = str(current)
        parent = parents.get(key)
        if parent is None:
            parent = parents[key] = current.parent
        if str(parent) == key:
            return out
        out.append(parent)
        current = parent
