"""A rule's `@include` names a file with `paths:`, so Claude Code holds it back at start.

## What it does
Reports an include in a rule file that loads at start (one without `paths:` of its own), or in a
file such a rule includes, whose target has `paths:` in its frontmatter. Claude Code reads a rule's
includes as rules, so the included file is a conditional rule: it does not load with the rule, but
only once Claude reads a file its `paths:` match. When that file is also a folder's own
`CLAUDE.local.md` (or a `CLAUDE.md` of a folder further down), the folder's own load of it then
counts as done, and it does not load at start at all.

Start folders where the file loads anyway (another file includes it first, or it is the start
folder's `CLAUDE.md`, loaded before the rules) are left out, and so are includes in conditional
rules, whose includes are meant for matching reads, and includes of rule files (a rule that lists
other rules): their `paths:` are their condition.

## Why is this bad?
An include written in a rule that applies everywhere is meant to load with it. The `paths:` of the
target (often left from where it was copied, or kept for another tool) silently turns it into
memory that arrives only for some files, and nothing says so.

## Example
```md .claude/rules/style.md
# Style
@../../docs/api.md
```
```md docs/api.md
---
paths: src/**
---
Use the v2 client.
```

Use instead:
```md .claude/rules/style.md
# Style
@../../docs/api.md
```
```md docs/api.md
Use the v2 client.
```
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from memlint.model.loading.loaded import Deferred
from memlint.model.run.include_problems import owned
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._agents import CLAUDE_FAMILY
from memlint.violations import Finding

META = RuleMeta(
    code="ML111",
    slug="include-held-back",
    severity="warning",
    summary="A rule's @include names a file with paths:, so Claude Code loads it only on a matching read",
)

def check(ctx: RuleContext) -> Iterator[Finding]:
    reported: set[tuple[str, int, int]] = set()
    rules: set[Path] | None = None  # the run's rule files, asked for once a held-back include is met
    by_segment: dict[int, list[Deferred]] = {}  # start folders share segments of deferred files: each read once
    for loaded in ctx.loads.values():
        held: list[Deferred] = []
        for segment in loaded.deferred.segments:
            found = by_segment.get(id(segment))
            if found is None:
                found = by_segment[id(segment)] = [d for d in segment if d.origin is not None]
            held += found
        if not held:
            continue
        at_start = {str(f.path): f for f in loaded.files}
        for item in held:
            origin = item.origin
            assert origin is not None
            rule = at_start.get(str(origin.path))
            if rule is None or str(item.path) in at_start or not owned(ctx, origin.path):
                continue  # the rule is conditional itself, or the file loads at start anyway
            if rules is None:
                rules = {f.path for f in ctx.by_role("rule")}
            if "/.claude/rules/" in str(item.path) or item.path in rules:
                continue  # a rule of its own: its `paths:` are its condition, wherever it is included from
            key = (str(origin.path), origin.line, origin.ref.column)
            if key in reported:
                continue
            reported.add(key)
            patterns = ", ".join(f"`{p}`" for p in item.paths[:3]) + (", …" if len(item.paths) > 3 else "")
            walked = loaded.start == item.path.parent or item.path.parent in loaded.start.parents
            own = " (nor as its folder's own file)" if item.path.name in CLAUDE_FAMILY and walked else ""
            yield Finding(
                origin.path, origin.line,
                f"Claude Code does not load `{show(ctx, item.path)}` at start{own}: it reads a rule's includes as "
                f"rules, so the file's `paths:` ({patterns}) hold `@{origin.ref.written}` back until Claude reads a "
                "matching file; remove them to load it with the rule",
                column=origin.ref.column,
            )
