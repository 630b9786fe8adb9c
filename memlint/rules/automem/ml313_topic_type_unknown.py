"""A topic file has no type, or a type that is not user, feedback, project or reference.

## What it does
Reports topic files with frontmatter whose type (`metadata.type`, or a top-level `type:`) is
missing or is not one of `user`, `feedback`, `project`, `reference` (lower case).

## Why is this bad?
Claude Code's memory scan shows each memory as `- [type] file.md (date): description`; an unknown
type is dropped, so Claude cannot tell a correction (`feedback`) from a project fact.

## Example
```md MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md deploy.md
---
name: deploy
description: Blue/green deploys, Fridays only.
metadata:
  type: notes
---

Blue/green deploys, Fridays only.
```

Use instead:
```md MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md deploy.md
---
name: deploy
description: Blue/green deploys, Fridays only.
metadata:
  type: project
---

Blue/green deploys, Fridays only.
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._topics import TYPES, all_topics
from memlint.violations import Finding

META = RuleMeta(
    code="ML313",
    slug="topic-type-unknown",
    severity="warning",
    summary="a topic file's type is missing or not user / feedback / project / reference",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    allowed = ", ".join(f"`{t}`" for t in TYPES)
    for topic in all_topics(ctx):
        if topic.doc.frontmatter is None:
            continue
        value = topic.metadata.get("type")
        if isinstance(value, str) and value in TYPES:
            continue
        meta = topic.data.get("metadata") if topic.data else None
        key = "metadata" if isinstance(meta, dict) and "type" in meta else "type"
        if value is None or value == "":
            what, line = "it has no type (`metadata:` / `type:`)", 1
        else:
            what, line = f"its type `{value}` is not one of {allowed}", topic.key_line(key)
        yield Finding(
            topic.path,
            line,
            f"{what}: Claude Code's memory scan lists it without a `[type]`, so Claude cannot tell what kind of "
            "memory it is",
        )
