"""AGENTS.md and CLAUDE.md both load and say largely the same thing (`claude-md-and-agents-md` mode).

## What it does
With `instructionFiles = "claude-md-and-agents-md"` (Claude Code 2.1.281+), an AGENTS.md loads
beside the CLAUDE.md of its folder. Reports a loaded AGENTS.md when at least half of its non-blank
lines are also in a CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md loaded from the same folder.
Claude Code drops an AGENTS.md only when its whole trimmed text equals a loaded file's.

## Why is this bad?
Claude reads the same instructions twice at every start: the copy costs context, and when one of
the two is edited and the other is not, Claude gets two versions of the same rule.

## Example
```md CLAUDE.md
# Project
Run `npm test` before every commit.
Use pnpm.
```

```md AGENTS.md
# Project
Run `npm test` before every commit.
Use pnpm, never npm install.
```

```md ~/.claude/settings.json
{"pluginConfigs": {"cc-plugin-agents-md@builtin": {"options": {"instructionFiles": "claude-md-and-agents-md"}}}}
```

Use instead:
```md CLAUDE.md
# Claude only
Keep answers short.
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._agents import CLAUDE_FAMILY, mode_in_force
from memlint.violations import Finding

META = RuleMeta(
    code="ML511",
    slug="agents-md-duplicates-claude-md",
    severity="warning",
    summary="AGENTS.md and CLAUDE.md both load and largely repeat each other",
)


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _owner(path_parent: str) -> str:
    return path_parent.removesuffix("/.claude")


def check(ctx: RuleContext) -> Iterator[Finding]:
    if mode_in_force(ctx) != "claude-md-and-agents-md":
        return
    seen: set[str] = set()
    for loaded in ctx.loads.values():
        claude = [f for f in loaded.files if f.depth == 0 and f.path.name in CLAUDE_FAMILY]
        for agents in (f for f in loaded.files if f.depth == 0 and f.path.name == "AGENTS.md"):
            if str(agents.path) in seen:
                continue
            folder = _owner(str(agents.path.parent))
            lines = _lines(agents.content)
            for other in (c for c in claude if _owner(str(c.path.parent)) == folder):
                present = set(_lines(other.content))
                shared = sum(1 for line in lines if line in present)
                if lines and shared * 2 >= len(lines):
                    seen.add(str(agents.path))
                    yield Finding(
                        agents.path, 1,
                        f"Claude Code loads both `{show(ctx, agents.path)}` and `{show(ctx, other.path)}` "
                        f"(instructionFiles = claude-md-and-agents-md), and {shared} of the {len(lines)} lines of "
                        "AGENTS.md are also in the other file: Claude reads them twice; keep shared instructions in "
                        "AGENTS.md and only Claude-specific ones in CLAUDE.md",
                    )
                    break
