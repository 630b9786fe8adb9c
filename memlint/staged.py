"""`memlint check --staged`: check what the commit holds, not the working tree.

The files come from the git index (`git ls-files -s`, `git cat-file --batch`), read through the same
in-memory overlay a fix uses (`Workspace.put_bytes`, `Workspace.remove`): a file staged in another
version than the working tree's is read as staged, a file deleted from the working tree but still
staged is present, and a file that is untracked or ignored (only in the working tree) is missing, so
an include of it is reported as the commit would break it. Files inside an ignored folder (listed by
git as the folder alone) are the exception: they are still read from the working tree.

When the index differs from HEAD (a commit is being made), a finding is kept when its file is one
the commit changes, or when HEAD's tree does not have it (the commit changed what loads the file or
what it includes); findings the commit does not change are left to a full check. With nothing staged
(`pre-commit run --all-files`, CI on a checkout) every finding is kept.

git is run as a program with the caller's environment (`GIT_INDEX_FILE` included: `git commit -a`
and `git commit PATH` stage into a temporary index), with the file-system monitor turned off, no
optional locks and no filters, diff drivers or hooks: nothing configured in the checked repository
runs."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable
from pathlib import Path

from memlint.errors import MemlintError
from memlint.model.loading.workspace import Workspace
from memlint.records import dataclass
from memlint.violations import Violation

_GIT = ("git", "-c", "core.fsmonitor=false", "-c", "core.quotePath=false")
_REGULAR = ("100644", "100755")  # file modes whose blob is the file's bytes (not a symlink or submodule)


def _git(cwd: str, *args: str, stdin: bytes | None = None, check: bool = True) -> bytes | None:
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}
    try:
        done = subprocess.run(_GIT + args, cwd=cwd, env=env, input=stdin, capture_output=True, check=False)
    except FileNotFoundError:
        raise MemlintError("--staged reads the git index and needs git, which is not installed") from None
    except OSError as exc:
        raise MemlintError(f"--staged: cannot run git: {exc.strerror}") from None
    if done.returncode != 0:
        if not check:
            return None
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise MemlintError(f"--staged: git {args[0]} failed in {cwd}: {message[-1] if message else done.returncode}")
    return done.stdout


def _entries(data: bytes, tree: bool) -> dict[str, tuple[str, str]]:
    """`path -> (mode, object id)` from `ls-files -s -z` ("mode oid stage") or, with `tree`, from
    `ls-tree -r -z` ("mode type oid"). Of a conflicted path, the stage 0 entry, else ours (2)."""
    out: dict[str, tuple[str, str]] = {}
    for record in data.split(b"\0"):
        head, tab, name = record.partition(b"\t")
        parts = head.decode("ascii", "replace").split()
        if not tab or len(parts) != 3:
            continue
        path = os.fsdecode(name)
        mode, oid, stage = (parts[0], parts[2], "0") if tree else (parts[0], parts[1], parts[2])
        if stage == "0" or (stage == "2" and path not in out):
            out[path] = (mode, oid)
    return out


def _names(data: bytes | None) -> list[str]:
    return [os.fsdecode(n) for n in (data or b"").split(b"\0") if n]


@dataclass(frozen=True)
class GitView:
    """The index, HEAD and the working tree's differences from the index, of one repository."""

    root: str  # the repository's top folder, spelled as the paths of the run spell it
    index: dict[str, tuple[str, str]]
    head: dict[str, tuple[str, str]] | None  # None: no commit yet
    dirty: frozenset[str]  # tracked files whose working-tree version differs from the index (or is gone)
    untracked: tuple[str, ...]  # files only in the working tree (ignored ones included)

    @property
    def changed(self) -> frozenset[str]:
        """The paths the commit adds, changes or deletes (relative, `/`-separated)."""
        head = self.head or {}
        return frozenset(p for p in set(self.index) | set(head) if self.index.get(p) != head.get(p))

    def apply(self, workspace: Workspace, state: str) -> None:
        """Make `workspace` read the repository as the index (`state="index"`) or HEAD has it."""
        wanted = self.index if state == "index" else (self.head or {})
        puts = [p for p, (mode, oid) in wanted.items() if mode in _REGULAR
                and (p in self.dirty or self.index.get(p) != (mode, oid))]
        blobs = self._blobs([wanted[p][1] for p in puts])
        for path in puts:
            workspace.put_bytes(os.path.join(self.root, path), blobs[wanted[path][1]])
        gone = [p for p in self.index if p not in wanted] + list(self.untracked)
        for path in gone:
            if os.path.lexists(os.path.join(self.root, path)):
                workspace.remove(os.path.join(self.root, path))

    def _blobs(self, oids: list[str]) -> dict[str, bytes]:
        unique = list(dict.fromkeys(oids))
        if not unique:
            return {}
        data = _git(self.root, "cat-file", "--batch", stdin="".join(f"{o}\n" for o in unique).encode("ascii"))
        out: dict[str, bytes] = {}
        at = 0
        assert data is not None
        while at < len(data):
            end = data.index(b"\n", at)
            header = data[at:end].decode("ascii").split()
            at = end + 1
            if len(header) != 3:  # "<oid> missing": a corrupt index; the file reads as empty
                out[header[0]] = b""
                continue
            size = int(header[2])
            out[header[0]] = data[at : at + size]
            at += size + 1
        return out

    def committed(self, now: Iterable[Violation], before: Iterable[Violation]) -> list[Violation]:
        """The findings of the index (`now`) the commit is answerable for: on a file it changes, or
        not found in HEAD's tree (`before`)."""
        changed = {os.path.join(self.root, p) for p in self.changed}
        seen = {_key(v) for v in before}
        return [v for v in now if os.path.abspath(v.path) in changed or _key(v) not in seen]


    def notes(self, violations: Iterable[Violation]) -> tuple[str, ...]:
        """A note naming the files only in the working tree that the findings mention (an include
        target that exists on disk but is reported missing puzzles whoever reads it)."""
        texts = [v.message for v in violations] + [v.detail for v in violations if v.detail]
        named = [p for p in self.untracked if any(f"`{p}`" in text for text in texts)]
        if not named:
            return ()
        shown = ", ".join(named[:5]) + (f" and {len(named) - 5} more" if len(named) > 5 else "")
        return ((f"--staged: {shown} {'is' if len(named) == 1 else 'are'} only in the working tree (untracked or "
                 "ignored), so not in the commit: `git add` what the commit needs"),)


