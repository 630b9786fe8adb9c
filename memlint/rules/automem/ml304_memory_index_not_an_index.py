"""MEMORY.md holds content that is not an index: paragraphs, sections with bodies, code, lists of detail.

## What it does
Reports, once per MEMORY.md and listing where, the blocks that are not one-line index entries
`- [Title](file.md) — hook`: a heading with a body, a paragraph, a code block, a table, a list of
detail, lines continuing an entry. A short introduction under the title is accepted; an entry over
200 characters is ML303's, and blocks past Claude Code's 200-line cut are ML301's (never loaded).

## Why is this bad?
MEMORY.md is loaded into every session and cut at 200 lines: detail written into it costs context
every time and pushes real entries past the cut. Claude Code expects one line per memory, with the
detail in the memory's topic file, read on demand.

## Example
```md MEMORY.md
# Memory
- [Deploy](deploy.md) — how we ship to production

### Testing
Integration tests hit a real database.
Never mock the payment gateway.
```

```md deploy.md
---
name: deploy
description: how we ship to production
metadata:
  type: project
---
Blue/green, Fridays only.
```

Use instead:
```md MEMORY.md
# Memory
- [Deploy](deploy.md) — how we ship to production
- [Testing](testing.md) — Integration tests hit a real database.
```

## Fix safety
The `split-memory-index` fix is unsafe: when MEMORY.md is over the 140-line / 17,500-unit target
of Claude Code's write guard, it moves just enough detail, verbatim, into new topic files with
frontmatter to get under it (largest blocks first). Entries, lines that link an existing topic
file, standing instructions (`NEVER ...`, `Always ...`, `CRITICAL: ...`, sections titled Rules or
Critical) and comments stay byte-identical; a whole section becomes one entry titled with its
heading, placed under its parent heading; detail inside a section that keeps something becomes
one entry in its place. New files get unique lowercase names; no file is ever overwritten or
changed, and memlint refuses the fix unless every line of the old MEMORY.md is in the new one or
in exactly one new topic file. When the entries alone are over the limit, the message says which
are still cut; no entry is ever dropped.

## Options
- `default-type` (default `"project"`): the `metadata.type` of a split-off topic file when its
  title does not say (user, feedback, project or reference).
- `intro-lines` (default `3`): how many lines of introduction under the title are part of an index.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._common import (
    MemoryIndex,
    auto_memory_indexes,
    cut_entries,
    loaded_every_session,
    split_fix,
)
from memlint.rules.automem._index import Block
from memlint.rules.automem._topics import TYPES
from memlint.violations import Finding

META = RuleMeta(
    code="ML304",
    slug="memory-index-not-an-index",
    severity="warning",
    summary="MEMORY.md holds detail (paragraphs, sections, code, lists) instead of one-line entries",
    fix="unsafe",
    options={"default-type": "project", "intro-lines": 3},
    choices={"default-type": TYPES},
)

_WHAT = {
    "section": "a section with a body",
    "paragraph": "a paragraph",
    "code": "a code block",
    "list": "a list of detail",
    "table": "a table",
    "quote": "a block quote",
    "entry-detail": "detail under an entry",
}
_SHOWN = 4


def _where(mem: MemoryIndex, blocks: list[Block]) -> str:
    parts = []
    for block in blocks[:_SHOWN]:
        lines = mem.index.block_lines(block)
        where = f"lines {lines[0]}-{lines[-1]}" if len(lines) > 1 else f"line {lines[0]}"
        parts.append(f"{where} ({_WHAT[block.kind]} '{block.title}')")
    more = f", \u2026 ({len(blocks)} in all)" if len(blocks) > _SHOWN else ""
    return ", ".join(parts) + more


def check(ctx: RuleContext) -> Iterator[Finding]:
    for mem in auto_memory_indexes(ctx, int(ctx.options.get("intro-lines", 3))):
        # An over-long entry is still an entry (ML303's); blocks past the cut are never loaded (ML301's).
        last_loaded, _ = cut_entries(mem)
        blocks = [b for b in mem.index.blocks
                  if b.kind != "long-entry" and mem.index.block_lines(b)[0] <= last_loaded]
        if not blocks:
            continue
        count = sum(len(mem.index.block_lines(b)) for b in blocks)
        what = "is detail, not a one-line index entry" if count == 1 else "are detail, not one-line index entries"
        cost = "this line costs" if count == 1 else f"these {count} lines cost"
        fix, _ = split_fix(ctx, mem)
        yield Finding(
            mem.path,
            mem.index.block_lines(blocks[0])[0],
            f"{_where(mem, blocks)} {what}: {loaded_every_session(ctx, mem.path)}, so {cost} context each time and "
            f"{'uses' if count == 1 else 'use'} up its 200-line / 25,000-unit MEMORY.md limit; move the detail into "
            "topic files and keep one line `- [Title](file.md) — hook` for each",
            end_line=mem.index.block_lines(blocks[-1])[-1],
            fix=fix,
        )
