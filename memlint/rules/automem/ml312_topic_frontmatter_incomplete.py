"""A topic file's frontmatter lacks `name` or `description`.

## What it does
Reports topic files whose frontmatter has no non-empty `name` or no non-empty `description`
(or does not parse as YAML at all).

## Why is this bad?
Claude Code's memory scan lists each topic file with its `description`; that one line is what
Claude decides relevance by. Without it the memory shows as a bare file name. Without `name`, no
`[[name]]` link can reach the memory.

## Example
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md ~/.claude/projects/<project>/memory/deploy.md
---
name: deploy
---

Blue/green deploys, Fridays only.
```

Use instead:
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md ~/.claude/projects/<project>/memory/deploy.md
---
name: deploy
description: Blue/green deploys, Fridays only.
---

Blue/green deploys, Fridays only.
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._topics import all_topics
from memlint.violations import Finding

META = RuleMeta(
    code="ML312",
    slug="topic-frontmatter-incomplete",
    severity="warning",
    summary="a topic file's frontmatter has no `name` or no `description`",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for topic in all_topics(ctx):
        fm = topic.doc.frontmatter
        if fm is None:
            continue
        missing = [key for key, value in (("name", topic.name), ("description", topic.description)) if not value]
        if not missing:
            continue
        what = " and ".join(f"`{key}`" for key in missing)
        message = f"the frontmatter has no {what}"
        if fm.error:
            message = f"the frontmatter does not parse as YAML ({fm.error}), so it has no {what}"
        effects = []
        if "description" in missing:
            effects.append("Claude Code's memory scan shows the file name alone, with nothing to judge relevance by")
        if "name" in missing:
            effects.append("no `[[name]]` link can reach this memory")
        yield Finding(topic.path, 1, f"{message}: {'; '.join(effects)}")
