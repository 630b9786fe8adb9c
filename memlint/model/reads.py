"""What Claude Code attaches when Claude reads a file (spec §1 and §4; C17 how it arrives): the
memory files of the folders down to the file's, and the conditional rules whose `paths:` match it.
Above the loader (it runs a loading's steps for the folders read) and memlint.model.deferred."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from memlint.model.deferred import nested_agents
from memlint.model.globs import rule_matches
from memlint.model.loaded import agent_texts
from memlint.model.loader import LoadedContext, LoadedFile, _Loader
from memlint.model.replay import _within
from memlint.model.settings import Launch
from memlint.model.workspace import Workspace
from memlint.records import dataclass

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
            out += [Attached(f, "system") for f in loader.agents(folder, False, agent_texts([*loaded.files, *own]), False)]
    for deferred in loaded.deferred:
        if deferred.reason != "conditional-rule":
            continue
        parts = deferred.path.parts
        base = Path(*parts[: parts.index(".claude")]) if ".claude" in parts and deferred.kind == "project" else loaded.start
        if _within(str(target), str(base)) and rule_matches(deferred.paths, str(target.relative_to(base))):
            out += [Attached(f, core) for f in loader.process(str(deferred.path), deferred.kind, False)]
    return out
