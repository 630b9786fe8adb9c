"""The whole-run cache: a `memlint check` whose inputs did not change replays its output.

An entry is keyed by memlint's version, the Python running it, the arguments, the working folder
and the environment variables memlint reads (`CLAUDE_*` among them), and holds what the run printed, its exit code, and a
signature of everything the run looked at on disk: every path it stat-ed, opened or listed (a probe
that found nothing is recorded as missing), and every module it imported (memlint itself, rule
plugins, parsers). While a run is recorded, `os.stat`, `os.lstat`, `os.scandir`, `os.listdir` and
`open` are wrapped, so no code path can read the disk unseen. A replay re-signs every recorded
path and replays only when all signatures are equal:

- a file: (mode, size, mtime_ns, ctime_ns, inode), packed into 36 bytes;
- a folder that was stat-ed: (mode, inode), packed;
- a folder that was listed: its own (mode, device, inode, mtime_ns, ctime_ns), taken just before
  the listing, packed. Adding, removing, renaming or replacing an entry marks the folder's mtime
  and ctime (POSIX asks it of `creat`, `link`, `unlink`, `rename`, `mkdir` and `rmdir`), so the
  folder's stat answers for its listing at the price of one `stat`, not an open, reads and a
  close. A folder changed within `RACY_NS` of the run's start (its next change could fall in the
  same timestamp tick), and any folder off POSIX, is signed by its entries instead: their names
  in directory order with their types, in one string (so `.memlint_cache/` itself, never listed
  by memlint, changes nothing);
- a path that did not exist: its error number.

Signatures are packed because a run over 16,000 files holds 50,000 of them (as tuples of ints they
took 17 MiB), and kept in one table per operation keyed by the path alone (a run over 32,000 files
makes 87,000 probes: a key tuple each was 6 MiB more). A folder is listed once: its signature is
made from the entries the run itself gets. An entry is stored as a small header (what is replayed)
followed by the three tables, each marshalled and written on its own, so storing a big run never
holds a second copy of everything it signed.

A result is not stored when a file it read changed within `RACY_NS` of the run's start (a write in
the same timestamp tick could go unseen), when a path gave two answers during the run, or when the
run used a form of access the recorder cannot sign again.

Where entries live and how many are kept is memlint.cache_folders' part. A corrupt or foreign
entry is ignored and rewritten; a folder that cannot be written (read-only tree) only means no
cache. This module imports nothing heavy: a replay costs the stat calls and the output.
"""

from __future__ import annotations

import builtins
import errno
import io
import marshal
import os
import stat
import struct
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from memlint import __version__
from memlint.cache_folders import (
    CACHE_DIR,
    cache_folder,
    cache_root,
    clean,
    prepare,
    prune,
    prune_rank_tables,
    rank_folder,
    user_cache_dir,
)
from memlint.model.source import files
from memlint.model.source.files import read_file
from memlint.new_files import open_new

MAX_ENTRY_BYTES = 256 * 1024 * 1024  # a stored run larger than this is not read back (it is run again)

__all__ = [  # where entries live is cache_folders' part; the command line asks here
    "CACHE_DIR", "Entry", "Recorder", "cache_folder", "cache_root", "cacheable", "clean", "first_path", "prepare",
    "prune", "prune_rank_tables", "rank_folder", "user_cache_dir",
]

TYPE_CHECKING = False  # typing itself is not imported: a replay must start fast
if TYPE_CHECKING:
    from typing import Any, TextIO

    Signature = bytes | str | tuple[str, int]  # packed stat, listing, or ("error", errno)
    Table = dict[str, Signature]  # path as the run gave it -> its signature, for one operation

FORMAT = 5
RACY_NS = 2_000_000_000  # a file changed this close to the run's start is not trusted
# Arguments that make `check` write files or skip the cache: such runs are never cached.
_UNCACHED_FLAGS = ("--fix", "--diff", "--only-fix", "--no-cache", "--unsafe-fixes", "-h", "--help", "--", "--staged",
                   # they write a file, read standard input or run until stopped (memlint/conventions.py)
                   "--output-file", "-o", "--write-baseline", "--stdin-filename", "-", "--watch")
_ENV = ("HOME", "GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR", "TERM")
_ENV_PREFIXES = ("CLAUDE_", "MEMLINT_")  # every variable Claude Code's loading (model.loading.settings) reads


