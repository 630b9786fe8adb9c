"""A session-notes section is over its token budget.

## What it does
Estimates each section's size the way Claude Code budgets session notes: the trimmed text under
the heading (description line included), round(characters / 4) in UTF-16 units, against 2,000
tokens a section. The message lists every section's size against the budget.

## Why is this bad?
Claude Code told the model to condense a section over 2,000 tokens, and at compaction cut a
section over 8,000 characters at a line boundary with `[... section truncated for length ...]`:
the end of it (often the latest work) is lost. memlint reports the size; condensing the text is a
job for a person or a model, and memlint never shortens it.

## Example
```md .memlint.toml
[options.notes-section-over-budget]
section-budget = 35
```
```md session-memory/summary.md
# Worklog
_Step by step, what was attempted, done? Very terse summary for each step_
- Tried the retry with a fresh idempotency key: double charge gone, but the refund path broke.
```

Use instead:
```md session-memory/summary.md
# Worklog
_Step by step, what was attempted, done? Very terse summary for each step_
- Fresh idempotency key: fixed.
```

## Options
- `section-budget` (int, 2000): the most tokens a section may hold.
- `tokenizer` (`"chars4"` or `"cl100k"`, `"chars4"`): `chars4` is Claude Code's own estimate,
  `cl100k` a closer count of what the text costs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from memlint.model.memory.notes_budget import TRUNCATE_CHARS, estimator, sizes, table
from memlint.model.text.tokens import TOKENIZERS
from memlint.rules import RuleMeta
from memlint.rules.notes.files import notes_files
from memlint.violations import Finding

if TYPE_CHECKING:
    from memlint.model.run.rule_context import RuleContext

META = RuleMeta(
    code="ML406",
    slug="notes-section-over-budget",
    severity="warning",
    summary="A session-notes section is over its token budget",
    options={"section-budget": 2000, "tokenizer": "chars4"},
    choices={"tokenizer": TOKENIZERS},
    ranges={"section-budget": "> 0"},
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    budget = int(ctx.options["section-budget"])
    count, label = estimator(ctx.options["tokenizer"])
    for nf in notes_files(ctx):
        rows = sizes(nf.notes, count)
        for row in rows:
            if row.tokens <= budget:
                continue
            assert row.section.heading is not None
            cut = (f" It is {row.chars:,} characters, over {TRUNCATE_CHARS:,}: at compaction Claude Code cuts it "
                   "at a line boundary and its end is lost." if row.chars > TRUNCATE_CHARS else "")
            yield Finding(
                nf.path, row.section.heading.number,
                f"section `{row.heading}` is ~{row.tokens:,} tokens ({label}), over its {budget:,}-token budget: "
                f"Claude Code tells the model to condense it.{cut} Sizes: {table(rows, budget)}",
            )
