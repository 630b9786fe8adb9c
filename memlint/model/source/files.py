"""Reading a file from a repository safely: only a regular file, up to a size, opened without
blocking. Kept free of heavy imports: the run cache reads its entries with it before anything else."""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

MAX_FILE_BYTES = 4_194_304  # Claude Code reads nothing larger (MAX_CLAUDE_MD_BYTES in the CLI)

# Told the stat of each file `read_file` reads without a `stat` of its path first, taken on the open
# handle: the run cache (memlint/cache.py) records it as that path's stat, so that a later run
# sees the file changed.
stat_seen: Callable[[str | os.PathLike[str], os.stat_result], None] | None = None


class FileProblem:
    """Why a file could not be read as text: the reason is stable, the detail is for people. (A
    plain class: `dataclasses` would cost a warm, replayed run a fifth of its time to import.)"""

    __slots__ = ("detail", "reason")

    def __init__(self, reason: str, detail: str) -> None:
        self.reason = reason  # "not-found", "not-a-file", "too-large", "unreadable", "binary", "utf-16",
        # "invalid-utf8"
        self.detail = detail

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FileProblem) and (self.reason, self.detail) == (other.reason, other.detail)

    def __hash__(self) -> int:
        return hash((self.reason, self.detail))

    def __repr__(self) -> str:
        return f"FileProblem(reason={self.reason!r}, detail={self.detail!r})"


def _read_at_most(fd: int, expected: int, limit: int) -> bytes:
    """Up to `limit` bytes of an open file: its stat size plus one byte in one read (asking for
    `limit` each time allocates 4 MiB per file), then more only if it grew or is a /proc file
    (whose stat size is 0)."""
    first = os.read(fd, min(expected, limit - 1) + 1)
    if 0 < len(first) == expected:
        return first  # all the file holds by its stat: no second read to meet its end
    chunks = [first]
    total = len(first)
    while chunks[-1] and total < limit:
        chunk = os.read(fd, min(limit - total, 1 << 20))
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)[:limit]


def kind_problem(st: os.stat_result, limit: int = MAX_FILE_BYTES) -> FileProblem | None:
    """Why a file with this stat cannot be read (not a regular file, or over `limit`), or None."""
    if not stat.S_ISREG(st.st_mode):
        return FileProblem("not-a-file", "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file")
    if st.st_size > limit:
        return FileProblem("too-large", f"{st.st_size:,} bytes > {limit:,}")
    return None


def read_file(
    path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES, stat_first: bool = True
) -> bytes | FileProblem:
    """A regular file's bytes, up to `limit`, else why not. The file is stat-ed first (what the run
    cache records), then opened without blocking and checked again on the open handle, so a FIFO, a
    device or a file swapped for one between two calls is reported, never read from. Every file
    memlint reads from a repository goes through here (memory files, settings, ignore files, its
    own cache). `stat_first=False` is for a file this run knows to be a regular file (its folder's
    listing, or an earlier read, model.source.residency): the open handle is checked all the same,
    and its stat goes to `stat_seen`; a file that cannot be opened so is read the careful way."""
    if stat_first:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return FileProblem("not-found", "does not exist")
        except OSError as exc:
            return FileProblem("unreadable", exc.strerror or str(exc))
        problem = kind_problem(st, limit)
        if problem is not None:
            return problem
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        return FileProblem("not-found", "does not exist") if stat_first else read_file(path, limit)
    except OSError as exc:
        return FileProblem("unreadable", exc.strerror or str(exc)) if stat_first else read_file(path, limit)
    try:
        st = os.fstat(fd)
        if not stat_first and stat_seen is not None:
            stat_seen(path, st)
        problem = kind_problem(st, limit)
        if problem is not None:
            return problem
        data = _read_at_most(fd, st.st_size, limit + 1)
    except OSError as exc:
        return FileProblem("unreadable", exc.strerror or str(exc))
    finally:
        os.close(fd)
    if len(data) > limit:  # grew while read, or a /proc file whose size says 0
        return FileProblem("too-large", f"over {limit:,} bytes")
    return data