_SIZES = struct.Struct("<5Q")  # a stored entry's header, output and tables, in bytes
_FILE = struct.Struct("<IqqqQ")  # mode, size, mtime_ns, ctime_ns, inode
_FOLDER = struct.Struct("<IQ")  # mode, inode
_LISTED = struct.Struct("<IQQqq")  # a listed folder: mode, device, inode, mtime_ns, ctime_ns
_ERRORS: dict[int, Signature] = {}  # one signature object per error number


def sign_stat(result: os.stat_result) -> Signature:
    if stat.S_ISDIR(result.st_mode):
        return _FOLDER.pack(result.st_mode, result.st_ino)
    return _FILE.pack(result.st_mode, result.st_size, result.st_mtime_ns, result.st_ctime_ns, result.st_ino)


def sign_error(exc: OSError) -> Signature:
    number = exc.errno or 0
    found = _ERRORS.get(number)
    if found is None:
        found = _ERRORS[number] = ("error", number)
    return found


def _mode(signature: Signature) -> int | None:
    """The file mode a stat signature holds (None for an error)."""
    return int(struct.unpack_from("<I", signature)[0]) if isinstance(signature, bytes) else None


def _changed_ns(signature: Signature) -> int | None:
    """A file signature's ctime (None for a folder, a listing or an error)."""
    return int(_FILE.unpack(signature)[3]) if isinstance(signature, bytes) and len(signature) == _FILE.size else None


def _sign_entries(entries: list[os.DirEntry[str]]) -> Signature:
    """A listing's signature: each entry's name and type, in directory order."""
    out = []
    for entry in entries:
        if entry.name == CACHE_DIR:
            continue
        kind = "l" if entry.is_symlink() else "d" if entry.is_dir(follow_symlinks=False) else "f"
        out.append(entry.name + "\0" + kind + "\0")
    return "".join(out)


def _listing(path: str, scandir: Callable[..., Any]) -> Signature:
    with scandir(path) as entries:
        return _sign_entries(list(entries))


def _sign_folder(result: os.stat_result) -> bytes:
    """What a listed folder's stat says of its entries (see the module's docstring)."""
    return _LISTED.pack(result.st_mode, result.st_dev, result.st_ino, result.st_mtime_ns, result.st_ctime_ns)


def _listing_now(path: str, signature: Signature, scandir: Callable[..., Any]) -> Signature:
    """The signature of folder `path` now, in the form `signature` was stored in."""
    try:
        if type(signature) is bytes:
            return _sign_folder(_Real.stat(path))
        return _listing(path, scandir)
    except OSError as exc:
        return sign_error(exc)


class _Listed:
    """What `os.scandir` returns, over entries already read (the recorder signs them first)."""

    def __init__(self, entries: list[os.DirEntry[str]]) -> None:
        self._entries = iter(entries)

    def __iter__(self) -> Iterator[os.DirEntry[str]]:
        return self._entries  # a `for` over the listing runs on the list's own iterator

    def __next__(self) -> os.DirEntry[str]:
        return next(self._entries)

    def __enter__(self) -> _Listed:  # noqa: PYI034 - Python 3.10 has no typing.Self
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._entries = iter(())


class _Real:
    """The functions the recorder wraps, as they were before."""

    stat = staticmethod(os.stat)
    lstat = staticmethod(os.lstat)
    scandir = staticmethod(os.scandir)
    listdir = staticmethod(os.listdir)
    open: Callable[..., Any] = builtins.open


def sign(operation: str, path: str) -> Signature:
    """The signature of `path` now, for `operation` ("stat", "lstat" or "list")."""
    try:
        if operation == "list":
            return _listing(path, _Real.scandir)
        return sign_stat(_Real.lstat(path) if operation == "lstat" else _Real.stat(path))
    except OSError as exc:
        return sign_error(exc)


OPERATIONS = ("stat", "lstat", "list")  # the order of a stored entry's tables


def still_true(operation: str, table: Table) -> bool:
    """Whether every path `operation` recorded still answers as it did (the replay's hot loop)."""
    if operation == "list":
        scandir = _Real.scandir
        for path, signature in table.items():
            if _listing_now(path, signature, scandir) != signature:
                return False
        return True
    real = _Real.stat if operation == "stat" else _Real.lstat
    for path, signature in table.items():
        try:
            now = sign_stat(real(path))
        except OSError as exc:
            now = sign_error(exc)
        if now != signature:
            return False
    return True


