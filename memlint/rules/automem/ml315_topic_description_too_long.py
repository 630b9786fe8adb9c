"""A topic file's `description` is over one line or over 150 characters.

## What it does
Reports descriptions that hold a line break, or that are longer than 150 characters: a threshold
of memlint's own (Claude Code sets no length; it asks for "one specific line").

## Why is this bad?
Claude Code's memory scan prints each memory on one line, `- [type] file.md (date): description`.
A multi-line description breaks that list; a long one spends context on every scan and is meant
to be "one specific line" saying what the memory holds.

## Example
```md MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md deploy.md
---
name: deploy
description: |
  Blue/green deploys.
  Fridays only.
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
---

Blue/green deploys, Fridays only.
```

## Options
- `max-chars` (default `150`): the longest description accepted.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.engine import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._topics import all_topics
from memlint.violations import Finding

META = RuleMeta(
    code="ML315",
    slug="topic-description-too-long",
    severity="warning",
    summary="a topic file's description is over one line or over memlint's 150-character limit",
    options={"max-chars": 150},
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    limit = int(ctx.options.get("max-chars", 150))
    for topic in all_topics(ctx):
        description = topic.description
        if description is None:
            continue
        lines = description.strip().count("\n") + 1
        problems = []
        if lines > 1:
            problems.append(f"spans {lines} lines, which break the one-line list of Claude Code's memory scan")
        if len(description.strip()) > limit:
            problems.append(f"is {len(description.strip())} characters, over memlint's limit of {limit} (Claude Code "
                            "sets none, but asks for one specific line, and sends every description to each "
                            "memory scan)")
        if problems:
            yield Finding(topic.path, topic.key_line("description"), f"the description {' and '.join(problems)}; "
                          "keep it to one specific line")
