"""What Claude Code loads later, not at start: memory files in folders below the start folder and
conditional rules, attached when Claude reads a file (spec §1 and §4; C05 nested AGENTS.md; C17 how
they arrive). `defer_nested` lists them for `context`; `on_read` answers what one Read attaches."""

from __future__ import annotations

import os
from dataclasses import dataclass
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
    _within,
)
from memlint.model.settings import Launch
from memlint.model.workspace import Workspace, walk


def nested_agents(loader: _Loader, folder: Path, path: Path) -> bool:
    """C05: a folder's AGENTS files arrive when Claude reads a file there (fallback mode: only when
    no CLAUDE.md family file loaded at start and the folder has no CLAUDE.md)."""
    if loader.facts(str(path)).skip is not None:  # missing, empty, unreadable: nothing arrives
        return False
    if loader.agents_mode == "claude-md-and-agents-md":
        return True
    if loader.agents_mode != "claude-md-or-agents-md" or loader.claude_md_at_start:
        return False
    return not any(loader.workspace.document(p).readable for p in (folder / "CLAUDE.md", folder / ".claude" / "CLAUDE.md"))


def defer_nested(loader: _Loader) -> None:
    """Memory files in folders below the start: loaded only when Claude reads a file there. A
    folder's `.claude/CLAUDE.md` belongs to that folder (the start folder's own is loaded, never deferred)."""
    start = loader.start
    for folder, subfolders, names in walk(start):
        subfolders[:] = sorted(d for d in subfolders if d not in PRUNED_FOLDERS)
        here = Path(folder)
        if here == start:
            continue
        if here.name == ".claude":
            if here.parent != start and "CLAUDE.md" in names:
                loader.deferred.append(Deferred(here / "CLAUDE.md", "nested-claude-md", "project"))
            if here.parent != start and "AGENTS.md" in names and nested_agents(loader, here.parent, here / "AGENTS.md"):
                loader.deferred.append(Deferred(here / "AGENTS.md", "nested-agents-md", "project"))
            continue
        if "CLAUDE.md" in names:
            loader.deferred.append(Deferred(here / "CLAUDE.md", "nested-claude-md", "project"))
        if "CLAUDE.local.md" in names:
            loader.deferred.append(Deferred(here / "CLAUDE.local.md", "nested-claude-md", "local"))
        if "AGENTS.md" in names and nested_agents(loader, here, here / "AGENTS.md"):
            loader.deferred.append(Deferred(here / "AGENTS.md", "nested-agents-md", "project"))
        if ".claude" in here.parts and "rules" in here.parts:
            anchor = here.parts.index(".claude")
            if here.parts[anchor + 1 : anchor + 2] == ("rules",) and Path(*here.parts[:anchor]) != start:
                for name in sorted(n for n in names if n.endswith(".md")):
                    doc = loader.workspace.document(here / name)
                    globs = doc.rule_globs if doc.readable else None
                    reason: DeferReason = "conditional-rule" if globs else "nested-claude-md"
                    loader.deferred.append(Deferred(here / name, reason, "project", tuple(globs or ())))


Via = Literal["system", "user"]


@dataclass(frozen=True)
class Attached:
    """A file Claude Code attaches after a Read, and how it reaches the model (C17): `system`, a
    system message (AGENTS files always, through the plugin's hook), or `user`, its own
    `<system-reminder>` block in the user turn."""

    file: LoadedFile
    via: Via


def on_read(loaded: LoadedContext, path: Path, workspace: Workspace | None = None,
            launch: Launch | None = None) -> list[Attached]:
    """What Claude Code attaches when, in the session `loaded` models, Claude reads `path`: the
    memory files of each folder from below the start folder down to the file's folder, their
    includes (inside the start folder), and the conditional rules whose `paths:` match it."""
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
    if not _within(str(target), str(loaded.start)) or target.parent == loaded.start:
        folders: list[Path] = []
    else:
        relative = target.parent.relative_to(loaded.start)
        folders = [loaded.start.joinpath(*relative.parts[: i + 1]) for i in range(len(relative.parts))]
    for folder in folders:
        own = [f for f in loader.folder(folder, False) if not f.globs]
        out += [Attached(f, core) for f in own]
        agents = folder / "AGENTS.md", folder / ".claude" / "AGENTS.md"
        if mode is not None and any(nested_agents(loader, folder, p) for p in agents):
            out += [Attached(f, "system") for f in loader.agents(folder, False, list(loaded.files) + own, False)]
    for deferred in loaded.deferred:
        if deferred.reason != "conditional-rule":
            continue
        parts = deferred.path.parts
        base = Path(*parts[: parts.index(".claude")]) if ".claude" in parts and deferred.kind == "project" else loaded.start
        if _within(str(target), str(base)) and rule_matches(deferred.paths, str(target.relative_to(base))):
            out += [Attached(f, core) for f in loader.process(str(deferred.path), deferred.kind, False)]
    return out
