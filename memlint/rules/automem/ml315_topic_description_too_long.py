"""A topic file's `description` is over one line or over 150 characters.

Opt-in (`--select ML315` or `extend-select`): the 150-character limit is memlint's own (Claude Code
sets none), so the default run leaves it out.

## What it does
Reports each description that holds a line break, and, once per memory folder listing the files,
descriptions longer than 150 characters: a threshold of memlint's own (Claude Code sets no length;
it asks for "one specific line").

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
from pathlib import Path

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._topics import Topic, all_topics
from memlint.violations import Finding

_SHOWN = 5

META = RuleMeta(
    code="ML315",
    slug="topic-description-too-long",
    severity="warning",
    summary="a topic file's description is over one line or over memlint's 150-character limit",
    options={"max-chars": 150},
    ranges={"max-chars": "> 0"},
    default=False,
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    limit = int(ctx.options.get("max-chars", 150))
    long: dict[Path, list[tuple[Topic, int]]] = {}
    for topic in all_topics(ctx):
        description = topic.description
        if description is None:
            continue
        lines = description.strip().count("\n") + 1
        if lines > 1:
            yield Finding(topic.path, topic.key_line("description"), f"the description spans {lines} lines, which "
                          "break the one-line list of Claude Code's memory scan; keep it to one specific line")
        elif len(description.strip()) > limit:
            long.setdefault(topic.path.parent, []).append((topic, len(description.strip())))
    for found in long.values():  # one habit of the folder: one finding, listing where
        shown = ", ".join(f"`{t.path.name}` ({n})" for t, n in found[:_SHOWN])
        if len(found) > _SHOWN:
            shown += f", \u2026 ({len(found)} in all)"
        first = found[0][0]
        yield Finding(
            first.path,
            first.key_line("description"),
            f"{f'the description of {shown} is' if len(found) == 1 else f'{len(found)} descriptions, of {shown}, are'}"
            f" over memlint's limit of {limit} characters (Claude Code "
            "sets none, but asks for one specific line and sends every description to each memory scan); keep "
            "each to one line that says what the memory holds",
        )
