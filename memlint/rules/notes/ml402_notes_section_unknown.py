"""A session-notes file has a section its template does not have, or has one twice.

## What it does
Reports each section of a session-notes file whose heading matches no section of the template
(not even nearly: a near miss is ML404), and each second copy of a template section.

## Why is this bad?
Claude Code's update instructions say to keep the template's sections and add no new ones, so
the model may fold an extra section into another one or drop it at the next update; a section
that appears twice splits its notes, and the next session may read only one half.

## Example
```md session-memory/summary.md
# Session Title
_A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_
Checkout flow retry bug

# Scratch
Ideas for later: idempotency keys.
```

Use instead:
```md session-memory/summary.md
# Session Title
_A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_
Checkout flow retry bug
```
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from memlint.rules import RuleMeta
from memlint.rules.notes.files import keeper, notes_files, template_name
from memlint.violations import Finding

if TYPE_CHECKING:
    from memlint.model.run.rule_context import RuleContext

META = RuleMeta(
    code="ML402",
    slug="notes-section-unknown",
    severity="warning",
    summary="A session-notes section is not in the template, or appears twice",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for nf in notes_files(ctx):
        notes = nf.notes
        present = notes.present()
        for section in notes.sections:
            assert section.heading is not None
            heading = section.heading.text.strip()
            if section.template_index is None:
                message = (
                    f"section `{heading}` is not in {template_name(notes.template)}: {keeper(ctx, notes.template)} "
                    "and to add no section, so the next update may fold this text into another section or drop "
                    "it; move it into the template section it belongs to"
                )
            elif section.duplicate:
                first = present[section.template_index]
                assert first.heading is not None
                message = (
                    f"section `{heading}` is a second copy of `{first.heading.text.strip()}` (line "
                    f"{first.heading.number}): the template has it once, and the next update may keep only one "
                    "of the two; merge this text into the other"
                )
            else:
                continue
            yield Finding(nf.path, section.heading.number, message)
