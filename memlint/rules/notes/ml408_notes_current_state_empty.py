"""A session-notes file's Current State is empty while other sections have notes.

## What it does
Reports the `Current State` section of a session-notes file when it holds nothing but its
description line, or is missing (on line 1), while some other section holds notes: restoring the
missing heading (ML401's fix) does not say what is pending.

## Why is this bad?
Claude Code tells the model that Current State always reflects the latest work: it is what the
next session continues from. Empty, while the rest of the file is filled in, it means the notes
were written but the work in progress was never recorded, and the next session does not know
what was pending.

## Example
```md session-memory/summary.md
# Current State
_What is actively being worked on right now? Pending tasks not yet completed. Immediate next steps._

# Worklog
_Step by step, what was attempted, done? Very terse summary for each step_
- Reproduced the double charge.
```

Use instead:
```md session-memory/summary.md
# Current State
_What is actively being worked on right now? Pending tasks not yet completed. Immediate next steps._
Writing the regression test for the double charge; then the refund path.

# Worklog
_Step by step, what was attempted, done? Very terse summary for each step_
- Reproduced the double charge.
```
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from memlint.rules import RuleMeta
from memlint.rules.notes.files import notes_files
from memlint.violations import Finding

if TYPE_CHECKING:
    from memlint.model.run.rule_context import RuleContext

META = RuleMeta(
    code="ML408",
    slug="notes-current-state-empty",
    severity="warning",
    summary="Current State is empty while other session-notes sections have content",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for nf in notes_files(ctx):
        from memlint.model.memory.notes_template import normalize  # imported by runs that have notes only

        notes = nf.notes
        template = notes.template
        current = next((i for i, s in enumerate(template.sections) if normalize(s.title) == "current state"), None)
        if current is None:
            continue
        section = notes.present().get(current)
        if section is not None and (section.heading is None or section.user_lines(template)):
            continue
        filled = [s for s in notes.sections if s is not section and any(_content(ln.text) for ln in s.user_lines(template))]
        if not filled:
            continue
        others = ", ".join(f"`{s.heading.text.strip()}`" for s in filled[:3] if s.heading is not None)
        # a Current State that is missing is as empty (ML401 restores its heading, not what is pending)
        title = template.sections[current].heading.strip() if section is None else section.heading.text.strip()
        yield Finding(
            nf.path, 1 if section is None else section.heading.number,
            f"`{title}` is {'missing' if section is None else 'empty'} while {others}{' and more' if len(filled) > 3 else ''} "
            f"{'hold' if len(filled) > 1 else 'holds'} notes: Claude Code keeps Current State as the latest work, what the next session continues "
            "from, so it will not know what was in progress; write the current task and next steps there",
        )


def _content(text: str) -> bool:
    """A line that is a note: not a heading, not a lone italic line."""
    from memlint.model.memory.notes_template import heading_level, is_italic

    return heading_level(text) is None and not is_italic(text)
