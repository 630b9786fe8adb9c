"""The git root above a start folder and the project root Claude Code keys auto memory by.

Observed with the real CLI on 2.1.197 and 2.1.332 (tests/differential/cases_layouts.py, FINDINGS.md):

- the git root is the nearest folder at or above the start folder holding a `.git` folder or file;
- the project root (auto memory, external-include approval) is that root's *canonical* root: for a
  worktree (a `.git` file `gitdir: <main>/.git/worktrees/<name>`), the main repository's folder, but
  only when git's links agree: the worktree's git folder lies in `<common dir>/worktrees/`, and its
  `gitdir` file points back at this worktree's `.git` (a worktree moved by hand and not repaired keeps
  its own folder; a relative link back, as git 2.48+ writes with `worktree.useRelativePaths`, is read
  from the worktree's git folder, by 2.1.197 from the start folder: release switch
  `worktree_relative_links`). When the common dir is not named `.git` (the bare layout: `.bare` + a
  `.git` file `gitdir: ./.bare`) the common dir itself is the project root (`.../proj/.bare`); a
  submodule's git folder has no `commondir`, so a submodule is its own project root;
- a worktree nested inside its main repository (`.claude/worktrees/<name>/`, as `claude -w` makes
  them) skips the main repository's checked-in files (CLAUDE.md, .claude/CLAUDE.md, .claude/rules)
  in every folder from the main root down to the worktree root (exclusive): see `nested_worktree`.
"""

from __future__ import annotations

import errno
import os
import stat
import unicodedata
from collections.abc import Callable
from itertools import chain
from pathlib import Path

from memlint.model.source.files import read_file
from memlint.records import dataclass

# The errors `Path.is_dir` and `Path.is_file` take for "not there" (pathlib's `_IGNORED_ERRNOS`);
# any other error of the stat is raised, as they raise it.
_ABSENT_ERRNOS = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)


@dataclass(frozen=True)
class GitRoots:
    """The git root above a start folder and its canonical (project) root."""

    git_root: Path
    canonical: Path

    @property
    def nested_worktree(self) -> bool:
        """A worktree inside its main repository's folder (not the main repository itself)."""
        return self.git_root != self.canonical and _inside(str(self.git_root), str(self.canonical))

    def skips_project_files(self, folder: Path) -> bool:
        """Claude Code does not load the checked-in files of `folder` (the main repository's copies of
        what the nested worktree checks out itself); CLAUDE.local.md still loads."""
        text = str(folder)
        return self.nested_worktree and _inside(text, str(self.canonical)) and not _inside(text, str(self.git_root))


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def git_root(start: Path, memo: dict[object, object] | None = None,
             no_marker: Callable[[str], bool] | None = None) -> Path | None:
    """The nearest folder at or above `start` holding a `.git` folder or file, None outside git.
    With `memo` (a run's), each folder's answer is kept: start folders share their ancestors'.
    `no_marker(folder)`: True when the run knows already that the folder holds no `.git` (its
    listing shows none), so it is not looked for."""
    memo = {} if memo is None else memo
    visited: list[Path] = []
    found: Path | None = None
    for folder in chain((start,), start.parents):  # lazily: the parent's answer is usually known
        key = ("git-root-above", str(folder))
        if key in memo:
            known = memo[key]
            found = known if isinstance(known, Path) else None
            break
        visited.append(folder)
        text = str(folder)
        if (no_marker is None or not no_marker(text)) and _marker_kind(os.path.join(text, ".git")) is not None:
            found = folder
            break
    for folder in visited:
        memo[("git-root-above", str(folder))] = found if found is not None else False
    return found


def git_roots(start: Path, memo: dict[object, object] | None = None, relative_links: bool = True,
              no_marker: Callable[[str], bool] | None = None) -> GitRoots | None:
    """The git root at or above `start` with its canonical root, None outside git (`relative_links`:
    the release's `worktree_relative_links`; `no_marker` as for `git_root`)."""
    memo = {} if memo is None else memo
    root = git_root(start, memo, no_marker)
    if root is None:
        return None
    key = ("canonical-root", str(root), relative_links)
    known = memo.get(key)
    if isinstance(known, GitRoots):
        return known
    canonical, per_start = canonical_root(root, None if relative_links else start)
    found = GitRoots(root, canonical)
    if not per_start:  # a relative link back read from the start folder: the answer is this start's own
        memo[key] = found
    return found


def find_project_root(start: Path, memo: dict[object, object] | None = None, relative_links: bool = True) -> Path:
    """The canonical git root above `start` (a worktree maps to its main repository), else `start`."""
    roots = git_roots(start, memo, relative_links)
    return roots.canonical if roots is not None else start


def _marker_kind(marker: str) -> str | None:
    """"dir" or "file" for what `marker` is (symlinks followed), else None: `Path.is_dir()` then
    `Path.is_file()` in one `stat` of a text path (once per start folder's ancestor, unshared)."""
    try:
        mode = os.stat(marker).st_mode
    except OSError as exc:
        if exc.errno in _ABSENT_ERRNOS:
            return None
        raise
    except ValueError:  # an embedded NUL: pathlib says neither
        return None
    return "dir" if stat.S_ISDIR(mode) else "file" if stat.S_ISREG(mode) else None


def _text(path: str) -> str | None:
    data = read_file(path, 65_536)
    return data.decode("utf-8", errors="replace").strip() if isinstance(data, bytes) else None


def canonical_root(git_root: Path, start: Path | None = None) -> tuple[Path, bool]:
    """The main repository's folder of the worktree at `git_root` (see the module docstring), or the
    git root itself when it is no worktree or git's links do not agree; and whether the answer holds
    for `start` only. A relative link back is read from the worktree's git folder; with `start`
    (releases before `worktree_relative_links`), from the start folder, as those releases did."""
    root = str(git_root)
    marker = os.path.join(root, ".git")
    if _marker_kind(marker) != "file":
        return git_root, False
    content = _text(marker)
    if content is None or not content.startswith("gitdir:"):
        return git_root, False
    gitdir = os.path.normpath(os.path.join(root, content[len("gitdir:"):].strip()))
    common = _text(os.path.join(gitdir, "commondir"))
    if not common:
        return git_root, False  # a submodule's or a bare repository's own git folder: no worktree
    common_dir = os.path.normpath(os.path.join(gitdir, common))
    if os.path.dirname(gitdir) != os.path.join(common_dir, "worktrees"):
        return git_root, False
    back = _text(os.path.join(gitdir, "gitdir"))
    if not back:
        return git_root, False
    per_start = start is not None and not os.path.isabs(back)
    try:
        linked = os.path.realpath(os.path.join(str(start) if start is not None else gitdir, back), strict=True)
    except (OSError, ValueError):
        return git_root, per_start
    if linked != os.path.join(os.path.realpath(root), ".git"):
        return git_root, per_start  # moved by hand and not repaired: git's link points at the old place
    main = common_dir if os.path.basename(common_dir) != ".git" else os.path.dirname(common_dir)
    return Path(unicodedata.normalize("NFC", main)), per_start
