"""A folder of the checked repository that is a copy of one person's `~/.claude` (dotfiles, a config
repository installed by a symlink): told by its layout, not its words.

In a project, Claude Code's files sit in `.claude/` (`.claude/rules/`, `.claude/settings.json`);
in `~/.claude` they sit beside the user's CLAUDE.md (`rules/`, `agents/`, `commands/`, `skills/`,
`settings.json`). A CLAUDE.md below such a folder is user memory: it loads on that person's
machine only, where its home paths are right.
"""

from __future__ import annotations

import os
from pathlib import Path

from memlint.model.run.rule_context import RuleContext

_USER_FOLDERS = frozenset({"agents", "commands", "skills", "hooks", "output-styles", "plugins", "projects",
                           "agent-memory", "todos"})


def in_home_copy(ctx: RuleContext, path: Path) -> bool:
    """`path` is in, or below, a folder laid out as a `~/.claude` (up to the checked root)."""
    roots = {Path(r) for r in ctx.roots}
    for folder in path.parents:
        if folder.name != ".claude" and _home_layout(ctx, str(folder)):
            return True
        if folder in roots:
            break
    return False


def _home_layout(ctx: RuleContext, folder: str) -> bool:
    """The folder holds a CLAUDE.md and, beside it, a `rules/` folder with a markdown file that the
    CLAUDE.md does not include (`~/.claude/rules/` loads by itself; a project that keeps `rules/`
    beside its CLAUDE.md includes them), or two of what `~/.claude` keeps (`settings.json`,
    agents, commands, skills...)."""
    def read() -> bool:
        listing = ctx.workspace.listing(folder)
        if listing is None:
            return False
        names = {name: (is_dir, is_file) for name, is_dir, is_file in listing}
        if not names.get("CLAUDE.md", (False, False))[1]:
            return False
        if names.get("rules", (False, False))[0]:
            rules = ctx.workspace.listing(os.path.join(folder, "rules"))
            if rules and any(is_file and name.endswith(".md") for name, _, is_file in rules) \
                    and not _includes_rules(ctx, Path(folder) / "CLAUDE.md"):
                return True
        kept = sum(1 for name in _USER_FOLDERS if names.get(name, (False, False))[0])
        return kept + names.get("settings.json", (False, False))[1] >= 2

    return bool(ctx.once(("homecopy.layout", folder), read))


def _includes_rules(ctx: RuleContext, claude_md: Path) -> bool:
    """The CLAUDE.md includes a file of its `rules/` folder (an include Claude Code follows)."""
    doc = ctx.document(claude_md)
    if doc.problem is not None:
        return False
    return any(os.path.normpath(ref.path).startswith("rules" + os.sep) for ref in doc.scan().includes)