class Recorder:
    """Everything a run looks at on disk, signed at the moment it looked."""

    def __init__(self, *own_folders: str | None) -> None:
        # memlint's own cache files (entries, the tokenizer's rank table) are not the run's input
        self.own_folder = tuple(os.path.join(f, "") for f in own_folders if f is not None) or None
        self.seen: dict[str, Table] = {operation: {} for operation in OPERATIONS}
        # each folder listed by its entries (in `seen["list"]`), the folder's own stat just before
        self.folders: dict[str, os.stat_result] = {}
        self.unsure = False  # a path gave two answers, or was reached in a way we cannot sign again
        self.started_ns = time.time_ns()

    def note(self, operation: str, path: Any, signature: Signature | None = None) -> None:
        if type(path) is str:
            text = path
        elif isinstance(path, int):
            return  # a file descriptor: what it points to was opened (and recorded) by path
        else:
            try:
                text = os.fsdecode(path)
            except TypeError:
                self.unsure = True
                return
        if self.own_folder is not None and text.startswith(self.own_folder):
            return  # memlint's own cache files (the tokenizer's rank table, by absolute path)
        if signature is None:
            signature = sign(operation, text)
        known = self.seen[operation].setdefault(text, signature)
        if known != signature:
            self.unsure = True

    @contextmanager
    def active(self) -> Iterator[Recorder]:
        """Wrap the file-system entry points for the duration of the block."""
        from pathlib import Path  # imported here: a replay never needs it (2-3 ms of imports at start)

        path_type = type(Path())  # what `Path(...)` makes here: its text is `__fspath__()`, read without `note`
        recorder = self
        stats, lstats, own, real_stat = self.seen["stat"], self.seen["lstat"], self.own_folder, _Real.stat
        real_scandir: Callable[..., Any] = _Real.scandir

        def wrapped_stat(path: Any, *args: Any, dir_fd: Any = None, follow_symlinks: bool = True) -> Any:
            if dir_fd is not None or args:
                recorder.unsure = True
                return _Real.stat(path, *args, dir_fd=dir_fd, follow_symlinks=follow_symlinks)
            operation = "stat" if follow_symlinks else "lstat"
            try:
                result = real_stat(path, follow_symlinks=follow_symlinks)
            except OSError as exc:
                recorder.note(operation, path, sign_error(exc))
                raise
            text = path if type(path) is str else path.__fspath__() if type(path) is path_type else None
            if type(text) is str and (own is None or not text.startswith(own)):  # `note`, inlined: the hot case
                signature = sign_stat(result)
                table, other = (stats, lstats) if follow_symlinks else (lstats, stats)
                twin = other.get(text)
                if twin == signature:  # no symlink: both tables hold one object (16,000 files: 1.5 MiB)
                    signature = twin
                if table.setdefault(text, signature) != signature:
                    recorder.unsure = True
            else:
                recorder.note(operation, path, sign_stat(result))
            return result

        def wrapped_lstat(path: Any, *args: Any, **kwargs: Any) -> Any:
            if args or kwargs:
                recorder.unsure = True
                return _Real.lstat(path, *args, **kwargs)
            return wrapped_stat(path, follow_symlinks=False)

        def wrapped_scandir(path: Any = ".") -> Any:
            if type(path) is not str:  # bytes, a descriptor: signed by listing it again
                recorder.note("list", path)
                return _Real.scandir(path)
            try:
                folder = real_stat(path)  # before the listing: a change between the two is seen as one
                with real_scandir(path) as listed:
                    entries = list(listed)
            except OSError as exc:
                recorder.note("list", path, sign_error(exc))
                raise
            recorder.note("list", path, _sign_entries(entries))
            if own is None or not path.startswith(own):
                recorder.folders.setdefault(path, folder)
            return _Listed(entries)

        def wrapped_listdir(path: Any = ".") -> Any:
            recorder.note("list", path)
            return _Real.listdir(path)

        def seen_open(path: Any, result: os.stat_result) -> None:  # a file read without a stat of its path
            recorder.note("stat", path, sign_stat(result))

        def wrapped_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
            if not any(flag in mode for flag in "wax+"):
                recorder.note("stat", file)
            return _Real.open(file, mode, *args, **kwargs)

        patches: list[tuple[Any, str, Any]] = [
            (os, "stat", wrapped_stat), (os, "lstat", wrapped_lstat), (os, "scandir", wrapped_scandir),
            (os, "listdir", wrapped_listdir), (builtins, "open", wrapped_open), (io, "open", wrapped_open),
            (files, "stat_seen", seen_open),
        ]
        accessor = getattr(sys.modules.get("pathlib"), "_NormalAccessor", None)
        if accessor is not None:  # Python 3.10's pathlib bound these at import
            patches += [(accessor, name, staticmethod(func)) for name, func in (
                ("stat", wrapped_stat), ("lstat", wrapped_lstat), ("scandir", wrapped_scandir),
                ("listdir", wrapped_listdir), ("open", wrapped_open))]
        saved = [(owner, name, owner.__dict__[name]) for owner, name, _ in patches if name in owner.__dict__]
        try:
            for owner, name, func in patches:
                setattr(owner, name, func)
            yield self
        finally:
            for owner, name, original in saved:
                setattr(owner, name, original)

    def modules(self) -> None:
        """Sign every imported module's file: memlint, its rule plugins and its parsers."""
        for module in list(sys.modules.values()):
            path = getattr(module, "__file__", None)
            if isinstance(path, str):
                self.note("stat", path)

    def probes(self) -> list[Table]:
        """What to check again before a replay, one table per operation of `OPERATIONS`: a `stat`
        of a path whose `lstat` found no symbolic link is implied by that `lstat` (the same
        answer), so it is left out; so is a path found missing (ENOENT) under a folder found
        missing, or under a folder whose listing (checked as well) does not name the next step
        down: on bigtree 1,774 of the 4,026 probes (a `CLAUDE.local.md`, a `.claude/settings.json`
        looked for in each of 300 packages). What is left out is implied by what is kept: every
        listing is kept, and a missing path is left out only for a shorter one."""
        lstats, listings = self.seen["lstat"], self.seen["list"]
        stats = {path: signature for path, signature in self.seen["stat"].items()
                 if lstats.get(path) != signature or stat.S_ISLNK(_mode(signature) or 0)}
        return [_unimplied(stats, lstats, listings), _unimplied(lstats, stats, listings), self._listings()]

    def _listings(self) -> Table:
        """Each listing's signature as stored: the folder's stat when it answers for the entries
        (on POSIX, the folder unchanged for `RACY_NS` before the run began), else the entries."""
        if os.name != "posix":
            return self.seen["list"]
        limit = self.started_ns - RACY_NS
        out: Table = {}
        for path, signature in self.seen["list"].items():
            folder = self.folders.get(path)
            if (folder is not None and type(signature) is str and stat.S_ISDIR(folder.st_mode)
                    and folder.st_mtime_ns < limit and folder.st_ctime_ns < limit):
                out[path] = _sign_folder(folder)
            else:
                out[path] = signature
        return out

    def trustworthy(self) -> bool:
        """No path gave two answers and no file read changed too close to the run's start."""
        if self.unsure:
            return False
        limit = self.started_ns - RACY_NS
        for operation in ("stat", "lstat"):
            for signature in self.seen[operation].values():
                changed = _changed_ns(signature)
                if changed is not None and changed >= limit:
                    return False
        return True


