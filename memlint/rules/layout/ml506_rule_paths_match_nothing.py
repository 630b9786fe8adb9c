"""No file in the project matches a conditional rule's `paths:`, so the rule is dead.

## What it does
Lists the files below the folder that holds `.claude/` (skipping `.git`, `node_modules` and
virtual environments) and reports a conditional rule none of whose `paths:` patterns matches any of
them, matched the way Claude Code does (gitignore rules, relative to that folder). Patterns that
can never match anything at all are reported by ML507 instead. A folder that holds nothing but
memory files (a copy of the memory alone, not a checkout) is not judged.

## Why is this bad?
Claude Code loads a conditional rule only when Claude reads a file its `paths:` matches. When no
such file exists, usually because a folder was renamed or the pattern has a typo (`scr/**`,
`*.tsx` for a Vue project), the rule never loads and its instructions are silently lost.

## Example
```md .claude/rules/api.md
---
paths: src/api/**
---
Validate every request body.
```
```md server/api/users.ts
export {};
```

Use instead:
```md .claude/rules/api.md
---
paths: server/api/**
---
Validate every request body.
```
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path

from memlint.model.cli_js.globs import PathIndex, any_matches
from memlint.model.loading.discovery import classify
from memlint.model.loading.projectfiles import project_files
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.frontmatter import rule_paths
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._common import find_key, never_matches, rule_base, rule_files
from memlint.violations import Finding

META = RuleMeta(
    code="ML506",
    slug="rule-paths-match-nothing",
    severity="warning",
    summary="No file in the project matches a conditional rule's paths:",
)


def _ordinary(relative: str) -> bool:
    """A file that is neither memory nor under `.claude/`: one a rule could be written for."""
    return not relative.startswith(".claude/") and "/.claude/" not in relative and classify(Path(relative)) is None


def _has_ordinary(ctx: RuleContext, base: Path, files: tuple[str, ...]) -> bool:
    """Whether the folder holds a file that is not memory (computed once per folder and run)."""
    return ctx.once(("has-ordinary-file", base), lambda: any(_ordinary(f) for f in files))


def check(ctx: RuleContext) -> Iterator[Finding]:
    for path, doc in rule_files(ctx):
        fm = doc.frontmatter
        base = rule_base(path)
        if fm is None or fm.error is not None or base is None:
            continue
        patterns = rule_paths(fm.data)
        if not patterns:
            continue
        files = project_files(ctx.workspace, base)
        if files is None or not _has_ordinary(ctx, base, files):
            continue  # not a checkout: only memory files were copied here
        if all(never_matches(p, base, files) is not None for p in patterns):
            continue  # ML507
        index = ctx.once(("path-index", base), partial(PathIndex, files))
        if any_matches(tuple(patterns), files, index):
            continue
        block = find_key(doc.text, fm, "paths")
        folder = show(ctx, base)
        where = "the project" if folder == "." else f"`{folder}`"
        shown = ", ".join(f"`{p}`" for p in patterns)
        yield Finding(
            path,
            block.line if block is not None else 1,
            f"Claude Code never loads `{show(ctx, path)}`: no file in {where} ({len(files)} file{'s' if len(files) != 1 else ''}) matches its "
            f"`paths:` {shown}; fix the patterns or remove the rule",
        )
