"""MEMORY.md holds content that is not an index: paragraphs, sections with bodies, code, lists of detail.

## What it does
Reports, once per MEMORY.md and listing where, the blocks that are not one-line index entries
`- [Title](file.md) — hook`: a heading with a body, a paragraph, a code block, a table, a list of
detail, lines continuing an entry. A short introduction under the title is accepted; an entry over
200 characters is ML303's, and blocks past Claude Code's 200-line cut are ML301's (never loaded).
What the `split-memory-index` fix keeps in the index on purpose is not reported: standing
instructions, sections marked always-on, lines that link an existing topic file, comments. Only an
index over the 140 lines or 17,500 UTF-16 units Claude Code's write guard asks for is looked at:
below that, detail in the index is the author's choice and costs little.

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
The full suite takes about four minutes.
- run {1..140}: the nightly suite passed on the shared runner
```
(`run {1..140}` stands for 140 lines: the index is over the write guard's 140-line target.)

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
The fix is ML301's `split-memory-index`, the same verified transformation (`memlint explain ML301`
says what each stage moves and keeps): unsafe under `check --fix`, applied by `memlint fix`. Here it
moves the detail this finding lists into topic files, verbatim, with one entry each; standing
instructions, sections marked always-on, entries and comments stay byte for byte.

## Options
- `default-type` (default `"project"`): the `metadata.type` of a split-off topic file when its
  title does not say (user, feedback, project or reference).
- `intro-lines` (default `3`): how many lines of introduction under the title are part of an index.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._common import (
    MemoryIndex,
    auto_memory_indexes,
    cut_entries,
    loaded_every_session,
    planned_split,
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


def _kept(mem: MemoryIndex, block: Block) -> bool:
    """The block is standing instructions (each line one), which the index keeps."""
    from memlint.model.text.instructions import (
        is_instruction,  # 5 ms of regexes: only for an index with blocks
    )

    lines = mem.index.lines
    rows = [i for i in range(block.first, block.last + 1) if lines.kind(i) != "blank"]
    return bool(rows) and all(is_instruction(lines.content(i)) for i in rows if lines.kind(i) != "heading")


def check(ctx: RuleContext) -> Iterator[Finding]:
    intro_lines = int(ctx.options.get("intro-lines", 3))
    for mem in auto_memory_indexes(ctx, intro_lines):
        # An over-long entry is still an entry (ML303's); blocks past the cut are never loaded (ML301's).
        last_loaded, _ = cut_entries(mem)
        blocks = [b for b in mem.index.blocks
                  if b.kind != "long-entry" and mem.index.block_lines(b)[0] <= last_loaded and not _kept(mem, b)]
        plan = planned_split(ctx, mem)  # (None under the write guard's 140-line / 17,500-unit target)
        if not blocks or plan is None or (plan.floor is None and not plan.moved_detail):
            continue  # what is left is what the split keeps: instructions, and lines as short as their entry
        count = sum(len(mem.index.block_lines(b)) for b in blocks)
        what = "is detail, not a one-line index entry" if count == 1 else "are detail, not one-line index entries"
        cost = "this line costs" if count == 1 else f"these {count} lines cost"
        fix, _ = split_fix(ctx, mem)
        how = "; `memlint fix` splits it" if fix is not None else " by hand (no split makes MEMORY.md load whole: ML301)"
        yield Finding(
            mem.path,
            mem.index.block_lines(blocks[0])[0],
            f"{_where(mem, blocks)} {what}: {loaded_every_session(ctx, mem.path)}, so {cost} context each time and "
            f"{'uses' if count == 1 else 'use'} up its 200-line / 25,000-unit MEMORY.md limit; move the detail into "
            f"topic files and keep one line `- [Title](file.md) — hook` for each{how}",
            end_line=mem.index.block_lines(blocks[-1])[-1],
            fix=fix,
            headline=_headline(mem, blocks, count, fix is not None),
        )


def _headline(mem: MemoryIndex, blocks: list[Block], count: int, fixable: bool) -> str:
    """The finding's first line: how much detail, which sections by name, and what to do."""
    named = ", ".join(f"'{b.title}'" for b in blocks[:3]) + (", \u2026" if len(blocks) > 3 else "")
    what = "block" if len(blocks) == 1 else "blocks"
    return (f"{count} line{'' if count == 1 else 's'} of MEMORY.md in {len(blocks)} {what} ({named}) "
            f"{'is' if count == 1 else 'are'} detail loaded into every session, not one-line index entries; "
            + ("`memlint fix` moves them into topic files" if fixable else "move them into topic files by hand"))
