"""Every file memlint looks at, read once per run and parsed at most once."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import TypeVar, cast

from memlint import progress
from memlint.model.release import DEFAULT, Release
from memlint.model.source.files import MAX_FILE_BYTES, FileProblem, kind_problem
from memlint.model.source.limits import DEFAULT_LIMITS, LimitHit, Limits
from memlint.model.source.residency import TextBudget
from memlint.model.text.document import Document

T = TypeVar("T")
_UNLOADABLE = frozenset({"not-found", "not-a-file", "too-large"})
_SAME = "\x00same"  # `Workspace._real`: the path is its own real path (a path holds no NUL)
_NO_ODD: frozenset[str] = frozenset()  # `walk`'s listing of a folder with no symlink or odd entry (most)
_PATH_TYPE = type(Path())  # PosixPath or WindowsPath: a subclass of it may behave otherwise


class Workspace:
    """A cache of documents keyed by absolute path (not resolved: symlinks stay distinct). Its
    documents are read as `release` reads them (frontmatter after a BOM, comment stripping)."""

    def __init__(self, release: Release = DEFAULT, limits: Limits = DEFAULT_LIMITS) -> None:
        self.release = release
        self.limits = limits
        self._documents: dict[str, Document] = {}
        self._real: dict[str, str] = {}  # path -> its real path, `_SAME` when it is the path itself
        self._folder_real: dict[str, str] = {}
        self._listings: dict[str, list[tuple[str, bool, bool]]] = {}
        self.walked: dict[str, Listing] = {}  # what `walk` saw of each folder it listed this run
        self.memo: dict[object, object] = {}  # the loader's per-path facts
        self._other_hits: dict[tuple[str, str], LimitHit] = {}
        self._lax: dict[str, str] = {}  # path -> os.path.realpath(path)
        # Folders with a start folder of this run below them (their loading steps are replayed for
        # that start folder, so recording them pays); None when the run does not know its starts.
        self.above_starts: set[str] | None = None
        self.created: set[Path] = set()  # files a fix wrote in memory that are not on disk
        self.removed: set[Path] = set()  # files a fix removed in memory
        self.texts = TextBudget()  # which documents keep their text (model.source.residency)

    @staticmethod
    def absolute(path: Path | str) -> str:
        """`os.path.abspath(path)`; of a `Path` that is absolute and holds no `..`, its own text
        (already normalized: no `.`, no doubled or trailing slash), so tables keyed by it hold no
        second copy of a text the path keeps anyway."""
        if isinstance(path, PurePosixPath):
            text = str(path)
            if text.startswith("/") and "/.." not in text:
                return text
        return os.path.abspath(path)

    def realpath(self, path: str) -> tuple[str, bool]:
        """(real path, whether it differs) as Claude Code resolves symlinks; the path itself when
        it cannot be resolved (missing, a broken link, a loop). Cached for the run."""
        real = self._real.get(path)
        if real is None:
            try:
                real = self._resolve(path)
            except (OSError, RuntimeError):
                real = path
            if real == path:
                real = _SAME  # no second copy of the text, and no tuple kept per path
            self._real[path] = real
        return (path, False) if real is _SAME else (real, True)

    def once(self, key: object, compute: Callable[[], T]) -> T:
        """`compute()` once per run for `key` (what the loader shares between start folders)."""
        if key not in self.memo:
            self.memo[key] = compute()
        return cast(T, self.memo[key])

    def resolved(self, path: str | Path) -> str:
        """`os.path.realpath(path)` (what cannot be resolved is kept as written), cached for the run:
        rules ask it of the same files once per start folder."""
        key = os.fspath(path)
        found = self._lax.get(key)
        if found is None:
            found = None
            if os.path.isabs(key) and key == os.path.normpath(key):
                try:  # an existing path: from its folder's real path (realpath lstats every level)
                    found = self._resolve(key)
                except (OSError, RuntimeError):
                    pass
            if found is None:
                found = os.path.realpath(key)
            found = self._lax[key] = key if found == key else found  # no second copy of the text
        return found

    def _resolve(self, path: str) -> str:
        """`os.path.realpath(path, strict=True)` of an absolute path, from its folder's real path
        and one `lstat` when the name is not a symlink."""
        folder, name = os.path.split(path)
        if name and name not in (".", ".."):
            candidate = os.path.join(self.real_folder(folder), name)
            if not_a_link(self.walked.get(folder), name) or not stat.S_ISLNK(os.lstat(candidate).st_mode):
                return candidate
        return os.path.realpath(path, strict=True)

    def real_folder(self, folder: str) -> str:
        """The real path of a folder, each folder of it resolved once per run (a start folder 1,000
        levels deep costs one `lstat` more than its parent, not 1,000)."""
        chain: list[str] = []
        current = folder
        while current not in self._folder_real:
            parent, name = os.path.split(current)
            if not name or parent == current or name in (".", ".."):
                self._folder_real[current] = os.path.realpath(current, strict=True)
                break
            chain.append(current)
            current = parent
        for path in reversed(chain):
            parent, name = os.path.split(path)
            candidate = os.path.join(self._folder_real[parent], name)
            if plain_folder(self.walked.get(parent), name):
                self._folder_real[path] = candidate
                continue
            mode = os.lstat(candidate).st_mode
            if stat.S_ISLNK(mode):
                candidate = os.path.realpath(path, strict=True)
            elif not stat.S_ISDIR(mode):
                raise NotADirectoryError(path)
            self._folder_real[path] = candidate
        return self._folder_real[folder]

    def listing(self, folder: str) -> list[tuple[str, bool, bool]] | None:
        """(name, is a folder, is a file) for each entry of `folder` in directory order, symlinks
        followed; None when it cannot be listed. Cached for the run. During a fix loop, a file a fix
        removed in memory is not listed and one it created is (a rule renamed `y.MD` -> `y.md`)."""
        listed = self._disk_listing(folder)
        if not self.created and not self.removed:
            return listed
        gone = {p.name for p in self.removed if str(p.parent) == folder}
        out = [entry for entry in listed or () if entry[0] not in gone]
        names = {entry[0] for entry in out}
        out += [(p.name, False, True) for p in sorted(self.created) if str(p.parent) == folder and p.name not in names]
        return out if out or listed is not None else None

    def _disk_listing(self, folder: str) -> list[tuple[str, bool, bool]] | None:
        if folder in self._listings:
            return self._listings[folder]
        try:
            entries = list(os.scandir(folder))
        except OSError:
            self._listings[folder] = None  # type: ignore[assignment]
            return None
        out = []
        for entry in entries:
            try:
                linked = entry.is_symlink()
                is_dir = os.path.isdir(entry.path) if linked else entry.is_dir(follow_symlinks=False)
                is_file = os.path.isfile(entry.path) if linked else entry.is_file(follow_symlinks=False)
            except OSError:
                continue
            out.append((entry.name, is_dir, is_file))
        self._listings[folder] = out
        return out

    def document(self, path: Path | str) -> Document:
        """The document of `path`, read on first need. A path whose text is a key already is
        found without `abspath`: a key is an `abspath`, and `abspath` of one is itself (no table
        by the caller's path objects, which kept every one of them alive). A new document keeps
        the caller's `Path` when it spells the key (discovery's paths do): no second one per file."""
        text = os.fspath(path)
        doc = self._documents.get(text)
        if doc is not None:
            return doc
        key = self.absolute(path)
        if key == text:
            key = text  # the caller's text, kept by its Path anyway: no second copy as the key
        doc = self._documents.get(key)
        if doc is None:
            own = path if isinstance(path, Path) and type(path) is _PATH_TYPE and text == key else Path(key)
            folder, name = os.path.split(key)
            doc = Document.read(own, self.release, plain_file(self.walked.get(folder), name))
            doc.max_includes = self.limits.max_includes_per_file
            doc.keep_within(self.texts)
            self._documents[key] = doc
            progress.COUNTS.files_read += 1
        return doc

    def unloadable(self, path: Path | str) -> FileProblem | None:
        """`document(path).problem` when it is "not-found", "not-a-file" or "too-large" (nothing
        of the file can be read), else None. A file not read yet is only stat-ed: an include
        target whose text nothing needs (outside the start folder) is not held for the run."""
        if os.path.abspath(path) not in self._documents:
            try:
                st = os.stat(path)
            except FileNotFoundError:
                return FileProblem("not-found", "does not exist")
            except OSError:
                return None  # unreadable: read_file says so, which is none of the three
            if st.st_size > 0 or not stat.S_ISREG(st.st_mode):  # size 0 may be a /proc file: read it
                return kind_problem(st)
        problem = self.document(path).problem
        return problem if problem is not None and problem.reason in _UNLOADABLE else None

    def note_limit(self, hit: LimitHit) -> None:
        """A limit reached somewhere other than a document's includes (once per file and limit)."""
        self._other_hits.setdefault((str(hit.path), hit.limit), hit)

    def limit_hits(self) -> list[LimitHit]:
        """The limits reached on the documents parsed so far in this run."""
        hits = list(self._other_hits.values())
        dropping: dict[str, int] = {}  # only the few documents that hit the limit are sorted
        for key, doc in self._documents.items():
            scan = doc.scanned
            if scan is not None and scan.dropped_includes:
                dropping[key] = scan.dropped_includes
        for key in sorted(dropping):
            hits.append(LimitHit(Path(key), "max-includes-per-file", self.limits.max_includes_per_file,
                                 f"{dropping[key]:,} more includes not followed, so their problems are "
                                 "not reported (Claude Code has no such limit and loads them all)"))
        return hits

    def forget(self, path: Path | str) -> None:
        """Drop a cached document after memlint rewrote the file."""
        self._documents.pop(os.path.abspath(path), None)
        self.memo.clear()
        self.walked.clear()

    def __len__(self) -> int:
        return len(self._documents)

    def close(self) -> None:
        """Let go of every document and fact: the run that made this workspace is over. The
        command line runs with the cyclic garbage collector off, and documents and their text budget
        hold each other (as facts in `memo` may hold the run's context): dropped here, they are
        freed at once, and what comes after (the report) reuses their memory."""
        self._documents.clear()
        self.memo.clear()
        self.walked.clear()
        self.texts.clear()

    def remove(self, path: Path | str) -> None:
        """Mark a file as gone in memory (a fix deletes it; not yet written)."""
        key = os.path.abspath(path)
        self._documents[key] = Document(Path(key), b"", FileProblem("not-found", "removed by a fix"), self.release)
        self.created.discard(Path(key))
        self.removed.add(Path(key))
        self.memo.clear()
        self.walked.clear()

    def put_bytes(self, path: Path | str, data: bytes) -> None:
        """A file's bytes as read elsewhere (the git index), decoded as a file on disk would be."""
        key = os.path.abspath(path)
        if len(data) > MAX_FILE_BYTES:
            doc = Document(Path(key), b"", FileProblem("too-large", f"{len(data):,} bytes > {MAX_FILE_BYTES:,}"),
                           self.release)
        else:
            doc = Document.from_bytes(Path(key), data, self.release)
        self._replace(key, doc)

    def put(self, path: Path | str, text: str) -> None:
        """Replace a file's content in memory (a fix's result, not yet written)."""
        key = os.path.abspath(path)
        self._replace(key, Document.from_text(Path(key), text, self.release))

    def put_read(self, path: Path | str, data: bytes | FileProblem) -> None:
        """Give a file the bytes read for it elsewhere (standard input), decoded as a file's are,
        or the problem that kept them from being read."""
        key = os.path.abspath(path)
        if isinstance(data, FileProblem):
            doc = Document(Path(key), b"", data, self.release)
        else:
            doc = Document.from_bytes(Path(key), data, self.release)
        self._replace(key, doc)

    def _replace(self, key: str, doc: Document) -> None:
        """`doc` is the file at `key` from now on (created when nothing is on disk there)."""
        if not os.path.lexists(key):
            self.created.add(Path(key))
        self.removed.discard(Path(key))
        doc.max_includes = self.limits.max_includes_per_file
        self._documents[key] = doc
        self.memo.clear()
        self.walked.clear()


