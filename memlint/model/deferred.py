"""What Claude Code loads later, not at start: memory files in folders below the start folder and
conditional rules, attached when Claude reads a file (spec §1 and §4; C05 nested AGENTS.md; C17 how
they arrive). `defer_nested` lists them for `context`; `on_read` answers what one Read attaches."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from memlint.model.globs import rule_matches
from memlint.model.loader import (
    PRUNED_FOLDERS,
    DeferReason,
    Deferred,
    LoadedContext,
    LoadedFile,
    _Loader,
    agent_texts,
)
from memlint.model.replay import _within
from memlint.model.settings import Launch
from memlint.model.workspace import Workspace, listed, walk
from memlint.records import dataclass


def nested_agents(loader: _Loader, folder: Path | str, path: Path) -> bool:
    """C05: a folder's AGENTS files arrive when Claude reads a file there (fallback mode: only when
    no CLAUDE.md family file loaded at start and the folder has no CLAUDE.md). `folder` may be text:
    it is made a Path only in fallback mode."""
    if loader.facts(str(path)).skip is not None:  # missing, empty, unreadable: nothing arrives
        return False
    if loader.agents_mode == "claude-md-and-agents-md":
        return True
    if loader.agents_mode != "claude-md-or-agents-md" or loader.claude_md_at_start:
        return False
    folder = Path(folder)
    return not any(loader.workspace.document(p).readable for p in (folder / "CLAUDE.md", folder / ".claude" / "CLAUDE.md"))


def defer_nested(loader: _Loader) -> None:
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
        else:
            loader.deferred.share(_subtree(loader, child))


def _listing(workspace: Workspace, folder: str) -> tuple[list[str], list[str]] | None:
    """(subfolders the walk enters, other names) of `folder`, as `workspace.walk` sees it with
    pruned and sorted subfolders; listed once per run. None when it cannot be listed."""
    key = ("deferred.listing", folder)
    if key in workspace.memo:
        known = workspace.memo[key]
        return known  # type: ignore[return-value]
    found: tuple[list[str], list[str]] | None = None
    known = listed(workspace.memo, folder)  # discovery walked most folders already
    if known is None:  # list it with the same walk, which keeps the listing for `listed`
        next(walk(folder, workspace.memo), None)
        known = listed(workspace.memo, folder)
    if known is not None:
        subfolders, names, links = known
        found = ([d for d in sorted(subfolders) if d not in PRUNED_FOLDERS and d not in links], list(names))
    workspace.memo[key] = found
    return found


def _walk_own(loader: _Loader, top: str, start: Path | None) -> list[Deferred]:
    """The deferred files of `top` and the folders below it, walked afresh for `start`."""
    out: list[Deferred] = []
    stack = [top]
    while stack:
        folder = stack.pop()
        listing = _listing(loader.workspace, folder)
        if listing is None:
            continue
        subfolders, names = listing
        out += _own(loader, folder, names, start)
        stack.extend(os.path.join(folder, d) for d in reversed(subfolders))
    return out


def _subtree(loader: _Loader, top: str) -> tuple[Deferred, ...]:
    """The deferred files of `top` and every folder below it, seen from any start folder above
    `top`, in walk order; computed once per folder, AGENTS.md mode and run (bottom-up, without
    recursion: a tree may be 10,000 folders deep)."""
    memo = loader.workspace.memo
    mode = (loader.agents_mode, loader.claude_md_at_start)

    def key(folder: str) -> tuple[object, ...]:
        return ("deferred.subtree", folder, mode)

    stack: list[tuple[str, bool]] = [(top, False)]
    while stack:
        folder, expanded = stack.pop()
        if key(folder) in memo:
            continue
        listing = _listing(loader.workspace, folder)
        if listing is None:
            memo[key(folder)] = ()
            continue
        subfolders, names = listing
        children = [os.path.join(folder, d) for d in subfolders]
        if not expanded:
            stack.append((folder, True))
            stack.extend((child, False) for child in children if key(child) not in memo)
            continue
        out = _own(loader, folder, names, None)
        for child in children:
            out.extend(memo[key(child)])  # type: ignore[arg-type]
        memo[key(folder)] = tuple(out)
    found = memo[key(top)]
    return found  # type: ignore[return-value]


def _own(loader: _Loader, folder: str, names: list[str], start: Path | None) -> list[Deferred]:
    """The deferred files of one folder below the start (`start` None: a start folder above the
    folder's `.claude/` ancestry, for which every file here is deferred). Paths are handled as
    strings: a folder 4,000 levels deep would cost a `Path` parse per level."""
    out: list[Deferred] = []
    shown = str(start) if start is not None else None
    if os.path.basename(folder) == ".claude":
        parent = os.path.dirname(folder)
        if parent != shown and "CLAUDE.md" in names:
            out.append(Deferred(Path(folder, "CLAUDE.md"), "nested-claude-md", "project"))
        if parent != shown and "AGENTS.md" in names:
            agents = Path(folder, "AGENTS.md")  # one Path for the test and the deferred file
            if nested_agents(loader, parent, agents):
                out.append(Deferred(agents, "nested-agents-md", "project"))
        return out
    if "CLAUDE.md" in names:
        out.append(Deferred(Path(folder, "CLAUDE.md"), "nested-claude-md", "project"))
    if "CLAUDE.local.md" in names:
        out.append(Deferred(Path(folder, "CLAUDE.local.md"), "nested-claude-md", "local"))
    if "AGENTS.md" in names:
        agents = Path(folder, "AGENTS.md")
        if nested_agents(loader, folder, agents):
            out.append(Deferred(agents, "nested-agents-md", "project"))
    if "/.claude/" in folder and "/rules" in folder:
        segments = folder.split("/")
        anchor = segments.index(".claude")
        if "rules" in segments and segments[anchor + 1 : anchor + 2] == ["rules"] \
                and ("/".join(segments[:anchor]) or "/") != shown:
            for name in sorted(n for n in names if n.endswith(".md")):
                path = Path(folder, name)
                doc = loader.workspace.document(path)
                globs = doc.rule_globs if doc.readable else None
                reason: DeferReason = "conditional-rule" if globs else "nested-claude-md"
                out.append(Deferred(path, reason, "project", tuple(globs or ())))
    return out


Via = Literal["system", "user"]
# why a file is attached: a folder between the start folder and the file read holds it (its
# CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md or unconditional rules), it is such a folder's
# AGENTS file, or it is a conditional rule whose `paths:` match; an include comes with its includer
AttachReason = Literal["folder", "agents", "conditional-rule"]


@dataclass(frozen=True)
class Attached:
    """A file Claude Code attaches after a Read, and how it reaches the model (C17): `system`, a
    system message (AGENTS files always, through the plugin's hook), or `user`, its own
    `<system-reminder>` block in the user turn. For a conditional rule (and its includes),
    `pattern` is the first of its `paths:` that matches the file read relative to `base`."""

    file: LoadedFile
    via: Via
    reason: AttachReason = "folder"
    pattern: str | None = None
    base: Path | None = None


def on_read(loaded: LoadedContext, path: Path, workspace: Workspace | None = None,
            launch: Launch | None = None) -> list[Attached]:
    """What Claude Code attaches when, in the session `loaded` models, Claude reads `path`: the
    memory files of each folder from below the start folder down to the file's folder, their
    includes (inside the start folder), and the conditional rules whose `paths:` match it. A file
    outside the start folder attaches nothing, not even an ancestor's rule that matches it
    (`rr06_outside_start_folder`); the file read is never attached itself, while what it includes
    is (`rr10_read_nested_memory_with_include`, `rr11_read_conditional_rule_file`)."""
    release = loaded.release
    workspace = Workspace(release) if workspace is None else workspace
    loader = _Loader(loaded.start, loaded.home, workspace, loaded.settings, release)
    for f in loaded.files:
        loader.processed.add(os.path.normpath(f.path))
        loader.processed.add(os.path.realpath(f.path))
    mode = loaded.settings.mode if release.agents_md and loaded.settings.agents_plugin_enabled else None
    loader.agents_mode = mode
    loader.claude_md_at_start = any(f.depth == 0 and f.kind in ("project", "local")
                                    and f.path.name in ("CLAUDE.md", "CLAUDE.local.md") for f in loaded.files)
    core: Via = "user" if release.deferred_as_user_blocks else "system"
    out: list[Attached] = []
    target = Path(os.path.realpath(path))
    if not _within(str(target), str(loaded.start)):
        return []
    if target.parent == loaded.start:
        folders: list[Path] = []
    else:
        relative = target.parent.relative_to(loaded.start)
        folders = [loaded.start.joinpath(*relative.parts[: i + 1]) for i in range(len(relative.parts))]
    for folder in folders:
        own = [f for f in loader.folder(folder, False) if not f.globs]
        out += [Attached(f, core) for f in own]
        agents = folder / "AGENTS.md", folder / ".claude" / "AGENTS.md"
        if mode is not None and any(nested_agents(loader, folder, p) for p in agents):
            out += [Attached(f, "system", "agents")
                    for f in loader.agents(folder, False, agent_texts([*loaded.files, *own]), False)]
    for deferred in loaded.deferred:
        if deferred.reason != "conditional-rule":
            continue
        parts = deferred.path.parts
        base = Path(*parts[: parts.index(".claude")]) if ".claude" in parts and deferred.kind == "project" else loaded.start
        inside = _relative(target, base)
        if inside is not None and rule_matches(deferred.paths, inside):
            pattern = next((p for p in deferred.paths if rule_matches((p,), inside)), deferred.paths[0])
            out += [Attached(f, core, "conditional-rule", pattern, base)
                    for f in loader.process(str(deferred.path), deferred.kind, False)]
    read = {str(target), os.path.normpath(path)}
    return [a for a in out if str(a.file.path) not in read and os.path.realpath(a.file.path) not in read]


def _relative(target: Path, base: Path) -> str | None:
    """`target` relative to `base` when Claude Code counts it inside (its test is case-folded; a
    path inside only by case is written from the folder's own spelling)."""
    if not _within(str(target), str(base)):
        return None
    return str(target)[len(str(base).rstrip("/")) + 1 :] if str(base) != "/" else str(target)[1:]
