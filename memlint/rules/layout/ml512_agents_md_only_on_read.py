"""A nested AGENTS.md reaches Claude only after it reads a file in that folder.

## What it does
From Claude Code 2.1.281, the AGENTS.md (and `.claude/AGENTS.md`) of a folder below the start
folder is not loaded at start: it is attached when Claude reads a file in that folder (in the
default mode only while no CLAUDE.md loads at start and that folder has no CLAUDE.md). Reports such
an AGENTS.md, seen from a session started at the project root.

Only a repository that keeps its instructions in AGENTS.md files is reported: where the checked
repository holds a `CLAUDE.md` or `CLAUDE.local.md` anywhere (a package's, a dotfiles folder's
`claude/CLAUDE.md`, a template's), the user writes Claude's instructions there, and an AGENTS.md
is taken to be kept for other agents (Codex, Copilot, a bot's workspace), as ML510 takes it; set
`with-claude-md` to report those too.

## Why is this bad?
Instructions written there for "every agent working in this package" are missing until Claude
happens to open a file in the package: a task that only edits files elsewhere, or a plan made
before reading any file, never sees them. That is fine for local detail, not for rules Claude must
follow from the first step.

## Example
```md pkg/AGENTS.md
Never edit generated files under pkg/gen/.
```

```md pkg/index.ts
export {};
```

Use instead:
```md AGENTS.md
Never edit generated files under pkg/gen/.
```

```md pkg/AGENTS.md
```

## Options
- `with-claude-md` (default `false`): also report a nested AGENTS.md when the checked repository
  keeps a CLAUDE.md or CLAUDE.local.md somewhere (by default it is taken to be kept for other agents).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.violations import Finding

META = RuleMeta(
    code="ML512",
    slug="agents-md-only-on-read",
    severity="info",
    summary="A nested AGENTS.md arrives only when Claude reads a file in its folder",
    options={"with-claude-md": False},
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.release.agents_md:
        return
    if not ctx.options.get("with-claude-md", False) and _keeps_claude_md(ctx):
        return  # the user writes Claude's instructions in CLAUDE.md: AGENTS.md is for other agents
    seen: set[str] = set()
    for loaded in ctx.root_loads:
        for deferred in loaded.deferred:
            if deferred.reason != "nested-agents-md" or str(deferred.path) in seen:
                continue
            seen.add(str(deferred.path))
            folder = deferred.path.parent
            folder = folder.parent if folder.name == ".claude" else folder
            yield Finding(
                deferred.path, 1,
                f"Claude Code {ctx.release.name} does not load `{show(ctx, deferred.path)}` when a session starts in "
                f"`{show(ctx, loaded.start)}`: it attaches it only after Claude reads a file in `{show(ctx, folder)}/`; "
                "move instructions Claude needs from the first step into the root AGENTS.md or CLAUDE.md",
            )


def _keeps_claude_md(ctx: RuleContext) -> bool:
    """The checked folders hold a CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md somewhere."""
    roots = [Path(r) for r in ctx.roots]
    return any(any(r == item.path or r in item.path.parents for r in roots)
               for item in ctx.by_role("claude-md", "local"))