# What `walk` saw of one folder: (subfolders, other names, the names that are symlinks or neither a
# folder nor a regular file: a FIFO, a device, a socket).
# A folder's subfolders and other entries, each in directory order, as dicts (names to None) so that
# asking for one name costs the same in a folder of 5,000 files as in one of 5 (tuples made the
# per-file questions of a run quadratic in the size of its largest folder); and the entries that are
# symlinks or neither a folder nor a regular file.
Listing = tuple[dict[str, None], dict[str, None], frozenset[str]]


def walk(
    top: str | os.PathLike[str], seen: dict[str, Listing] | None = None
) -> Iterator[tuple[str, list[str], list[str]]]:
    """`os.walk(top)` (top-down, the caller may prune `subfolders`, symlinked folders not entered)
    without recursion: Python 3.10 and 3.11 recurse once per level, so a 10,000-deep tree raised
    RecursionError. Folders that cannot be listed (permissions, a path over PATH_MAX) are passed over.
    With `seen` (a run's `Workspace.walked`), a folder listed earlier in the run is not listed again,
    and each new listing is kept there (for `listed`, `not_a_link` and `surely_absent`)."""
    stack = [os.fspath(top)]
    while stack:
        folder = stack.pop()
        known = None if seen is None else seen.get(folder)
        if known is None:
            known = _list(folder)
            if known is None:
                continue
            if seen is not None:
                seen[folder] = known
        subfolders, names, odd = known
        kept = list(subfolders)
        yield folder, kept, list(names)
        for name in reversed(kept):
            if name not in odd:  # symlinked folders (the only odd subfolders) are not entered
                stack.append(os.path.join(folder, name))


