"""A rule says `globs:`, `applyTo:` or `alwaysApply: false` instead of `paths:`, so Claude Code loads it at every start.

## What it does
Reports a rule file under `.claude/rules/` whose frontmatter has no `paths:` key but has Cursor's
`globs:` or `alwaysApply: false`, or GitHub Copilot's `applyTo:`.

## Why is this bad?
Claude Code reads only `paths:` to make a rule conditional. Every other key is ignored, so a rule
written for Cursor or Copilot that should load only for some files is loaded in every session,
costing context and mixing unrelated instructions into every task.

## Example
```md .claude/rules/react.md
---
globs: src/components/**/*.tsx
alwaysApply: false
---
Components are function components.
```

Use instead:
```md .claude/rules/react.md
---
paths: src/components/**/*.tsx
alwaysApply: false
---
Components are function components.
```

## Fix safety
When the rule has a non-empty `globs:` or `applyTo:` (and not both), the fix renames that key to
`paths:`. It is unsafe: the rule then loads only when Claude reads a matching file.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.model.text.frontmatter import rule_paths
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._common import KeyBlock, key_blocks, rule_files
from memlint.violations import Applicability, Edit, Finding, Fix

META = RuleMeta(
    code="ML504",
    slug="rule-uses-globs",
    severity="warning",
    summary="A rule uses globs:, applyTo: or alwaysApply: instead of paths:",
    fix="unsafe",
)

_GLOB_KEYS = ("globs", "applyTo")


def check(ctx: RuleContext) -> Iterator[Finding]:
    for path, doc in rule_files(ctx):
        fm = doc.frontmatter
        if fm is None or fm.error is not None or "paths" in fm.data:
            continue
        data = fm.data
        with_globs = [k for k in _GLOB_KEYS if k in data and rule_paths({"paths": data[k]})]
        manual = data.get("alwaysApply") is False
        if not with_globs and not manual:
            continue
        blocks = {b.key: b for b in key_blocks(doc.text, fm)}
        where = show(ctx, path)
        fix = None
        if with_globs:
            key = with_globs[0]
            patterns = rule_paths({"paths": data[key]}) or []
            message = (
                f"Claude Code loads `{where}` at every start: it ignores `{key}:` and reads only `paths:`, "
                f"so the rule does not wait for a file matching {', '.join(patterns)}; write `paths:`"
            )
            block: KeyBlock | None = blocks.get(key)
            if len(with_globs) == 1 and block is not None:
                edit = Edit(path, block.start, block.start + len(key), "paths")
                fix = Fix(f"Rename `{key}:` to `paths:`", Applicability.UNSAFE, (edit,))
        else:
            block = blocks.get("alwaysApply")
            message = (
                f"Claude Code loads `{where}` at every start: it ignores `alwaysApply: false` (a Cursor key) "
                "and the rule has no `paths:`; give it `paths:` to load it only for matching files"
            )
        line = block.line if block is not None else 1
        yield Finding(path, line, message, fix=fix)
