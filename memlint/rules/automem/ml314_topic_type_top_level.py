"""A topic file gives its type as a top-level `type:` (the format before Claude Code 2.1).

## What it does
Opt-in (`--select ML314` or `extend-select`): it restates a convention and changes nothing
Claude Code does, so the default run leaves it out.
Reports topic files whose frontmatter has a top-level `type:` key and no `metadata.type`.

## Why is this bad?
It is not: Claude Code 2.1 still reads a top-level `type:` (it merges top-level keys into the
metadata). But it now writes the type under `metadata:`, so files of both formats end up side by
side; this is information for a clean-up.

## Example
```md MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md deploy.md
---
name: deploy
description: Blue/green deploys, Fridays only.
type: project
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
from memlint.rules.automem._topics import all_topics
from memlint.violations import Finding

META = RuleMeta(
    default=False,
    code="ML314",
    slug="topic-type-top-level",
    severity="info",
    summary="a topic file's type is a top-level `type:` (older format)",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for topic in all_topics(ctx):
        data = topic.data
        if not data or "type" not in data:
            continue
        meta = data.get("metadata")
        if isinstance(meta, dict) and "type" in meta:
            continue
        yield Finding(
            topic.path,
            topic.key_line("type"),
            "`type:` is at the top level (the format before Claude Code 2.1): Claude Code still reads it, but now "
            "writes it as `metadata:` / `  type: ...`",
        )
