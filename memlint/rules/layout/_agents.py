"""What the AGENTS.md rules (ML510-ML512) share: the mode in force and the CLAUDE.md files that
stop an AGENTS.md from loading. Both come from the loading model; nothing here re-derives loading."""

from __future__ import annotations

from pathlib import Path

from memlint.model.loading.loader import LoadedContext, LoadedFile, Skipped
from memlint.model.loading.settings import Mode
from memlint.model.run.rule_context import RuleContext

CLAUDE_FAMILY = ("CLAUDE.md", "CLAUDE.local.md")


def mode_in_force(ctx: RuleContext) -> Mode | None:
    """The AGENTS.md plugin's mode for this run; None when the release or the settings never read
    AGENTS.md (before 2.1.281, or `enabledPlugins` turns the plugin off)."""
    if not ctx.release.agents_md:
        return None
    for loaded in ctx.loads.values():
        return loaded.settings.mode if loaded.settings.agents_plugin_enabled else None
    return "claude-md-or-agents-md"


def stoppers(loaded: LoadedContext) -> list[LoadedFile]:
    """The CLAUDE.md, .claude/CLAUDE.md and CLAUDE.local.md files that loaded from a start folder or
    above it (in the default mode, any of them keeps every AGENTS.md out)."""
    return [f for f in loaded.files if f.depth == 0 and f.kind in ("project", "local") and f.path.name in CLAUDE_FAMILY]


def load_of(ctx: RuleContext, folder: Path) -> LoadedContext | None:
    """The loading modelled for a session started in `folder` (every AGENTS.md folder is a start)."""
    return ctx.loads.get(folder)


def only_claude_md_withheld(loaded: LoadedContext, skipped: Skipped) -> bool:
    """A start folder's CLAUDE.md withheld by a Read deny rule while no other instruction file (no
    CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md nor AGENTS.md) loads in its place: ML520 names the
    rule, and ML521 leaves the file to it (one problem, one finding)."""
    return (skipped.reason == "read-denied" and skipped.origin is None and skipped.path.name == "CLAUDE.md"
            and not stoppers(loaded) and not any(f.path.name == "AGENTS.md" for f in loaded.files)
            and loaded.settings.denied(str(skipped.path)) is not None)