def _key(v: Violation) -> tuple[str, str, int, int, str]:
    return (v.code, os.path.abspath(v.path), v.line, v.column, v.message)


def read_view(target: Path) -> GitView:
    """The git view of the repository holding `target` (a file or folder)."""
    folder = target if target.is_dir() else target.parent
    cwd = os.path.abspath(folder)
    prefix = _git(cwd, "rev-parse", "--show-prefix", check=False)
    if prefix is None:
        raise MemlintError(f"--staged: {target} is not in a git repository (it checks what a commit holds)")
    root = cwd
    for _ in Path(prefix.decode("utf-8", "replace").strip()).parts:
        root = os.path.dirname(root)
    index = _entries(_git(root, "ls-files", "-s", "-z") or b"", tree=False)
    listed = _git(root, "ls-tree", "-r", "-z", "--full-tree", "HEAD", check=False)
    head = None if listed is None else _entries(listed, tree=True)
    dirty = frozenset(_names(_git(root, "diff-files", "-z", "--name-only", "--no-ext-diff")))
    untracked = _names(_git(root, "ls-files", "-z", "--others", "--exclude-standard"))
    ignored = _names(_git(root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"))
    untracked += [p for p in ignored if not p.endswith("/")]  # an ignored folder: see the module's docstring
    return GitView(root, index, head, dirty, tuple(untracked))
