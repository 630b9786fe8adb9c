"""A line of MEMORY.md is well over 200 characters.

## What it does
Reports, once per MEMORY.md and listing where, the index entries well over 200 characters
(UTF-16 units, as Claude Code counts them) among the lines Claude Code loads: more than 200 plus
the `tolerance` (default 10 %, so over 220). Claude Code's own figure is approximate ("under ~200
chars"), and an entry a few characters over it costs next to nothing; one well over it carries
detail that belongs in the topic file. Long lines of a detail block are ML304's; lines past the
200-line cut are ML301's.

## Why is this bad?
Claude Code tells Claude to keep index entries "to one line under ~200 chars". A long entry spends
the 25,000-unit budget of the index that every session loads, and detail belongs in the topic file.

## Example
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md) — we deploy with blue/green on Fridays only after the release manager has signed off in the release channel and the smoke tests of staging have passed twice in a row, and we never deploy during the on-call handover
```

Use instead:
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md) — blue/green on Fridays, after sign-off and two green staging runs
```

## Options
- `tolerance` (default `10`): how far, in percent of 200 characters, an entry may run over
  Claude Code's "~200" before it is reported; `0` reports every entry over 200.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.cli_js.jstext import utf16_len
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._common import auto_memory_indexes, cut_entries, loaded_every_session
from memlint.rules.automem._index import MAX_LINE_CHARS
from memlint.violations import Finding

_SHOWN = 5

META = RuleMeta(
    code="ML303",
    slug="memory-index-line-too-long",
    severity="warning",
    summary="a line of MEMORY.md is well over 200 characters",
    options={"tolerance": 10},
    ranges={"tolerance": ">= 0"},
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    # "~200": an entry within the tolerance of it is not reported (int: a length is a whole number)
    limit = int(MAX_LINE_CHARS * (1 + float(ctx.options.get("tolerance", 10)) / 100))
    for mem in auto_memory_indexes(ctx):
        last_loaded, _ = cut_entries(mem)
        # Entries only: a long line of a detail block is ML304's, a line past the cut is never loaded.
        long = [(e.line, utf16_len(e.line.content)) for e in mem.index.entries
                if len(e.line.content) * 2 > limit  # a character is at most 2 UTF-16 units
                and utf16_len(e.line.content) > limit and e.line.number <= last_loaded]
        if not long:
            continue
        shown = ", ".join(f"{line.number} ({size})" for line, size in long[:_SHOWN])
        if len(long) > _SHOWN:
            shown += f", \u2026 ({len(long)} in all)"
        total = sum(size for _, size in long)
        one = len(long) == 1
        yield Finding(
            mem.path,
            long[0][0].number,
            f"{'an index entry is' if one else f'{len(long)} index entries are'} over {limit} characters: line"
            f"{'' if one else 's'} {shown}. Claude Code asks for entries \"to one line under ~200 chars\"; "
            f"{loaded_every_session(ctx, mem.path)}, so {'it costs' if one else 'they cost'} {total:,} characters "
            "each time out of its 25,000-unit limit; keep a short hook here and move the detail into the topic file",
            column=MAX_LINE_CHARS + 1,
            end_line=long[-1][0].number,
        )