def _unimplied(table: Table, other: Table, listings: Table) -> Table:
    """`table` without the paths found missing that the other probes say are missing: a folder
    above them was found missing (by `stat` or `lstat`), or was listed without the next name on
    the way down. The search up stops at a `.` or `..` (no listing names them, yet they are there)."""
    missing = sign_error(FileNotFoundError(errno.ENOENT, "missing"))
    names: dict[str, set[str]] = {}

    def implied(path: str) -> bool:
        child = path
        while True:
            folder, name = os.path.split(child)
            if folder == child or name in ("", ".", ".."):
                return False
            if table.get(folder) == missing or other.get(folder) == missing:
                return True
            listing = listings.get(folder)
            if isinstance(listing, str) and name != CACHE_DIR:  # (a listing's signature leaves CACHE_DIR out)
                listed = names.get(folder)
                if listed is None:
                    listed = names[folder] = set(listing.split("\0")[0::2])
                if name not in listed:
                    return True
            child = folder

    return {path: signature for path, signature in table.items() if signature != missing or not implied(path)}


class _Tee(io.TextIOBase):
    """A text stream that writes through to `target` and keeps a copy."""

    def __init__(self, target: TextIO) -> None:
        self.target = target
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        written = self.target.write(text)  # raises on bytes (click probes with b""): keep nothing then
        self.parts.append(text)
        return written

    def flush(self) -> None:
        self.target.flush()

    def isatty(self) -> bool:
        return self.target.isatty()

    def fileno(self) -> int:
        return self.target.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.target.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return self.target.errors


def cacheable(argv: list[str]) -> bool:
    """A `check` that writes nothing and does not ask to skip the cache."""
    if not argv or argv[0] != "check":
        return False
    return not any(arg == flag or arg.startswith(flag + "=") for arg in argv for flag in _UNCACHED_FLAGS)


