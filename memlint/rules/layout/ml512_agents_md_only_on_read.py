"""A nested AGENTS.md reaches Claude only after it reads a file in that folder.

## What it does
From Claude Code 2.1.281, the AGENTS.md (and `.claude/AGENTS.md`) of a folder below the start
folder is not loaded at start: it is attached when Claude reads a file in that folder (in the
default mode only while no CLAUDE.md loads at start and that folder has no CLAUDE.md). Reports such
an AGENTS.md, seen from a session started at the project root.

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
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.violations import Finding

META = RuleMeta(
    code="ML512",
    slug="agents-md-only-on-read",
    severity="info",
    summary="A nested AGENTS.md arrives only when Claude reads a file in its folder",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.release.agents_md:
        return
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
