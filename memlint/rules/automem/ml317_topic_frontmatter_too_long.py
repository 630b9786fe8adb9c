"""A topic file's frontmatter ends after line 30, where Claude Code's memory scan stops reading.

## What it does
Reports topic files whose frontmatter block closes after line 30.

## Why is this bad?
Claude Code's memory scan reads only the first 30 lines of each topic file to find its
frontmatter. A block closing later is not found: the memory shows with no description and no
type, as if it had no frontmatter.

## Example
```md MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
```

```md deploy.md
---
name: deploy
description: Blue/green deploys, Fridays only.
history:
  - change {1..29}
---

Blue/green deploys, Fridays only.
```
(`change {1..29}` stands for 29 lines, `change 1` to `change 29`.)

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

from memlint.model.memory.topicscan import SCAN_LINES
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._topics import TopicFile, topic_files
from memlint.violations import Finding

META = RuleMeta(
    code="ML317",
    slug="topic-frontmatter-too-long",
    severity="warning",
    summary="a topic file's frontmatter ends after line 30",
)


FILES = topic_files


def check_file(ctx: RuleContext, entry: TopicFile) -> Iterator[Finding]:
    topic = entry.topic()
    if topic is None:
        return
    fm = topic.doc.frontmatter
    if fm is None:
        return
    closing = fm.closing_line  # (the text, maybe let go on a large run, is not read again for it)
    if closing <= SCAN_LINES:
        return
    yield Finding(
        topic.path,
        closing,
        f"the frontmatter closes on line {closing}: Claude Code's memory scan reads only the first {SCAN_LINES} "
        "lines of a topic file, finds no frontmatter, and shows this memory with no description and no type; "
        "move the extra keys into the text",
    )
