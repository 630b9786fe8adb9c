"""What Claude Code loads later, not at start: memory files in folders below the start folder and
conditional rules, attached when Claude reads a file (spec §1 and §4; C05 nested AGENTS.md; C17 how
they arrive). `defer_nested` lists them for `context` (the loader calls it at the end of a loading);
memlint.model.loading.reads answers what one Read attaches. This module is below the loader: it knows a
loading only by what it asks of one (`Loading`)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, cast

from memlint.model.cli_js.globs import picomatch
from memlint.model.loading.chain import Parts
from memlint.model.loading.facts import Facts
from memlint.model.loading.loaded import DeferReason, Deferred, Kind
from memlint.model.loading.settings import Mode, Settings
from memlint.model.loading.walkpaths import PRUNED_FOLDERS
from memlint.model.loading.workspace import Workspace, listed, walk
from memlint.model.release import Release


class Loading(Protocol):
    """What the walk below the start asks of a loading (memlint.model.loading.loader's loader)."""

    start: Path
    workspace: Workspace
    deferred: Parts[Deferred]
    agents_mode: Mode | None
    claude_md_at_start: bool
    settings: Settings
    release: Release
    excludes: tuple[str, ...]
    step_tag: int  # what a step's outcome depends on besides the step: home, excludes, deny rules, release, sources

    def facts(self, path: str) -> Facts: ...

    def refused(self, path: str, kind: Kind, absent: bool = False) -> tuple[str, str] | None: ...


FAMILY_NAMES = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")


def would_load(loader: Loading, path: str) -> bool:
    """C01/C05: whether the AGENTS.md plugin, reading a folder's CLAUDE.md, .claude/CLAUDE.md or
    CLAUDE.local.md afresh as a project file, finds one that would load on its own: not excluded, not
    refused, readable and not empty (`rr26`, `rr27` in tests/differential)."""
    if (loader.excludes and picomatch(path, loader.excludes)) or loader.refused(path, "project") is not None:
        return False
    return loader.workspace.document(path).readable and loader.facts(path).skip is None


def nested_agents(loader: Loading, folder: Path | str, path: Path,
                  has_family: Callable[[str], bool] | None = None) -> bool:
    """C05: a folder's AGENTS files arrive when Claude reads a file there (fallback mode: only when
    no CLAUDE.md family file loaded at start and the folder has none: `has_family` says whether a
    folder's CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md counts, by default one that would load).
    `folder` may be text."""
    if loader.facts(str(path)).skip is not None:  # missing, empty, unreadable: nothing arrives
        return False
    if loader.agents_mode == "claude-md-and-agents-md":
        return True
    if loader.agents_mode != "claude-md-or-agents-md" or loader.claude_md_at_start:
        return False
    counts = has_family if has_family is not None else (lambda path: would_load(loader, path))
    return not any(counts(os.path.join(str(folder), name)) for name in FAMILY_NAMES)


def defer_nested(loader: Loading) -> None:
    """Memory files in folders below the start: loaded only when Claude reads a file there. A
    folder's `.claude/CLAUDE.md` belongs to that folder (the start folder's own is loaded, never deferred).

    Folders are visited as `os.walk` would, top-down with sorted subfolders. Below the start, only
    the start's own `.claude/` folder is seen differently from each start folder; every other
    subfolder's deferred files are listed once per run (`_subtree`) and shared by all the start
    folders above it, so a deep tree costs its folders, not start folders times folders."""
    start = loader.start
    listing = _listing(loader.workspace, str(start))
    if listing is None:
        return
    for name in listing[0]:
        child = os.path.join(str(start), name)
        if name == ".claude":
            loader.deferred.extend(_walk_own(loader, child, start))
            continue
        shared, linked = _subtree(loader, child)
        if linked:  # a linked rules folder below: followed only to a target inside this start folder
            loader.deferred.extend(_walk_linked(loader, child))
        else:
            loader.deferred.share(shared)


def _listing(workspace: Workspace, folder: str) -> tuple[list[str], list[str], list[str]] | None:
    """(subfolders the walk enters, other names, subfolders that are links) of `folder`, as
    `workspace.walk` sees it with pruned and sorted subfolders; listed once per run. None when it
    cannot be listed."""
    key = ("deferred.listing", folder)
    if key in workspace.memo:
        known = workspace.memo[key]
        return known  # type: ignore[return-value]
    found: tuple[list[str], list[str], list[str]] | None = None
    known = listed(workspace.walked, folder)  # discovery walked most folders already
    if known is None:  # list it with the same walk, which keeps the listing for `listed`
        next(walk(folder, workspace.walked), None)
        known = listed(workspace.walked, folder)
    if known is not None:
        subfolders, names, odd = known  # an odd subfolder is a symlink: not entered
        found = ([d for d in sorted(subfolders) if d not in PRUNED_FOLDERS and d not in odd], list(names),
                 sorted(d for d in subfolders if d in odd))
    workspace.memo[key] = found
    return found


def _walk_own(loader: Loading, top: str, start: Path | None) -> list[Deferred]:
    """The deferred files of `top` and the folders below it, walked afresh for `start`."""
    out: list[Deferred] = []
    stack = [top]
    while stack:
        folder = stack.pop()
        listing = _listing(loader.workspace, folder)
        if listing is None:
            continue
        subfolders, names, linked = listing
        out += _own(loader, folder, names, linked, start, _follow(loader))
        stack.extend(os.path.join(folder, d) for d in reversed(subfolders))
    return out


def _walk_linked(loader: Loading, top: str) -> list[Deferred]:
    """The deferred files of `top` and the folders below it for this start folder, where a nested
    rules folder below `top` is a link: the folders on the way to one are walked afresh, the rest
    taken from `_subtree`."""
    out: list[Deferred] = []
    stack = [top]
    while stack:
        folder = stack.pop()
        shared, linked = _subtree(loader, folder)
        listing = _listing(loader.workspace, folder)
        if not linked or listing is None:
            out += shared
            continue
        subfolders, names, links = listing
        out += _own(loader, folder, names, links, None, _follow(loader))
        stack.extend(os.path.join(folder, d) for d in reversed(subfolders))
    return out


def _subtree(loader: Loading, top: str) -> tuple[tuple[Deferred, ...], bool]:
    """The deferred files of `top` and every folder below it, seen from any start folder above
    `top`, in walk order; computed once per folder, AGENTS.md mode and run (bottom-up, without
    recursion: a tree may be 10,000 folders deep). With it, whether a nested rules folder below is
    a link: then what is deferred depends on the start folder (where the link leads), and the
    listing, which leaves those rules out, is not the answer."""
    memo = loader.workspace.memo
    # in fallback mode a nested AGENTS.md is listed by what would load in its folder, which the start folder's
    # excludes and deny rules decide (`would_load`): starts with other settings share nothing then
    fallback = loader.agents_mode == "claude-md-or-agents-md" and not loader.claude_md_at_start
    mode = (loader.agents_mode, loader.claude_md_at_start, loader.settings.sources, loader.step_tag if fallback else None)

    def key(folder: str) -> tuple[object, ...]:
        return ("deferred.subtree", folder, mode)

    met = [0]  # linked rules folders met so far: left for each start folder to follow (`_walk_linked`)

    def noted(reached: str) -> list[Deferred]:
        met[0] += 1
        return []

    stack: list[tuple[str, bool]] = [(top, False)]
    while stack:
        folder, expanded = stack.pop()
        if key(folder) in memo:
            continue
        listing = _listing(loader.workspace, folder)
        if listing is None:
            memo[key(folder)] = ((), False)
            continue
        subfolders, names, linked = listing
        children = [os.path.join(folder, d) for d in subfolders]
        if not expanded:
            stack.append((folder, True))
            stack.extend((child, False) for child in children if key(child) not in memo)
            continue
        before = met[0]
        out = _own(loader, folder, names, linked, None, noted)
        has_links = met[0] > before
        for child in children:
            below, child_links = cast("tuple[tuple[Deferred, ...], bool]", memo[key(child)])
            out.extend(below)
            has_links = has_links or child_links
        memo[key(folder)] = (tuple(out), has_links)
    return cast("tuple[tuple[Deferred, ...], bool]", memo[key(top)])


def _own(loader: Loading, folder: str, names: list[str], linked: list[str], start: Path | None,
         follow: Callable[[str], list[Deferred]]) -> list[Deferred]:
    """The deferred files of one folder below the start (`start` None: a start folder above the
    folder's `.claude/` ancestry, for which every file here is deferred; `linked`: its subfolders
    that are links; `follow` lists the rules of a nested rules folder, or a folder in one, that is a
    link, by the path reached). Paths are handled as strings: a folder 4,000 levels deep would cost a `Path`
    parse per level."""
    out: list[Deferred] = []
    shown = str(start) if start is not None else None
    sources = loader.settings.sources  # `--setting-sources`: nested files of a source left out never arrive
    project, local = "project" in sources, "local" in sources
    if os.path.basename(folder) == ".claude":
        parent = os.path.dirname(folder)
        if project and parent != shown and "CLAUDE.md" in names:
            out.append(Deferred(Path(folder, "CLAUDE.md"), "nested-claude-md", "project"))
        if parent != shown and "AGENTS.md" in names:
            agents = Path(folder, "AGENTS.md")  # one Path for the test and the deferred file
            if nested_agents(loader, parent, agents):
                out.append(Deferred(agents, "nested-agents-md", "project"))
        if parent != shown and "rules" in linked and (project or not loader.release.conditional_rules_follow_sources):
            out += follow(os.path.join(folder, "rules"))
        return out
    if project and "CLAUDE.md" in names:
        out.append(Deferred(Path(folder, "CLAUDE.md"), "nested-claude-md", "project"))
    if local and "CLAUDE.local.md" in names:
        out.append(Deferred(Path(folder, "CLAUDE.local.md"), "nested-claude-md", "local"))
    if "AGENTS.md" in names:
        agents = Path(folder, "AGENTS.md")
        if nested_agents(loader, folder, agents):
            out.append(Deferred(agents, "nested-agents-md", "project"))
    # without the project source, releases before `conditional_rules_follow_sources` still attach a
    # nested folder's rules on a Read (rr16_read_nested_rules_without_project_source)
    rules = project or not loader.release.conditional_rules_follow_sources
    if rules and "/.claude/" in folder and "/rules" in folder:
        segments = folder.split("/")
        anchor = segments.index(".claude")
        if "rules" in segments and segments[anchor + 1 : anchor + 2] == ["rules"] \
                and ("/".join(segments[:anchor]) or "/") != shown:
            out += [_rule(loader, os.path.join(folder, name)) for name in sorted(names) if name.endswith(".md")]
            for name in linked:
                out += follow(os.path.join(folder, name))
    return out


def _follow(loader: Loading) -> Callable[[str], list[Deferred]]:
    """How one start folder follows a linked nested rules folder (`_own`'s `follow`)."""
    return lambda reached: _linked_rules(loader, reached, set())


def _linked_rules(loader: Loading, reached: str, visited: set[str]) -> list[Deferred]:
    """The rules of a nested rules folder (or a folder in one) that is a link, by the paths the walk
    reaches them by: Claude Code follows the link when Claude reads a file below the folder, and
    matches a conditional rule's `paths:` from the folder that holds `.claude/`
    (`rr20_read_linked_rules_folder_conditional_rule`). Only a target inside the start folder is
    followed here (one outside is external: its rules do not arrive unless approved)."""
    target = loader.workspace.realpath(reached)[0]
    start = str(loader.start).rstrip("/") + "/"
    if target in visited or not target.startswith(start):
        return []
    visited.add(target)
    out: list[Deferred] = []
    for name, is_dir, is_file in sorted(loader.workspace.listing(target) or ()):
        path = os.path.join(reached, name)
        if is_dir:
            out += _linked_rules(loader, path, visited)
        elif is_file and name.endswith(".md"):
            out.append(_rule(loader, path))
    return out


def _rule(loader: Loading, path: str) -> Deferred:
    """A nested folder's rule: conditional when it has `paths:`, else it arrives with its folder."""
    doc = loader.workspace.document(Path(path))
    globs = doc.rule_globs if doc.readable else None
    reason: DeferReason = "conditional-rule" if globs else "nested-claude-md"
    return Deferred(Path(path), reason, "project", tuple(globs or ()))
