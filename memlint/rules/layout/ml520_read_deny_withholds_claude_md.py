"""A `Read(...)` deny rule withholds the project's only CLAUDE.md from Claude Code's context.

## What it does
From Claude Code 2.1.290, project and local memory files covered by a `Read(...)` deny rule of any
settings file (or by a deny of the whole Read tool: `Read`, `Read(*)`, or a tool name with `*` such as
`*`) are not loaded, and neither are their includes. Reports
a deny rule that withholds a CLAUDE.md or `.claude/CLAUDE.md` of a start folder when no other
CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md loads from there.

## Why is this bad?
The rule was written to keep Claude away from files, not from its own instructions: the project's
memory silently disappears (and, in the default AGENTS.md mode, an AGENTS.md loads instead).

## Example
```md .claude/settings.json
{"permissions": {"deny": ["Read(./*.md)"]}}
```

```md CLAUDE.md
Project notes.
```

Use instead:
```md .claude/settings.json
{"permissions": {"deny": ["Read(./docs/private/*.md)"]}}
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._agents import only_claude_md_withheld, stoppers
from memlint.rules.layout._settings import line_of
from memlint.violations import Finding

META = RuleMeta(
    code="ML520",
    slug="read-deny-withholds-claude-md",
    severity="error",
    summary="A Read deny rule withholds the project's only CLAUDE.md",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.release.read_deny_withholds:
        return
    seen: set[tuple[str, str]] = set()
    for start, loaded in sorted(ctx.loads.items()):
        if stoppers(loaded):
            continue
        for skipped in loaded.skipped:
            if not only_claude_md_withheld(loaded, skipped):
                continue
            rule = loaded.settings.denied(str(skipped.path))
            if rule is None or (str(rule.settings), str(skipped.path)) in seen:
                continue
            seen.add((str(rule.settings), str(skipped.path)))
            yield Finding(
                rule.settings, line_of(ctx, rule.settings, rule.written),
                f"the deny rule {rule.written!r} in `{show(ctx, rule.settings)}` withholds `{show(ctx, skipped.path)}` "
                f"from Claude Code {ctx.release.name}, and no other CLAUDE.md loads for a session started in "
                f"`{show(ctx, start)}`: Claude starts without the project's instructions",
            )
