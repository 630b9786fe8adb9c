"""What git knows about a file, read from the repository's own files without running git.

`git ls-files` would read the repository's configuration, and settings such as `core.fsmonitor`
run commands: memlint instead parses `.git/index` (the DIRC format, versions 2-4, SHA-1 or SHA-256
object ids) and matches `.gitignore` files and `.git/info/exclude` with pathspec's gitignore rules.
Every file is read through the run's `Workspace` (`ctx.document`), so nothing here opens files.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable
from pathlib import Path

from memlint.model.source.ignorefiles import gitignore_spec
from memlint.model.text.document import Document
from memlint.records import dataclass

Read = Callable[[Path], Document]


@dataclass(frozen=True)
class Repository:
    """A git work tree and its git folder."""

    root: Path  # the work tree
    git_dir: Path


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    """Git's offset encoding (index v4 path prefixes)."""
    byte = data[pos]
    pos += 1
    value = byte & 0x7F
    while byte & 0x80:
        byte = data[pos]
        pos += 1
        value = ((value + 1) << 7) | (byte & 0x7F)
    return value, pos


def index_paths(data: bytes) -> frozenset[str] | None:
    """The paths in a git index file (relative to the work tree, `/`-separated), or None when the
    data is not an index memlint can read."""
    for hash_size in (20, 32):
        paths = _parse_index(data, hash_size)
        if paths is not None:
            return paths
    return None


def _parse_index(data: bytes, hash_size: int) -> frozenset[str] | None:
    if len(data) < 12 or data[:4] != b"DIRC":
        return None
    version = int.from_bytes(data[4:8], "big")
    count = int.from_bytes(data[8:12], "big")
    if version not in (2, 3, 4):
        return None
    fixed = 40 + hash_size + 2  # stat data, object id, flags
    pos, previous, out = 12, b"", set()
    try:
        for _ in range(count):
            start = pos
            if pos + fixed > len(data):
                return None
            flags = int.from_bytes(data[pos + fixed - 2 : pos + fixed], "big")
            pos += fixed
            if flags & 0x4000:
                if version < 3:
                    return None
                pos += 2
            if version == 4:
                strip, pos = _varint(data, pos)
                end = data.index(b"\0", pos)
                if strip > len(previous):
                    return None
                name = previous[: len(previous) - strip] + data[pos:end]
                pos = end + 1
            else:
                end = data.index(b"\0", pos)
                name = data[pos:end]
                if (flags & 0xFFF) not in (len(name), 0xFFF):
                    return None
                pos = start + (end - start + 8) // 8 * 8
            previous = name
            out.add(name.decode("utf-8", "surrogateescape"))
    except (IndexError, ValueError):
        return None
    return frozenset(out)


def find_repository(path: Path, read: Read) -> Repository | None:
    """The git work tree holding `path`: a `.git` folder, or a `.git` file (`gitdir: ...`) above it."""
    for folder in Path(os.path.abspath(path)).parents:
        marker = folder / ".git"
        if os.path.isdir(marker):
            return Repository(folder, marker)
        doc = read(marker)
        if doc.problem is None and doc.text.startswith("gitdir:"):
            target = doc.text[len("gitdir:") :].strip()
            return Repository(folder, Path(posixpath.normpath(os.path.join(folder, target))))
    return None


def tracked(repo: Repository, path: Path, read: Read) -> bool | None:
    """Whether `path` is in the repository's index; None when the index cannot be read."""
    doc = read(repo.git_dir / "index")
    if doc.problem is not None and doc.problem.reason not in ("binary", "utf-16"):
        return False if doc.problem.reason == "not-found" else None
    paths = index_paths(doc.data)
    if paths is None:
        return None
    return Path(os.path.abspath(path)).relative_to(repo.root).as_posix() in paths


def ignored_by(path: Path, top: Path, read: Read, git_dir: Path | None) -> Path | None:
    """The `.gitignore` (or `.git/info/exclude`) that ignores `path`, checking every folder from
    `top` down to the file (deeper files win; a file below an ignored folder is ignored); None
    when no pattern ignores it."""
    path = Path(os.path.abspath(path))
    relative = path.relative_to(top).parts
    sources: list[tuple[Path, Path]] = []  # (ignore file, the folder its patterns are relative to)
    if git_dir is not None:
        sources.append((git_dir / "info" / "exclude", top))
    for depth in range(len(relative)):
        folder = top.joinpath(*relative[:depth])
        sources.append((folder / ".gitignore", folder))
    # candidates: each ancestor folder below `top` (as `dir/`), then the file itself
    for depth in range(1, len(relative) + 1):
        target = top.joinpath(*relative[:depth])
        is_dir = depth < len(relative)
        decision: tuple[bool, Path] | None = None
        for source, base in sources:
            if base != top and base not in target.parents:
                continue
            doc = read(source)
            if doc.problem is not None:
                continue
            spec = gitignore_spec(doc.text.splitlines())
            rel = target.relative_to(base).as_posix() + ("/" if is_dir else "")
            result = spec.check_file(rel)
            if result.include is not None:
                decision = (result.include, source)
        if decision is not None and decision[0]:
            return decision[1]
    return None
