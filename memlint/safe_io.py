"""The file operations fixes are written with: temp files beside their target under a recognisable
name, fsync of files and folders, the umask for new files, mode and owner kept for rewritten ones,
names a fix may create, where a fix may write, and a lock so two `memlint fix` runs never interleave.
"""

from __future__ import annotations

import os
import signal
import time
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from types import FrameType

TEMP_SUFFIX = ".memlint-tmp"
LOCK_WAIT_SECONDS = 30.0
MAX_NAME_BYTES = 255
MAX_PATH_BYTES = 4096
_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)), *(f"LPT{i}" for i in range(1, 10))}
_FORBIDDEN = set('<>:"|?*\\') | {chr(i) for i in range(32)} | {"\x7f"}


class Interrupted(BaseException):
    """SIGTERM or SIGHUP arrived while fixes were being written: undo, then exit."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"interrupted by signal {signum}")
        self.signum = signum


def temp_name(target: Path) -> str:
    """`.<name>.<pid>.<random>.memlint-tmp`: beside the target, hidden, and owned by this process."""
    return f".{target.name[:100]}.{os.getpid()}.{os.urandom(4).hex()}{TEMP_SUFFIX}"


def current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_temp(target: Path, data: bytes, like: os.stat_result | None, umask: int) -> Path:
    """A fsynced temp file beside `target` holding `data`, with the mode (and owner, where allowed)
    of `like`, or the umask's mode for a new file. Removed again on any error."""
    temp = target.parent / temp_name(target)
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if like is None:
            os.chmod(temp, 0o666 & ~umask)
        else:
            if (like.st_uid, like.st_gid) != (os.getuid(), os.getgid()) and hasattr(os, "chown"):
                with suppress(OSError):  # only root may give a file away; the group may still work
                    os.chown(temp, like.st_uid, like.st_gid)
            os.chmod(temp, like.st_mode & 0o7777)
    except BaseException:
        with suppress(OSError):
            os.unlink(temp)
        raise
    return temp


def fsync_folder(folder: Path) -> None:
    """Make renames and links in `folder` durable (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale_temps(folder: Path) -> None:
    """Temp files of an earlier memlint run that was killed mid-write (its process is gone):
    partial copies, safe to drop. Temp files of a live run are left alone."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if not (name.startswith(".") and name.endswith(TEMP_SUFFIX)):
            continue
        parts = name[: -len(TEMP_SUFFIX)].rsplit(".", 2)
        pid = int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None
        if pid is not None and pid != os.getpid() and _alive(pid):
            continue
        with suppress(OSError):
            os.unlink(folder / name)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def name_problem(path: Path, siblings: Sequence[str]) -> str | None:
    """Why a fix must not create `path` (None when it may): NUL and control characters, names
    Windows reserves, overlong names, and names that differ from a sibling only by letter case or
    Unicode normalisation (one file on macOS and Windows, two on Linux)."""
    name = path.name
    if "\x00" in str(path):
        return "the name holds a NUL byte"
    if name in ("", ".", ".."):
        return f"{name!r} is not a file name"
    if any(ch in _FORBIDDEN for ch in name) or name.endswith((".", " ")):
        return "the name holds a character Windows or a terminal cannot take"
    if name.split(".", 1)[0].upper() in _RESERVED:
        return f"{name.split('.', 1)[0]} is a reserved device name on Windows"
    if len(os.fsencode(name)) > MAX_NAME_BYTES or len(os.fsencode(str(path))) > MAX_PATH_BYTES:
        return "the name is too long for the file system"
    key = _fold(name)
    clash = next((s for s in siblings if s != name and _fold(s) == key), None)
    if clash is not None:
        return f"it differs from {clash!r} only by letter case or Unicode normalisation"
    return None


def _fold(name: str) -> str:
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", name).casefold())


def within(path: Path, roots: Sequence[Path]) -> bool:
    """`path`, with every symlink of its folder resolved, is in one of `roots` (real paths)."""
    real = Path(os.path.realpath(path.parent)) / path.name
    return any(real == root or root in real.parents for root in roots)


@contextmanager
def fix_lock(folders: Sequence[Path], wait: float = LOCK_WAIT_SECONDS) -> Iterator[None]:
    """Hold an exclusive lock on each folder (flock on the folder itself: no file is created in the
    project) for a whole fix run; wait up to `wait` seconds for another run, then refuse with
    OSError. Where locks are not supported the run goes on unlocked (compare-before-replace still
    refuses to overwrite a file another run changed)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    held: list[int] = []
    try:
        for folder in sorted({os.path.realpath(f) for f in folders}):
            try:
                fd = os.open(folder, os.O_RDONLY)
            except OSError:
                continue
            held.append(fd)
            deadline = time.monotonic() + wait
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise OSError(f"another `memlint fix` is writing in {folder}; try again when it ends") from None
                    time.sleep(0.05)
                except OSError:
                    break  # the file system has no locks
        yield
    finally:
        for fd in held:
            os.close(fd)


@contextmanager
def signals_interrupt() -> Iterator[None]:
    """While writing, SIGTERM and SIGHUP raise `Interrupted` (SIGINT already raises
    KeyboardInterrupt), so the writer removes its temp files and undoes what it did."""

    def handler(signum: int, _frame: FrameType | None) -> None:
        raise Interrupted(signum)

    previous: dict[int, object] = {}
    try:
        for name in ("SIGTERM", "SIGHUP"):
            signum = getattr(signal, name, None)
            if signum is not None:
                with suppress(ValueError, OSError):  # not the main thread
                    previous[signum] = signal.signal(signum, handler)
        yield
    finally:
        for signum, old in previous.items():
            with suppress(ValueError, OSError, TypeError):
                signal.signal(signum, old)  # type: ignore[arg-type]
