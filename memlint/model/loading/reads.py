"""What Claude Code attaches when Claude reads a file (spec §1 and §4; C17 how it arrives): the
memory files of the folders down to the file's, and the conditional rules whose `paths:` match it.
Above the loader (it runs a loading's steps for the folders read) and memlint.model.loading.deferred."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from memlint.model.cli_js.globs import rule_matches
from memlint.model.loading.deferred import FAMILY_NAMES, nested_agents
from memlint.model.loading.loaded import agent_texts
from memlint.model.loading.loader import LoadedContext, LoadedFile, _Loader
from memlint.model.loading.replay import _within
from memlint.model.loading.settings import DenyRule
from memlint.model.loading.workspace import Workspace
from memlint.records import dataclass

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


def on_read(loaded: LoadedContext, path: Path, workspace: Workspace | None = None) -> list[Attached]:
    """What Claude Code attaches when, in the session `loaded` models, Claude reads `path`: the
    memory files of each folder from below the start folder down to the file's folder, their
    includes (inside the start folder), and the conditional rules whose `paths:` match it. A file
    outside the start folder attaches nothing, not even an ancestor's rule that matches it
    (`rr06_outside_start_folder`); the file read is never attached itself, while what it includes
    is (`rr10_read_nested_memory_with_include`, `rr11_read_conditional_rule_file`). A
    CLAUDE_CODE_AUTOMOUNT_ROOTS folder on the way gives nothing of its own, as at start
    (`rr14_read_below_automount_root`)."""
    release = loaded.release
    workspace = Workspace(release) if workspace is None else workspace
    loader = _Loader(loaded.start, loaded.home, workspace, loaded.settings, release)
    loader.reading = True
    if release.read_skips_files_loaded_at_start:  # older releases process a Read afresh (rr30, rr31)
        for f in loaded.files:  # by the path it loaded by: a file loaded through a linked folder is sent
            loader.processed.add(os.path.normpath(f.path))  # again by its real path (`rr36_read_linked_dot_claude`)
    at_start = frozenset(loader.processed)
    mode = loaded.settings.mode if release.agents_md and loaded.settings.agents_plugin_enabled else None
    loader.agents_mode = mode
    loader.claude_md_at_start = any(f.depth == 0 and f.kind in ("project", "local")
                                    and f.path.name in ("CLAUDE.md", "CLAUDE.local.md") for f in loaded.files)
    core: Via = "user" if release.deferred_as_user_blocks else "system"
    out: list[Attached] = []
    target = Path(os.path.realpath(path))
    if not _within(str(target), str(loaded.start)) or read_refused(loaded, path) is not None:
        return []
    if target.parent == loaded.start:
        folders: list[Path] = []
    else:
        relative = target.parent.relative_to(loaded.start)
        folders = [loaded.start.joinpath(*relative.parts[: i + 1]) for i in range(len(relative.parts))]
    sent = {os.path.normpath(f.path) for f in loaded.files}  # in the session: loaded at start or sent on this Read
    for folder in folders:
        if str(folder) in loaded.settings.automount_roots:  # nothing of it, not its AGENTS files either (rr34)
            continue
        own = loader.folder(folder, False)
        out += [Attached(f, core) for f in own]
        sent.update(os.path.normpath(f.path) for f in own)
        # in fallback mode the AGENTS.md plugin leaves a folder's AGENTS files out when a CLAUDE.md, .claude/
        # CLAUDE.md or CLAUDE.local.md of the folder is in the session (loaded at start or on this Read: rr26,
        # rr27), and reckons an AGENTS.md in a `.claude` folder its parent's (`rr33_read_in_a_dot_claude_folder`;
        # the start folder's too when nothing of it loaded: `rr35`)
        owner = folder.parent if folder.name == ".claude" else folder
        agents = folder / "AGENTS.md", folder / ".claude" / "AGENTS.md"
        if mode is not None and any(nested_agents(loader, owner, p, lambda path: os.path.normpath(path) in sent)
                                    for p in agents):
            # the AGENTS.md plugin is told of the folder's CLAUDE.md, .claude/CLAUDE.md and CLAUDE.local.md
            # with their includes, not of the rules this Read attached: it attaches a file a rule included
            # again, and keeps an AGENTS file whose text equals a rule's (rr22-rr24 in tests/differential)
            family = _family(own, folder)
            rules = {key for f in own if f not in family
                     for key in (os.path.normpath(f.path), os.path.realpath(f.path))} - at_start
            loader.processed -= rules
            plugin = loader.agents(folder, False, agent_texts([*loaded.files, *family]), False)
            out += [Attached(f, "system", "agents") for f in plugin]
            sent.update(os.path.normpath(f.path) for f in plugin)
            loader.processed |= rules
    for deferred in loaded.deferred:
        if deferred.reason != "conditional-rule":
            continue
        parts = deferred.path.parts
        base = Path(*parts[: parts.index(".claude")]) if ".claude" in parts and deferred.kind == "project" else loaded.start
        inside = _relative(target, base)
        if inside is not None and rule_matches(deferred.paths, inside):
            pattern = next((p for p in deferred.paths if rule_matches((p,), inside)), deferred.paths[0])
            reached, real = os.path.normpath(deferred.path), os.path.realpath(deferred.path)
            if loader.outside(reached, real):  # a link to a rule outside the start folder: external (rr21)
                continue
            # a nested folder's conditional rule was met (and held back) by that folder's step above:
            # it arrives all the same (`ss13_read_nested_project_only`), unless it loaded at start
            loader.processed -= {reached, real} - at_start
            # of the rule and its includes, the files whose own `paths:` match arrive (its plain includes
            # came with the folder's rules, at start or above: `rr29_read_rule_include_loaded_at_start`)
            out += [Attached(f, core, "conditional-rule", pattern, base)
                    for f in loader.rule_file(reached, real, deferred.kind, False)
                    if f.globs and rule_matches(f.globs, inside)]
    read = {str(target), os.path.normpath(path)}
    return [a for a in out if str(a.file.path) not in read and os.path.realpath(a.file.path) not in read]


def _family(own: list[LoadedFile], folder: Path) -> list[LoadedFile]:
    """Of a folder's files attached on a Read, its CLAUDE.md, .claude/CLAUDE.md and CLAUDE.local.md
    and the files they include (every other file came from its rules)."""
    roots = {os.path.normpath(folder / name) for name in FAMILY_NAMES}
    includer = {os.path.normpath(f.path): f for f in own}
    out = []
    for f in own:
        root = f
        while root.origin is not None and os.path.normpath(root.origin.path) in includer:
            root = includer[os.path.normpath(root.origin.path)]
        if os.path.normpath(root.path) in roots:
            out.append(f)
    return out


def read_refused(loaded: LoadedContext, path: Path) -> DenyRule | None:
    """The `Read` deny rule that makes Claude Code refuse Claude's Read of `path` (by the path read or
    its real path; every release): a refused Read attaches nothing (`rr13_read_denied`)."""
    settings = loaded.settings
    return settings.denied(os.path.normpath(os.path.abspath(path))) or settings.denied(os.path.realpath(path))


def _relative(target: Path, base: Path) -> str | None:
    """`target` relative to `base` when Claude Code counts it inside (its test is case-folded; a
    path inside only by case is written from the folder's own spelling)."""
    if not _within(str(target), str(base)):
        return None
    return str(target)[len(str(base).rstrip("/")) + 1 :] if str(base) != "/" else str(target)[1:]
