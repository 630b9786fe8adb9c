"""A `claudeMdExcludes` pattern that matches no memory file, so it leaves nothing out.

## What it does
Reports each `claudeMdExcludes` pattern of a Claude Code settings file (user, project, local,
`--settings` or managed) that matches none of the memory files memlint found or Claude Code
considered: CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md, rules, AGENTS.md and their includes.

## Why is this bad?
Claude Code matches these patterns with picomatch against the file's absolute path, so a bare
`CLAUDE.md` or `docs/CLAUDE.md` matches nothing (`**/docs/CLAUDE.md` is needed). A pattern that
matches nothing looks like it keeps a file out of the context while the file still loads.

## Example
```md .claude/settings.json
{"claudeMdExcludes": ["docs/CLAUDE.md"]}
```

```md docs/CLAUDE.md
Legacy notes.
```

```md CLAUDE.md
See the docs.
```

Use instead:
```md .claude/settings.json
{"claudeMdExcludes": ["**/docs/CLAUDE.md"]}
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.cli_js.globs import picomatch
from memlint.model.loading.chain import distinct_segments
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._settings import line_of, settings_files
from memlint.violations import Finding

META = RuleMeta(
    code="ML513",
    slug="exclude-matches-nothing",
    severity="warning",
    summary="A claudeMdExcludes pattern matches no memory file",
)


def _candidates(ctx: RuleContext) -> set[str]:
    paths = {str(f.path) for f in ctx.files}
    for loaded in ctx.loads.values():
        paths |= {str(f.path) for f in loaded.files}
    loads = ctx.loads.values()
    for skipped in distinct_segments(loaded.skipped for loaded in loads):
        paths |= {str(s.path) for s in skipped}
    for deferred in distinct_segments(loaded.deferred for loaded in loads):
        paths |= {str(d.path) for d in deferred}
    return paths


def check(ctx: RuleContext) -> Iterator[Finding]:
    candidates: set[str] | None = None
    for item in settings_files(ctx):
        patterns = item.data.get("claudeMdExcludes")
        if not isinstance(patterns, list):
            continue
        for pattern in patterns[: ctx.workspace.limits.max_excludes]:  # past it: ML904
            if not isinstance(pattern, str) or not pattern or pattern.startswith("!"):
                continue
            candidates = _candidates(ctx) if candidates is None else candidates
            if any(picomatch(path, (pattern.replace("\\", "/"),)) for path in candidates):
                continue
            hint = ""
            if not pattern.startswith(("/", "**", "*")):
                hint = f"; Claude Code matches against absolute paths, so write `**/{pattern}`"
            yield Finding(
                item.path, line_of(ctx, item.path, pattern, "claudeMdExcludes"),
                f"`claudeMdExcludes` pattern {pattern!r} in `{show(ctx, item.path)}` matches no memory file, so it "
                f"keeps nothing out of Claude Code's context{hint}",
            )
