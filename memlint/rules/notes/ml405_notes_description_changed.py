"""A session-notes section lacks its template description line, or has an edited one.

## What it does
Under each template section of a session-notes file, checks that the first non-blank line is the
template's italic description line, exactly. A line close to it is reported as edited; otherwise
the description is reported missing.

## Why is this bad?
Claude Code's template says the italic line under every heading must never be edited: it tells
the model, at every update, what belongs in the section. Without it (or with a reworded one) the
model guesses, and notes drift into the wrong sections.

## Example
```md session-memory/summary.md
# Session Title
Checkout flow retry bug
```

Use instead:
```md session-memory/summary.md
# Session Title
_A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_
Checkout flow retry bug
```

## Fix safety
Safe, for a missing line only: the fix puts the template's description line back right under
the heading and changes nothing else. An edited line is reported without a fix: it may hold the
user's words.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from memlint.rules import RuleMeta
from memlint.rules.notes.files import keeper, notes_files, template_name
from memlint.rules.notes.repair import put_back_description
from memlint.violations import Finding

if TYPE_CHECKING:
    from memlint.model.run.rule_context import RuleContext

META = RuleMeta(
    code="ML405",
    slug="notes-description-changed",
    severity="warning",
    summary="A session-notes section lacks its template description line, or has an edited one",
    fix="safe",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for nf in notes_files(ctx):
        from memlint.model.memory.notes_template import describes  # imported by runs that have notes only

        notes = nf.notes
        for section in notes.sections:
            if section.template_index is None or section.heading is None or section.duplicate:
                continue
            expected = notes.template.sections[section.template_index].description
            if expected is None:
                continue
            heading = section.heading.text.strip()
            line = section.description_line()
            if line is not None and line.text.strip() == expected:
                continue
            if line is not None and describes(line.text, expected):
                yield Finding(
                    nf.path, line.number,
                    f"the description line under `{heading}` was edited (template: `{expected}`): "
                    f"{keeper(ctx, notes.template)}, as the line tells the model what belongs in the section; "
                    "restore it and put any note of your own on the next line",
                )
                continue
            yield Finding(
                nf.path, section.heading.number,
                f"`{heading}` has lost its description line `{expected}` of {template_name(notes.template)}: "
                "it tells the model, at every update, what belongs in the section; put it back under the heading",
                fix=put_back_description(nf.path, notes, section, nf.doc.newline),
            )
