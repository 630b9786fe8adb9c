"""Which files under the checked paths are memory files, and what role each plays."""

from __future__ import annotations

import glob
import os
import re
from pathlib import Path
from typing import Literal

from memlint.model.loading.loader import PRUNED_FOLDERS
from memlint.model.loading.workspace import Listing, walk
from memlint.model.source.ignorefiles import IgnoreRules
from memlint.model.source.pathorder import path_order
from memlint.records import dataclass

Role = Literal[
    "claude-md",  # CLAUDE.md or .claude/CLAUDE.md
    "local",  # CLAUDE.local.md
    "rule",  # any file under a .claude/rules folder (the `rule` rules decide if it loads)
    "misnamed",  # claude.md, Claude.md, CLAUDE.MD, CLAUDE-local.md ...: never loaded
    "agents",  # AGENTS.md: Claude Code does not read it
    "automem-index",  # MEMORY.md of an auto-memory or agent-memory folder
    "topic",  # a topic file beside a MEMORY.md
    "session-notes",  # a session-memory summary.md
]

_MISNAMED = {"claude.md", "claude.local.md", "claude-local.md", "claude_local.md", "claude.markdown"}


@dataclass(frozen=True, slots=True)
class MemoryFile:
    """A memory file found under the checked paths, and what it is (its role)."""

    path: Path
    role: Role


