"""A memory file is named `claude.md`, `Claude.md`, `CLAUDE.MD` or `CLAUDE-local.md`, so Claude Code never loads it.

## What it does
Reports files whose name is CLAUDE.md or CLAUDE.local.md in another letter case or spelling:
`claude.md`, `Claude.md`, `CLAUDE.MD`, `claude.markdown`, `claude.local.md`, `CLAUDE-local.md`,
`CLAUDE_local.md`. A file that another memory file `@includes` (so it is loaded after all), or
whose text is already in a correctly named file beside it, is left alone.

## Why is this bad?
Claude Code looks for the exact names `CLAUDE.md`, `.claude/CLAUDE.md` and `CLAUDE.local.md`, and
file names are case-sensitive on Linux (and in git). A misnamed file works on one laptop with a
case-insensitive disk and is silently ignored everywhere else, in CI and for every teammate.

## Example
```md claude.md
# Project
Run `make test` before committing.
```

Use instead:
```md CLAUDE.md
# Project
Run `make test` before committing.
```

## Fix safety
The fix renames the file to its exact name when nothing has that name yet (never overwriting a
file), keeping its bytes. It is unsafe because Claude Code then starts loading text it never saw.
When a correctly named file exists beside it, a person must merge the two: no fix is offered.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._common import rename
from memlint.violations import Finding

META = RuleMeta(
    code="ML509",
    slug="misnamed-claude-md",
    severity="error",
    summary="A CLAUDE.md or CLAUDE.local.md is misnamed and never loaded",
    fix="unsafe",
)

_LOCAL = frozenset({"claude.local.md", "claude-local.md", "claude_local.md"})


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.by_role("misnamed"):
        return
    loaded = {str(entry.path) for context in ctx.loads.values() for entry in context.files}
    loaded |= {ctx.workspace.resolved(path) for path in loaded}
    for item in ctx.by_role("misnamed"):
        path = item.path
        if str(path) in loaded or ctx.workspace.resolved(path) in loaded:
            continue
        doc = ctx.document(path)
        if doc.problem is not None:
            continue
        right = "CLAUDE.local.md" if path.name.lower() in _LOCAL else "CLAUDE.md"
        twin = ctx.document(path.with_name(right))
        if twin.problem is None or twin.problem.reason != "not-found":
            if twin.problem is None and twin.text.strip() == doc.text.strip():
                continue
            advice = f"`{right}` beside it is loaded instead; merge what is missing into it"
            fix = None
        else:
            advice, fix = rename(ctx, path, path.with_name(right), doc.text)
        yield Finding(
            path,
            1,
            f"Claude Code never loads `{show(ctx, path)}`: it reads only files named exactly `{right}` "
            f"(names are case-sensitive); {advice}",
            fix=fix,
        )
