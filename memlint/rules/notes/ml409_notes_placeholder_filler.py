"""A session-notes section holds only placeholder filler such as "TBD" or "N/A".

## What it does
Reports a section of a session-notes file whose only text, besides its description line, is a
placeholder: `No info yet`, `TBD`, `N/A`, `None yet`, `TODO`, `...` and the like (alone, perhaps
as a list item or in italics).

## Why is this bad?
An empty section under its description already says "nothing yet". Filler costs tokens in every
session that reads the notes, looks like content to the model (which may keep or copy it), and
hides which sections really are empty.

## Example
```md session-memory/summary.md
# Learnings
_What has worked well? What has not? What to avoid? Do not duplicate items from other sections_
TBD
```

Use instead:
```md session-memory/summary.md
# Learnings
_What has worked well? What has not? What to avoid? Do not duplicate items from other sections_
```
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from memlint.lazy_regex import compile_lazily
from memlint.rules import RuleMeta
from memlint.rules.notes.files import notes_files
from memlint.violations import Finding

if TYPE_CHECKING:
    from memlint.model.run.rule_context import RuleContext

META = RuleMeta(
    code="ML409",
    slug="notes-placeholder-filler",
    severity="info",
    summary="A session-notes section holds only placeholder filler",
)

FILLER = compile_lazily(
    r"^(?:[-*+]\s+|>\s*)?[_*(\[]*\s*(?:no info(?:rmation)? yet|nothing yet|none yet|no notes yet|tbd|tba|n/?a|todo|"
    r"to do|placeholder|\.\.\.|…)\s*[_*)\].!]*$",
    re.IGNORECASE,
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for nf in notes_files(ctx):
        template = nf.notes.template
        for section in nf.notes.sections:
            body = section.user_lines(template)
            if len(body) != 1 or section.heading is None:
                continue
            text = body[0].text.strip()
            if not FILLER.match(text):
                continue
            yield Finding(
                nf.path, body[0].number,
                f"`{section.heading.text.strip()}` holds only the filler `{text}`: the next session reads it as a "
                "note and pays tokens for it, while an empty section under its description says the same; "
                "delete the line until there is something to write",
            )