# The names `classify` gives a role outside a rules folder (with `_MISNAMED`, lower-cased).
_ROLE_NAMES = frozenset({"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "MEMORY.md", "summary.md"})


def _rules_folder(parts: tuple[str, ...]) -> bool:
    """Whether the files of a folder with these path parts are under a `.claude/rules` folder (as
    `classify` decides it: the last `.claude` followed by `rules`)."""
    if ".claude" not in parts:
        return False
    i = len(parts) - 1 - parts[::-1].index(".claude")
    return parts[i + 1 : i + 2] == ("rules",)


def classify(path: Path) -> Role | None:
    """The role of a file by its path alone, or None when it is no memory file."""
    return role_in_folder(path.name, _rules_folder(path.parent.parts), path.parent.name)


def role_in_folder(name: str, in_rules: bool, folder_name: str) -> Role | None:
    """The role of the file `name` in a folder, where `in_rules` is `_rules_folder(folder.parts)` and
    `folder_name` is `folder.name` (discovery knows both once per folder: no Path per file). A file
    named `.claude` is the last `.claude` of its own path, so it is no rule even in a rules folder."""
    if in_rules and name != ".claude":
        return "rule"
    if name == "CLAUDE.md":
        return "claude-md"
    if name == "CLAUDE.local.md":
        return "local"
    if name.lower() in _MISNAMED:
        return "misnamed"
    if name == "AGENTS.md":
        return "agents"
    if name == "MEMORY.md":
        return "automem-index"
    if name == "summary.md" and folder_name == "session-memory":
        return "session-notes"
    return None


# Private memory that Claude Code loads and that projects gitignore on purpose: still checked.
PRIVATE_MEMORY = frozenset({"CLAUDE.local.md", ".claude"})


def discover(roots: list[Path], extra_memory_dirs: list[Path] | None = None,
             respect_gitignore: bool = True, seen: dict[str, Listing] | None = None) -> list[MemoryFile]:
    """Memory files under `roots` (files or folders), sorted by path; topic files beside every
    MEMORY.md found or named. With `respect_gitignore`, paths ignored by `.gitignore` or `.ignore`
    files are skipped, except `CLAUDE.local.md` and `.claude/` folders (private memory that Claude Code
    loads); a file named as a root is always checked. `seen`: a run's `Workspace.walked`, where the
    walk leaves each folder's listing (see `workspace.walk`)."""
    found: dict[Path, Role] = {}
    memory_dirs: set[Path] = set(extra_memory_dirs or [])
    for root in roots:
        if named_file(root):
            role = classify(root.resolve()) or ("claude-md" if root.suffix.lower() == ".md" else None)
            if role:
                found[root.absolute()] = role
            continue
        top = root.absolute()
        # folders as text (a `Path` per subfolder was most of discovery's time): `str(Path(x).absolute())`
        # of a folder the walk lists is its parent's text joined with its name
        rules_at: dict[str, IgnoreRules | None] = {
            str(top): IgnoreRules.for_root(root) if respect_gitignore else None}
        for folder, subfolders, names in walk(root, seen):
            here = Path(folder).absolute()
            here_text = str(here)
            rules = rules_at.pop(here_text, None)
            if rules is not None and ".claude" not in here.parts:
                rules = rules.descend(here, names) if here != top else rules
            else:
                rules = None  # inside .claude/, or gitignore not respected
            if rules is not None and not rules.layers:
                ignoring: IgnoreRules | None = None  # no patterns in force here: nothing to ask
            else:
                ignoring = rules
            kept = []
            for d in sorted(subfolders):
                if d in PRUNED_FOLDERS:
                    continue
                if ignoring is not None and d not in PRIVATE_MEMORY and ignoring.ignored(here / d, is_dir=True):
                    continue
                kept.append(d)
                rules_at[os.path.join(here_text, d)] = rules
            subfolders[:] = kept
            if here.parent.name in ("agent-memory", "agent-memory-local") and here.parent.parent.name == ".claude":
                memory_dirs.add(here)  # an agent's memory folder, with or without its MEMORY.md yet
            in_rules = _rules_folder(here.parts)
            for name in names:
                if not in_rules and name not in _ROLE_NAMES and name.lower() not in _MISNAMED:
                    continue  # `classify` would say None: no Path made for the tree's other files
                role = role_in_folder(name, in_rules, here.name)
                if role is None:
                    continue
                path = here / name
                if ignoring is not None and name not in PRIVATE_MEMORY and ignoring.ignored(path, is_dir=False):
                    continue
                found[path] = role
                if role == "automem-index":
                    memory_dirs.add(here)
    for memory_dir in memory_dirs:
        index = memory_dir / "MEMORY.md"
        if index.is_file():
            found.setdefault(index.absolute(), "automem-index")
        try:
            with os.scandir(memory_dir) as listing:
                entries = sorted((entry.name, entry) for entry in listing)
        except OSError:
            continue
        for name, entry in entries:
            if name.endswith(".md") and name != "MEMORY.md":  # the name first: a Path only for a .md file
                path = (memory_dir / name).absolute()
                if _is_file(entry, path):
                    found.setdefault(path, "topic")
    return [MemoryFile(p, found[p]) for p in sorted(found, key=path_order)]


def named_file(root: Path) -> bool:
    """A path named to check that is no folder: a file, or what stands in its name's place (a FIFO,
    a device, a link to nothing), which is then reported as the file it is not (ML903)."""
    return root.is_file() or (os.path.lexists(root) and not root.is_dir())


def _is_file(entry: os.DirEntry[str], path: Path) -> bool:
    """`path.is_file()` for a listed entry: the listing's file type answers without a `stat` (it
    follows a symlink as `is_file` does); an error (a symlink loop, a file gone since the listing)
    is left to `Path.is_file`, which says False or raises exactly as before."""
    try:
        return entry.is_file()
    except OSError:
        return path.is_file()


def session_notes(config_root: Path, patterns: tuple[str, ...], roots: tuple[Path, ...],
                  project_dirs: list[Path]) -> list[Path]:
    """Session-notes files named in config (globs relative to the config's folder, kept when under a
    checked root) and Claude Code's `<project dir>/<session>/session-memory/summary.md` under HOME."""
    found: set[Path] = set()
    for path in glob_in(config_root.absolute(), patterns):
        if any(path == r or r in path.parents for r in roots):
            found.add(path)
    for project in project_dirs:
        for name in glob.glob(os.path.join(glob.escape(str(project)), "*", "session-memory", "summary.md")):
            found.add(Path(os.path.abspath(name)))
    return sorted(found)


def glob_in(base: Path, patterns: tuple[str, ...]) -> list[Path]:
    """Files below `base` matching any glob (`*`, `?`, `[...]`, `**`), relative to `base`: matched
    by walking `base` alone (pruned like the loader, symlinked folders not entered), never from `/`.
    An absolute pattern counts only for the part of it inside `base`."""
    regexes = []
    for pattern in patterns:
        if os.path.isabs(pattern):
            prefix = str(base).rstrip("/") + "/"
            if not pattern.startswith(prefix):
                continue
            pattern = pattern[len(prefix):]
        regexes.append(_glob_regex(pattern))
    if not regexes:
        return []
    out = []
    for folder, subfolders, names in walk(base):
        subfolders[:] = sorted(d for d in subfolders if d not in PRUNED_FOLDERS)
        relative = os.path.relpath(folder, base)
        prefix = "" if relative == "." else relative.replace(os.sep, "/") + "/"
        for name in names:
            if any(r.fullmatch(prefix + name) for r in regexes):
                out.append(Path(folder, name).absolute())
    return out


def _glob_regex(pattern: str) -> re.Pattern[str]:
    out, i = [], 0
    pattern = pattern.removeprefix("./")
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and "]" in pattern[i + 2 :]:
            end = pattern.index("]", i + 2)
            body = pattern[i + 1 : end].replace("\\", "\\\\")
            out.append("[^" + body[1:] + "]" if body.startswith("!") else "[" + body + "]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))
