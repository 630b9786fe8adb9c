"""A topic file is over 200 lines or 4,096 bytes, so a recall reads only its start.

## What it does
Reports topic files longer than 200 lines or larger than 4,096 bytes (frontmatter included), and
the line where a recall stops.

## Why is this bad?
When Claude Code recalls a memory into the conversation it reads at most the first 200 lines and
4,096 bytes of the file, and appends a note that the memory was truncated. The rest is seen only if
Claude decides to read the whole file.

## Example
```md MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md deploy.md
---
name: deploy
description: Blue/green deploys, Fridays only.
---

- step {1..210}: check the blue pool, then switch
```
(`step {1..210}` stands for 210 lines, `step 1` to `step 210`.)

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
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.engine import RuleContext
from memlint.model.topicscan import RECALL_BYTES, RECALL_LINES
from memlint.rules import RuleMeta
from memlint.rules.automem._topics import all_topics
from memlint.violations import Finding

META = RuleMeta(
    code="ML319",
    slug="topic-over-recall-cap",
    severity="warning",
    summary="a topic file is over 200 lines or 4,096 bytes: a recall reads only its start",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for topic in all_topics(ctx):
        data = topic.doc.data
        lines = topic.doc.text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        over_lines, over_bytes = len(lines) > RECALL_LINES, len(data) > RECALL_BYTES
        if not over_lines and not over_bytes:
            continue
        # the line where the recall stops: the 200-line cut or the last whole line within 4,096 bytes
        stop = min(len(lines), RECALL_LINES)
        size = 0
        for number, line in enumerate(lines[:stop], 1):
            size += len(line.encode("utf-8")) + 1
            if size > RECALL_BYTES:
                stop = number - 1
                break
        what = []
        if over_lines:
            what.append(f"{len(lines)} lines (cap {RECALL_LINES})")
        if over_bytes:
            what.append(f"{len(data):,} bytes (cap {RECALL_BYTES:,})")
        yield Finding(
            topic.path,
            max(stop + 1, 1),
            f"the file is {' and '.join(what)}: when Claude recalls this memory, Claude Code reads only up to line "
            f"{stop} and notes that it was truncated; the rest is seen only if Claude reads the whole file",
        )
