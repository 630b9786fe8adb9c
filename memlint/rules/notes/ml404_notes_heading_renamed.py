"""A session-notes heading differs slightly from its template heading.

## What it does
Reports a section heading that is close to a template heading it stands for but not identical:
other case or spelling (`# Errors and Corrections` for `# Errors & Corrections`), another heading
level (`## Current State`), a typo. The message names the template heading.

## Why is this bad?
Claude Code tells the model to keep every heading exactly as the template has it. Tools and
sessions that look a section up by its heading (the budget checks, "Current State first") miss a
renamed one, and the next update may add a second, correctly named section beside it.

## Example
```md session-memory/summary.md
# Session Title
_A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_
Checkout flow retry bug

# Current state
_What is actively being worked on right now? Pending tasks not yet completed. Immediate next steps._
Writing the regression test.
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
Unsafe: the fix replaces the heading line with the template's heading. The section's text stays
as it is, but the heading the agent reads changes (and with it, possibly, the user's wording).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from memlint.rules import RuleMeta
from memlint.rules.notes.files import keeper, notes_files, template_name
from memlint.rules.notes.repair import rename_heading
from memlint.violations import Finding

if TYPE_CHECKING:
    from memlint.model.run.rule_context import RuleContext

META = RuleMeta(
    code="ML404",
    slug="notes-heading-renamed",
    severity="warning",
    summary="A session-notes heading is a renamed template heading",
    fix="unsafe",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for nf in notes_files(ctx):
        notes = nf.notes
        if notes.template_at_other_level:
            continue  # made from a copy of the template with `##` headings: nothing was renamed
        for section in notes.sections:
            if section.template_index is None or section.exact or section.duplicate:
                continue
            assert section.heading is not None
            expected = notes.template.sections[section.template_index].heading
            yield Finding(
                nf.path, section.heading.number,
                f"heading `{section.heading.text.strip()}` is a renamed `{expected}` of "
                f"{template_name(notes.template)}: {keeper(ctx, notes.template)}, and a look-up of "
                f"`{expected}` misses it; rename it back",
                fix=rename_heading(nf.path, notes, section),
            )
