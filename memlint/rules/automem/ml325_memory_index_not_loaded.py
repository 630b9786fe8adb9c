"""A MEMORY.md in the project is not Claude Code's auto memory, and nothing includes it: it is never loaded.

## What it does
Runs only when HOME is modelled (`--home`), so that every settings file that can move auto memory
(`autoMemoryDirectory` in the user, project and local settings) is known. Reports, once, each
MEMORY.md under the checked paths that is not in the folder Claude Code uses for this project's
auto memory, not a subagent's memory folder and not included by any file Claude Code loads, and
that sits where a project keeps its memory on purpose: in a folder named `memory` at a checked
root or in a `.claude` folder (`memory/MEMORY.md`, `.claude/memory/MEMORY.md`). A MEMORY.md
anywhere else is a copy kept for its own reasons (a backup, dotfiles, an exported `~/.claude`
with its `projects/<project>/memory/` or `agent-memory/<agent>/` folders, notes of custom agents)
and is not meant to load from where it is; one cause, so nothing is reported for it. Nor is a
MEMORY.md kept by hand (not in the index form of auto memory: no links to topic files with memory
frontmatter) that a loaded file points Claude at: a path in its text (`` `.claude/memory/MEMORY.md` ``,
`memory/`, `memory/topics/*.md`) names its folder or a file in it. Claude is told where these
notes are and reads them when that file says so, as their author meant. (A path written from the
project root, `.claude/memory/...`, also counts in a repository that is itself a copy of a
`.claude` folder, where `memory/` sits at its root.) An index in auto memory's form is reported
even when a loaded file names it, and the finding names that file: the index was written to load
at every start as auto memory, and naming its folder neither loads it nor makes Claude Code keep
its auto memory there (that takes `autoMemoryDirectory`).

## Why is this bad?
A committed `.claude/memory/MEMORY.md` looks like Claude Code's memory, but Claude Code keeps auto
memory in `~/.claude/projects/<project>/memory/` (or where `autoMemoryDirectory` says), and loads
no other MEMORY.md. Everything written in this one reaches Claude only if it happens to open it.

## Example
```md .claude/memory/MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md ~/.claude/settings.json
{}
```

Use instead:
(or set `autoMemoryDirectory` to the folder's absolute path)
```md CLAUDE.md
Project memory: @.claude/memory/MEMORY.md
```
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from memlint.model.run.memory_identity import memory_identities
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.automem._pointers import pointer
from memlint.violations import Finding

META = RuleMeta(
    code="ML325",
    slug="memory-index-not-loaded",
    severity="warning",
    summary="A MEMORY.md in the project is not Claude Code's auto memory and nothing includes it",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    if ctx.home is None:
        return  # without HOME, the user's autoMemoryDirectory is unknown: nothing can be said
    projects = str(ctx.home / ".claude" / "projects") + "/"
    moved = sorted({str(c.automem_dir) for c in ctx.loads.values() if not str(c.automem_dir).startswith(projects)})
    where = ("in `" + "` or `".join(show(ctx, f) for f in moved[:2]) + "` (`autoMemoryDirectory`)" if moved
             else "in its folder under `~/.claude/projects/`")
    for path, found in sorted(memory_identities(ctx).items()):
        if found.kind not in ("exported", "named", "hand-kept"):
            continue
        if not any(str(path).startswith(str(root).rstrip("/") + "/") for root in ctx.roots):
            continue
        if not _memory_home(ctx, path.parent):
            continue  # a copy kept elsewhere in the repository (backup, dotfiles, ~/.claude export)
        named = pointer(ctx, path.parent)
        if named is not None and found.kind == "hand-kept":
            continue  # notes kept by hand that a loaded file tells Claude where to find
        seen = (", so Claude sees it only if it happens to open it" if named is None else
                f": `{show(ctx, named[0])}` points at this memory (`{named[1]}`), but a path loads nothing, so Claude reads it "
                "only when it decides to, and Claude Code writes new memories to its own folder")
        yield Finding(
            path,
            1,
            f"Claude Code never loads `{show(ctx, path)}`: it keeps this project's auto memory {where}, and no "
            f"loaded file includes this one{seen}; include it from "
            "CLAUDE.md (`@" + show(ctx, path) + "`) or point `autoMemoryDirectory` at its folder",
        )


def _memory_home(ctx: RuleContext, folder: Path) -> bool:
    """A folder named `memory` at a checked root or in a `.claude` folder: where a project keeps
    its memory when it means Claude Code to use it."""
    if folder.name != "memory":
        return False
    return folder.parent.name == ".claude" or any(str(folder.parent) == str(root) for root in ctx.roots)
