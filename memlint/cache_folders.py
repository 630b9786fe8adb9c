"""Where memlint keeps its caches, and how much.

Run entries (memlint.cache) live in `.memlint_cache/` at the project root (the nearest folder up
from the first path holding `.memlint.toml`, `pyproject.toml` or `.git`), with a `.gitignore` of
`*`; outside a project, in the user's cache folder (`$XDG_CACHE_HOME/memlint`, else
`~/.cache/memlint`), under `runs/` and a name made from the checked folder's path. Never inside
Claude Code's own folder (`~/.claude`, `CLAUDE_CONFIG_DIR`): a project root there counts as none,
and a user cache folder there means no cache. The tokenizer's rank table is kept once per user, in
the user's cache folder. A folder keeps its `MAX_RUNS` most recently used entries, at most
`MAX_FOLDER_BYTES` together; the user's cache keeps the `MAX_FOLDERS` most recently used folders.
Like memlint.cache, this module imports nothing heavy: a replay starts here.
"""

from __future__ import annotations

import errno
import os
import stat
import zlib

from memlint.new_files import open_new

CACHE_DIR = ".memlint_cache"
MAX_RUNS = 8  # entries a cache folder keeps (the most recently stored or replayed)
MAX_FOLDER_BYTES = 64 * 1024 * 1024  # and their size together
MAX_FOLDERS = 64  # folders outside a project the user's cache keeps (the most recently used)
MAX_RANK_TABLES = 4  # tokenizer rank tables the user's cache keeps (each Python or venv names its own), and compiled-code tables
ROOT_MARKERS = (".memlint.toml", "pyproject.toml", ".git")


def _start(first_path: str) -> str:
    start = os.path.abspath(first_path)
    return start if os.path.isdir(start) else os.path.dirname(start)


def cache_root(first_path: str) -> str | None:
    """The project root that holds `.memlint_cache/` for a run whose first path is `first_path`:
    the nearest folder up holding a root marker, unless it is in Claude Code's own folder; None
    outside a project."""
    folder = _start(first_path)
    while True:
        if any(os.path.lexists(os.path.join(folder, marker)) for marker in ROOT_MARKERS):
            return None if _in_claude_folder(folder) else folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def user_cache_dir() -> str:
    """memlint's folder in the user's cache folder: `$XDG_CACHE_HOME/memlint` (an absolute path,
    as the XDG specification asks), else `~/.cache/memlint`."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "memlint")


def _claude_folders() -> list[str]:
    """Claude Code's own folders: `~/.claude` and `CLAUDE_CONFIG_DIR`, as given and resolved."""
    found = [os.path.join(os.path.expanduser("~"), ".claude")]
    if os.environ.get("CLAUDE_CONFIG_DIR"):
        found.append(os.path.expanduser(os.environ["CLAUDE_CONFIG_DIR"]))
    return [os.path.join(f, "") for folder in found for f in {os.path.abspath(folder), os.path.realpath(folder)}]


def _in_claude_folder(path: str) -> bool:
    paths = {os.path.join(os.path.abspath(path), ""), os.path.join(os.path.realpath(path), "")}
    return any(p.startswith(folder) for p in paths for folder in _claude_folders())


def cache_folder(first_path: str) -> str | None:
    """Where a run whose first path is `first_path` keeps its entries (None: nowhere allowed)."""
    root = cache_root(first_path)
    if root is not None:
        return os.path.join(root, CACHE_DIR)
    start = _start(first_path)
    name = f"{os.path.basename(start) or 'root'}-{zlib.crc32(start.encode('utf-8', 'surrogateescape')):08x}"
    folder = os.path.join(user_cache_dir(), "runs", name)
    return None if _in_claude_folder(folder) else folder


def rank_folder() -> str | None:
    """Where the tokenizer's rank table is kept: once per user (None inside Claude Code's folder)."""
    folder = user_cache_dir()
    return None if _in_claude_folder(folder) else folder


