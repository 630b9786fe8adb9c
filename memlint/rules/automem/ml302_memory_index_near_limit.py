"""MEMORY.md is at 80% of Claude Code's limits (160 lines or 20,000 UTF-16 units): its write guard warns.

## What it does
Reports a MEMORY.md that Claude Code still loads whole but that has reached 80 % of the cut of 200
lines or 25,000 UTF-16 units: the point where Claude Code's own write guard starts telling the
agent, after every write of the index, to compact it. The message quotes what the guard says for the
modelled release and how much room is left; the guard's target is 70 % (140 lines or 17,500 units).
On 2.1.197 and 2.1.198 the guard speaks only after a Write that a PostToolUse hook matches (such as
the one `memlint hook install` adds); without one nothing warns the agent, and the message says so.

## Why is this bad?
Claude appends to the index every time it saves a memory. Past the limit, entries at the end are
silently never seen again. Where the guard speaks, every write of an index this large also brings
its instruction to rewrite it, spending the agent's turns on compaction in the middle of unrelated
work; trimming it yourself now is cheaper.

## Example
```md ~/.claude/projects/<project>/memory/MEMORY.md
{bad}
```

Use instead:
```md ~/.claude/projects/<project>/memory/MEMORY.md
# Memory
- [Deploy](deploy.md) — how we ship to production
```

## Fix safety
The `split-memory-index` fix (see ML301) is unsafe but verified (`memlint fix` applies it): it moves just enough detail into new topic
files to bring the index under the 140-line / 17,500-unit target of Claude Code's write guard.
Entries and standing instructions stay; it is not offered when only entries are left to move.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.memory.automem import (
    GUARD_TARGET_LINES,
    GUARD_TARGET_UNITS,
    GUARD_WARN_LINES,
    GUARD_WARN_UNITS,
    MAX_LINES,
    MAX_UNITS,
    guard_text,
)
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._common import auto_memory_indexes, split_fix
from memlint.violations import Finding

__doc__ = __doc__.replace(
    "{bad}", "# Memory\n" + "\n".join(f"- [Note {n}](note-{n}.md) \u2014 fact number {n}" for n in range(1, 170))
)

META = RuleMeta(
    code="ML302",
    slug="memory-index-near-limit",
    severity="warning",
    summary="MEMORY.md is at 80% of the 200-line / 25,000-unit limit, where Claude Code's write guard warns",
    fix="unsafe",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for mem in auto_memory_indexes(ctx):
        t = mem.truncation
        if t.truncated or (t.line_count < GUARD_WARN_LINES and t.size < GUARD_WARN_UNITS):
            continue
        parts = []
        if t.line_count >= GUARD_WARN_LINES:
            parts.append(f"{t.line_count} of {MAX_LINES} lines ({MAX_LINES - t.line_count} left)")
        if t.size >= GUARD_WARN_UNITS:
            parts.append(f"{t.size:,} of {MAX_UNITS:,} UTF-16 units ({MAX_UNITS - t.size:,} left)")
        guard = guard_text(t.line_count, t.size, ctx.release, hooked=True)
        said = (
            f"after every write of it Claude Code {ctx.release.name}'s write guard tells the agent: `{guard}`"
            if ctx.release.memory_write_guard
            else f"Claude Code {ctx.release.name}'s write guard speaks only after a Write that a PostToolUse "
            f"hook matches (as `memlint hook install` adds one): then it tells the agent `{guard}`; "
            "without such a hook nothing warns the agent"
        )
        yield Finding(
            mem.path,
            1,
            f"MEMORY.md is {' and '.join(parts)}: Claude Code still loads it whole, but entries added past "
            f"the limit will be cut and never seen, and {said}; move detail into topic files until it is "
            f"under {GUARD_TARGET_LINES} lines and {GUARD_TARGET_UNITS:,} units",
            fix=split_fix(ctx, mem)[0],
        )
