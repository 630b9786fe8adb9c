"""A pattern in a rule's `paths:` can never match: it starts with `../` or `./`, is an absolute path, or has an unclosed `[`.

## What it does
Reports each pattern of a conditional rule's `paths:` that no file Claude reads can ever match:
patterns starting with `../`, `./` or `~`, absolute filesystem paths (`/home/dev/app/src/**`),
Windows paths, `\\` used as a separator, and patterns with a `[` that is never closed (often left
by `paths: [src/**` missing its `]`). A leading `/` on its own is fine: it anchors the pattern at
the folder that holds `.claude/`.

## Why is this bad?
Claude Code matches `paths:` with gitignore rules against the path of the file Claude reads,
relative to the folder that holds `.claude/`. Such a path never starts with `../` or `./`, never
holds a `\\`, and is never absolute, so the pattern never fires and its part of the rule never loads.

## Example
```md .claude/rules/api.md
---
paths: ./src/api/**
---
Validate every request body.
```
```md src/api/users.ts
export {};
```

Use instead:
```md .claude/rules/api.md
---
paths: src/api/**
---
Validate every request body.
```

## Fix safety
For a pattern starting with `./` the fix removes the `./`. It is unsafe: the rule then loads when
Claude reads a matching file. Other patterns are not fixed: what was meant is for a person to say.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.loading.projectfiles import project_files
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.frontmatter import rule_paths
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._common import find_key, never_matches, rule_base, rule_files
from memlint.violations import Applicability, Edit, Finding, Fix

META = RuleMeta(
    code="ML507",
    slug="rule-pattern-never-matches",
    severity="warning",
    summary="A pattern in a rule's paths: can never match a file",
    fix="unsafe",
)


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
        block = find_key(doc.text, fm, "paths")
        seen: set[tuple[int, str]] = set()
        for pattern in patterns:
            reason = never_matches(pattern, base, files)
            if reason is None:
                continue
            at = -1
            if block is not None:
                at = doc.text.find(pattern, block.start, block.end)
            line = doc.line_of_offset(at) if at != -1 else (block.line if block is not None else 1)
            if (line, reason) in seen:
                continue
            seen.add((line, reason))
            fix = None
            if at > 0 and doc.text[at - 1] == ".":
                at = -1
            if at != -1 and pattern.startswith("./") and len(pattern) > 2:
                fix = Fix(f"Remove the `./` from `{pattern}`", Applicability.UNSAFE, (Edit(path, at, at + 2, ""),))
            column = at - doc.text.rfind("\n", 0, at) if at != -1 else 1
            yield Finding(
                path,
                line,
                f"Claude Code never loads `{show(ctx, path)}` for the pattern `{pattern}`: it {reason}",
                column=column,
                fix=fix,
            )
