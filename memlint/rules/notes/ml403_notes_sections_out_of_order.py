"""The sections of a session-notes file are not in template order.

## What it does
Opt-in (`--select ML403` or `extend-select`): the order is a convention of the template; the
notes read the same in any order, so the default run leaves it out.
Compares the order of the template sections found in a session-notes file (exact or renamed
headings) with the template's order, and reports the first section that comes too early.

## Why is this bad?
Claude Code writes session notes from its template and edits them in place, section by section;
the next session reads them top to bottom expecting the title, then the current state, and so on.
Shuffled sections make the notes harder to continue from and harder to diff against the template.

## Example
```md session-memory/summary.md
# Current State
_What is actively being worked on right now? Pending tasks not yet completed. Immediate next steps._
Writing the regression test.

# Session Title
_A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_
Checkout flow retry bug
```

Use instead:
```md session-memory/summary.md
# Session Title
_A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_
Checkout flow retry bug

# Current State
_What is actively being worked on right now? Pending tasks not yet completed. Immediate next steps._
Writing the regression test.
```

## Fix safety
Unsafe: the fix moves whole sections (heading, description and every line under it, verbatim)
into template order; a section not in the template moves with the template section above it, and
text before the first heading stays first. Nothing is deleted or reworded, but the order the agent
reads changes.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING

from memlint.rules import RuleMeta
from memlint.rules.notes.files import notes_files, template_name
from memlint.rules.notes.repair import reorder
from memlint.violations import Finding

if TYPE_CHECKING:
    from memlint.model.run.rule_context import RuleContext

META = RuleMeta(
    default=False,
    code="ML403",
    slug="notes-sections-out-of-order",
    severity="info",
    summary="Session-notes sections are not in template order",
    fix="unsafe",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for nf in notes_files(ctx):
        notes = nf.notes
        placed = [s for s in notes.sections if s.template_index is not None and not s.duplicate]
        for before, after in itertools.pairwise(placed):
            assert before.template_index is not None and after.template_index is not None
            if after.template_index > before.template_index:
                continue
            assert before.heading is not None and after.heading is not None
            sections = notes.template.sections
            expected = sections[after.template_index].heading
            yield Finding(
                nf.path, after.heading.number,
                f"section `{after.heading.text.strip()}` comes after `{before.heading.text.strip()}` (line "
                f"{before.heading.number}), but {template_name(notes.template)} puts `{expected}` before "
                f"`{sections[before.template_index].heading}`: the next session reads the notes out of their "
                "usual order; move the sections back into template order",
                fix=reorder(nf.path, notes, nf.doc.newline),
            )
            break
