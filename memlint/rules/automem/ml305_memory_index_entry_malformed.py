"""An index entry of MEMORY.md is not of the form `- [Title](file.md) — hook`.

## What it does
Reports index entries of MEMORY.md that are only a link to a topic file, with no hook (a few words
after the link saying what the memory holds). A line that mentions a topic file inside a sentence
(a cross-reference) has words of its own and is left alone.

## Why is this bad?
Claude decides whether to open a topic file from its index line alone. With only a title, the
memory is easily overlooked.

## Example
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md)
- [Testing](testing.md) —
```

Use instead:
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays only
- [Testing](testing.md) — integration tests hit a real database
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.lazy_regex import compile_lazily
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._common import auto_memory_indexes
from memlint.violations import Finding

META = RuleMeta(
    code="ML305",
    slug="memory-index-entry-malformed",
    severity="warning",
    summary="an index entry is not `- [Title](file.md) — hook`",
)

_LINK_ONLY = compile_lazily(r"[-*+][ \t]+\[(?:[^\[\]\\]|\\.)+\]\([^)\s]+\)[ \t]*[\u2014\u2013:-]?[ \t]*")


def check(ctx: RuleContext) -> Iterator[Finding]:
    for mem in auto_memory_indexes(ctx):
        for entry in mem.index.entries:
            # A line that mentions a topic file inside a sentence is a cross-reference with words
            # of its own, not a bare entry: Claude reads its words.
            if not _LINK_ONLY.fullmatch(entry.line.content.rstrip()):
                continue
            yield Finding(
                mem.path,
                entry.line.number,
                f"entry '{entry.title}' is only a link: it has no hook (` — ` and a few words saying what the memory "
                "holds); Claude decides whether to read a topic file from its index line alone, so this memory is "
                f"easily overlooked; write `- [{entry.title}]({entry.target}) — hook`",
            )