def prepare(folder: str) -> None:
    """Create the cache folder with a `.gitignore` that keeps it out of version control (in the
    user's cache folder: readable by the user alone). A project's `.memlint_cache` must be a folder
    of its own: one that is a symbolic link, or a `.gitignore` in it that is one (planted by a
    repository), raises OSError, and the run goes on without a cache, writing nothing through it."""
    private = os.path.join(folder, "").startswith(os.path.join(user_cache_dir(), ""))
    os.makedirs(folder, mode=0o700 if private else 0o777, exist_ok=True)
    if not private and not stat.S_ISDIR(os.lstat(folder).st_mode):
        raise NotADirectoryError(errno.ENOTDIR, "the cache folder is a symbolic link", folder)
    ignore = os.path.join(folder, ".gitignore")
    if not os.path.lexists(ignore):
        with open_new(ignore) as handle:
            handle.write(b"# Created by memlint: its run cache. Safe to delete (`memlint clean`).\n*\n")


def prune(folder: str) -> None:
    """Keep the `MAX_RUNS` most recently used entries of `folder` (at most `MAX_FOLDER_BYTES`
    together) and remove the others, and rank tables an older memlint kept there; in the user's
    cache, keep the `MAX_FOLDERS` most recently used folders. Best effort: an entry that cannot be
    removed stays."""
    found = _files(folder)
    if found is None:
        return
    total = 0
    doomed = [path for _, path, name in found if _is_rank_table(name)]
    runs = [(st.st_size, path) for st, path, name in found if name.startswith("run-") and name.endswith(".marshal")]
    for rank, (size, path) in enumerate(runs):
        total += size
        if rank >= MAX_RUNS or (rank and total > MAX_FOLDER_BYTES):
            doomed.append(path)
    _remove(doomed)
    parent = os.path.dirname(os.path.normpath(folder))
    if parent == os.path.join(user_cache_dir(), "runs"):
        _prune_folders(parent)


def prune_rank_tables(folder: str) -> None:
    """Keep the `MAX_RANK_TABLES` most recently used tokenizer rank tables of the user's cache
    folder `folder` (a table read is marked used: model.text.tokens) and as many tables of
    compiled code (memlint.compiled, the most recently written), and remove the others."""
    found = _files(folder)
    if found is not None:
        _remove([path for _, path, name in found if _is_rank_table(name)][MAX_RANK_TABLES:]
                + [path for _, path, name in found if _is_compiled_table(name)][MAX_RANK_TABLES:])


def _is_compiled_table(name: str) -> bool:
    return name.startswith("compiled-") and name.endswith(".marshal")


def _is_rank_table(name: str) -> bool:
    return name.startswith("cl100k-") and name.endswith(".marshal")


def _files(folder: str) -> list[tuple[os.stat_result, str, str]] | None:
    """Each file of `folder` (links not followed): its stat, path and name, the most recently
    modified first; None when the folder cannot be listed."""
    try:
        with os.scandir(folder) as listed:
            found = [(e.stat(follow_symlinks=False), e.path, e.name) for e in listed if e.is_file(follow_symlinks=False)]
    except OSError:
        return None
    return sorted(found, key=lambda item: item[0].st_mtime_ns, reverse=True)


def _remove(paths: list[str]) -> None:
    for path in paths:
        try:
            os.unlink(path)
        except OSError:
            pass


def _prune_folders(runs: str) -> None:
    import shutil

    try:
        with os.scandir(runs) as listed:
            folders = sorted(((e.stat(follow_symlinks=False).st_mtime_ns, e.path) for e in listed
                              if e.is_dir(follow_symlinks=False)), reverse=True)
    except OSError:
        return
    for _, path in folders[MAX_FOLDERS:]:
        shutil.rmtree(path, ignore_errors=True)


def clean(first_path: str = ".") -> str | None:
    """Remove the cache folder of the run holding `first_path`; return it, or None when absent."""
    import shutil

    folder = cache_folder(first_path)
    if folder is None or not os.path.isdir(folder) or os.path.islink(folder):
        return None
    shutil.rmtree(folder)
    return folder