def first_path(argv: list[str]) -> str:
    """The first positional argument of `check` (options taking a value skip it), else `.`."""
    takes_value = {"--home", "--format", "--select", "--extend-select", "--ignore", "--config", "--claude-code",
                   "--settings", "--baseline", "--color", "--colour"}
    args = iter(argv[1:])
    for arg in args:
        if arg in takes_value:
            next(args, None)
        elif not arg.startswith("-"):
            return arg
    return "."


class Entry:
    """One cached run: where it is stored and what it is keyed by."""

    def __init__(self, argv: list[str], folder: str) -> None:
        self.folder = folder
        self.key = repr((
            FORMAT, __version__, sys.version, sys.executable, sys.path, argv, os.getcwd(),
            [os.environ.get(name) for name in _ENV],
            sorted((k, v) for k, v in os.environ.items() if k.startswith(_ENV_PREFIXES)), sys.stdout.isatty(),
        ))  # stored whole in the entry and compared exactly: the file name's checksum only spreads
        raw = self.key.encode("utf-8", "surrogateescape")
        self.path = os.path.join(self.folder, f"run-{zlib.crc32(raw):08x}{zlib.adler32(raw):08x}.marshal")

    def replay(self, stdout: TextIO, stderr: TextIO) -> int | None:
        """Print the stored output and return the exit code, or None when there is no valid entry."""
        try:
            raw = read_file(self.path, MAX_ENTRY_BYTES)  # a planted FIFO or link to a device is never read
            if not isinstance(raw, bytes):
                return None
            sizes = _SIZES.unpack_from(raw)
            view, offset = memoryview(raw), _SIZES.size + sizes[0]
            fmt, key, err, code = marshal.loads(view[_SIZES.size:offset])
            if fmt != FORMAT or key != self.key or not isinstance(code, int):
                return None
            printed = view[offset:offset + sizes[1]]
            offset += sizes[1]
            for operation, size in zip(OPERATIONS, sizes[2:]):
                table = marshal.loads(view[offset:offset + size])
                offset += size
                if not isinstance(table, dict) or not still_true(operation, table):
                    return None
        except (OSError, EOFError, ValueError, TypeError, struct.error):
            return None  # missing, corrupt or foreign: the run goes on and rewrites it
        try:
            out = bytes(printed).decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            return None
        stdout.write(out)
        stdout.flush()
        stderr.write(err)
        stderr.flush()
        for used in (self.path, self.folder):  # recently used: kept when older ones are pruned
            try:
                os.utime(used)
            except OSError:
                pass
        return code

    def store(self, recorder: Recorder, out: list[str], err: str, code: int) -> bool:
        """Keep the run's output (`out`: what it printed, in the pieces it printed) and return
        True; False when it cannot be trusted or the folder cannot be written. The output is
        written piece by piece as UTF-8, never joined: a big report is not held twice more."""
        recorder.modules()
        if code not in (0, 1) or not recorder.trustworthy():
            return False
        header = marshal.dumps((FORMAT, self.key, err, code))
        tables = recorder.probes()
        temporary = f"{self.path}.{os.getpid()}.tmp"
        try:
            prepare(self.folder)
            handle = open_new(temporary)
        except OSError:  # (a file there already is not this run's to remove)
            return False
        try:
            with handle:
                handle.write(_SIZES.pack(len(header), 0, 0, 0, 0))
                handle.write(header)
                printed = 0
                for piece in out:
                    printed += handle.write(piece.encode("utf-8", "surrogatepass"))
                sizes = [len(header), printed]
                for index in range(len(tables)):  # one table's bytes at a time
                    data = marshal.dumps(tables[index])
                    tables[index] = {}
                    sizes.append(len(data))
                    handle.write(data)
                    del data
                handle.seek(0)
                handle.write(_SIZES.pack(*sizes))
            os.replace(temporary, self.path)
        except OSError:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            return False
        prune(self.folder)
        return True

    @contextmanager
    def recording(self) -> Iterator[tuple[Recorder, _Tee, _Tee]]:
        """Record what the run reads and prints (the streams are restored afterwards)."""
        recorder = Recorder(self.folder, rank_folder())
        out, err = _Tee(sys.stdout), _Tee(sys.stderr)
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out, err
        try:
            with recorder.active():
                yield recorder, out, err
        finally:
            sys.stdout, sys.stderr = saved