def _list(folder: str) -> Listing | None:
    """`walk`'s listing of one folder, None when it cannot be listed."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return None
    subfolders: list[str] = []
    names: list[str] = []
    odd: set[str] = set()
    for entry in entries:
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        (subfolders if is_dir else names).append(entry.name)
        if _is_link(entry) or not (is_dir or _is_plain_file(entry)):
            odd.add(entry.name)
    return dict.fromkeys(subfolders), dict.fromkeys(names), frozenset(odd) if odd else _NO_ODD


def _is_link(entry: os.DirEntry[str]) -> bool:
    """`os.path.islink(entry.path)`, from the listing when it says (no `lstat` per entry)."""
    try:
        return entry.is_symlink()
    except OSError:
        return False


def _is_plain_file(entry: os.DirEntry[str]) -> bool:
    """A regular file, not through a link (from the listing when it says)."""
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False


def listed(seen: dict[str, Listing], folder: str) -> Listing | None:
    """A folder's listing as a `walk` of this run saw it (None: not walked, or not listable)."""
    return seen.get(folder)


def not_a_link(listing: Listing | None, name: str) -> bool:
    """Whether a folder's walk listing holds `name`, spelled so, as a folder or a regular file that
    is no symlink: what an `lstat` of it would say without one (the run cache signs the listing,
    types included)."""
    return plain_file(listing, name) or plain_folder(listing, name)


def plain_file(listing: Listing | None, name: str) -> bool:
    """Whether a folder's walk listing holds `name`, spelled so, as a regular file that is no symlink."""
    return listing is not None and name in listing[1] and name not in listing[2]


def plain_folder(listing: Listing | None, name: str) -> bool:
    """Whether a folder's walk listing holds `name`, spelled so, as a folder that is no symlink."""
    return listing is not None and name in listing[0] and name not in listing[2]


def surely_absent(listing: Listing | None, names: tuple[str, ...]) -> frozenset[str]:
    """Which of `names` a folder's walk listing shows are not there, even on a disk that matches
    names without regard to case: no entry's name is one of them case-folded (none when the folder
    was not walked)."""
    if listing is None:
        return frozenset()
    folded = {entry.casefold() for part in (listing[0], listing[1]) for entry in part}
    return frozenset(name for name in names if name.casefold() not in folded)
