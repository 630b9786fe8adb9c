"""A session-notes file is over its total token budget.

## What it does
Estimates the whole notes file the way Claude Code budgets it, round(characters / 4) in UTF-16
units, against 12,000 tokens. The message gives every section's size against the section budget
and which sections to condense first (the largest, keeping Current State and Errors & Corrections).

## Why is this bad?
Over 12,000 tokens, Claude Code told the model to condense the notes, keeping Current State and
Errors & Corrections; until then every session that reads them pays for the excess. memlint
reports what to condense and never shortens text itself.

## Example
```md .memlint.toml
[options.notes-over-total-budget]
total-budget = 30
```
```md session-memory/summary.md
# Session Title
_A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_
Checkout flow retry bug
```

Use instead:
```md session-memory/summary.md
# Session Title
```

## Options
- `total-budget` (int, 12000): the most tokens the whole file may hold.
- `section-budget` (int, 2000): the per-section budget shown in the size table.
- `tokenizer` (`"chars4"` or `"cl100k"`, `"chars4"`): `chars4` is Claude Code's own estimate,
  `cl100k` a closer count of what the text costs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from memlint.model.memory.notes_budget import advice, estimator, sizes, table
from memlint.model.text.tokens import TOKENIZERS
from memlint.rules import RuleMeta
from memlint.rules.notes.files import notes_files
from memlint.violations import Finding

if TYPE_CHECKING:
    from memlint.model.run.rule_context import RuleContext

META = RuleMeta(
    code="ML407",
    slug="notes-over-total-budget",
    severity="warning",
    summary="A session-notes file is over its total token budget",
    options={"total-budget": 12000, "section-budget": 2000, "tokenizer": "chars4"},
    choices={"tokenizer": TOKENIZERS},
    ranges={"total-budget": "> 0", "section-budget": "> 0"},
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    total_budget = int(ctx.options["total-budget"])
    budget = int(ctx.options["section-budget"])
    count, label = estimator(ctx.options["tokenizer"])
    for nf in notes_files(ctx):
        total = count(nf.notes.text)
        if total <= total_budget:
            continue
        rows = sizes(nf.notes, count)
        yield Finding(
            nf.path, 1,
            f"the notes are ~{total:,} tokens ({label}), over the {total_budget:,}-token total: Claude Code tells "
            f"the model to condense them. Sizes: {table(rows, budget) or 'no sections'}; "
            f"{advice(rows, total - total_budget, budget)}",
        )
