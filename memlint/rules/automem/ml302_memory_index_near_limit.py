"""MEMORY.md is past 80% of Claude Code's limits (160 lines or 20,000 UTF-16 units).

## What it does
Reports a MEMORY.md that Claude Code still loads whole but that is close to the cut of 200 lines or
25,000 UTF-16 units, with how much room is left.

## Why is this bad?
Claude appends to the index every time it saves a memory. Past the limit, entries at the end are
silently never seen again; trimming now is cheaper than finding out later.

## Example
```md MEMORY.md
{bad}
```

Use instead:
```md MEMORY.md
# Memory
- [Deploy](deploy.md) — how we ship to production
```

## Fix safety
The `split-memory-index` fix (see ML301) is unsafe: it moves just enough detail into new topic
files to bring the index under the 140-line / 17,500-unit target of Claude Code's write guard.
Entries and standing instructions stay; it is not offered when only entries are left to move.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.engine import RuleContext
from memlint.model.automem import MAX_LINES, MAX_UNITS
from memlint.rules import RuleMeta
from memlint.rules.automem._common import indexes, split_fix
from memlint.violations import Finding

__doc__ = __doc__.replace(
    "{bad}", "# Memory\n" + "\n".join(f"- [Note {n}](note-{n}.md) \u2014 fact number {n}" for n in range(1, 170))
)

META = RuleMeta(
    code="ML302",
    slug="memory-index-near-limit",
    severity="warning",
    summary="MEMORY.md is past 80% of the 200-line / 25,000-unit limit",
    fix="unsafe",
)

LINE_WARN = MAX_LINES * 80 // 100
UNIT_WARN = MAX_UNITS * 80 // 100


def check(ctx: RuleContext) -> Iterator[Finding]:
    for mem in indexes(ctx):
        t = mem.truncation
        if t.truncated or (t.line_count <= LINE_WARN and t.size <= UNIT_WARN):
            continue
        parts = []
        if t.line_count > LINE_WARN:
            parts.append(f"{t.line_count} of {MAX_LINES} lines ({MAX_LINES - t.line_count} left)")
        if t.size > UNIT_WARN:
            parts.append(f"{t.size:,} of {MAX_UNITS:,} UTF-16 units ({MAX_UNITS - t.size:,} left)")
        yield Finding(
            mem.path,
            1,
            f"MEMORY.md is {' and '.join(parts)}: Claude Code still loads it whole, but entries added past "
            "the limit will be cut and never seen; move detail into topic files now",
            fix=split_fix(ctx, mem)[0],
        )
