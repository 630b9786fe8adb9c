"""A rules file has skill-style frontmatter (`name`, `description`) and no `paths:`: it loads at every start.

## What it does
Reports a file under `.claude/rules/` whose frontmatter names it and describes when to use it
(`name:` or `description:`, as a skill's `SKILL.md` does) but has no `paths:`, so Claude Code
loads it whole at every session start. A rule with `globs:`/`applyTo:` is ML504's.

## Why is this bad?
A description reads like a trigger ("use when writing migrations"), but Claude Code does not read
it for rules: every rules file without `paths:` is loaded into every session, whatever it
says. The author meant an on-demand instruction and pays for it in every conversation. A skill
(`.claude/skills/<name>/SKILL.md`) is loaded by its description; a rule with `paths:` is
loaded when Claude reads a matching file.

## Example
```md .claude/rules/migrations.md
---
name: migrations
description: Use when writing database migrations
---
Every migration needs a down step.
```

Use instead:
```md .claude/rules/migrations.md
---
paths: db/migrations/**
---
Every migration needs a down step.
```
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memlint.model.cli_js.jstext import utf16_len
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.frontmatter import rule_paths
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._common import rule_files
from memlint.violations import Finding

META = RuleMeta(
    code="ML515",
    slug="rule-skill-frontmatter",
    severity="warning",
    summary="A rules file with skill-style name/description and no paths: loads at every start",
)

_CONDITION_KEYS = ("paths", "globs", "applyTo", "alwaysApply")


def check(ctx: RuleContext) -> Iterator[Finding]:
    for path, doc in rule_files(ctx):
        fm = doc.frontmatter
        if fm is None or fm.error is not None or not isinstance(fm.data, dict):
            continue
        data = fm.data
        skill_keys = [k for k in ("name", "description") if isinstance(data.get(k), str) and data[k].strip()]
        if not skill_keys or any(k in data for k in _CONDITION_KEYS[1:]) or rule_paths(data) is not None:
            continue
        match = re.search(rf"^{skill_keys[-1]}[ \t]*:", fm.raw, re.MULTILINE)
        line = 2 + fm.raw.count("\n", 0, match.start()) if match else 1
        keys = " and ".join(f"`{k}:`" for k in skill_keys)
        yield Finding(
            path,
            line,
            f"`{show(ctx, path)}` has {keys} like a skill but no `paths:`: Claude Code does not read a rule's "
            f"description; it loads every rules file without `paths:` into every session, so this one's "
            f"{utf16_len(doc.body.strip()):,} characters are always in context; give it `paths:` to load it "
            "when Claude reads matching files, or make it a skill (`.claude/skills/<name>/SKILL.md`) to load it "
            "by its description",
        )
