"""A session-notes file lacks a section of its template.

## What it does
Checks every session-notes file (Claude Code's `session-memory/summary.md`, and the files named in
`[tool.memlint.session-notes] paths`) against its template: Claude Code's ten-section template, the
project's `template = "..."`, or `~/.claude/session-memory/config/template.md`. Reports each
template section whose heading is not in the file (a heading that is only slightly different is
reported by ML404 instead). Also reports, on each notes file, a template file that cannot be read.

## Why is this bad?
Claude Code updates session notes section by section and tells the model to keep every heading
and italic description line exactly. A missing section leaves the next session nowhere to find,
say, the workflow or the errors already corrected, and the model has no description telling it
what belongs there.

## Example
```md session-memory/summary.md
# Session Title
_A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_
Checkout flow retry bug

# Current State
_What is actively being worked on right now? Pending tasks not yet completed. Immediate next steps._
Writing the regression test for the double charge.
```

Use instead:
```md session-memory/summary.md
# Session Title
_A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_
Checkout flow retry bug

# Current State
_What is actively being worked on right now? Pending tasks not yet completed. Immediate next steps._
Writing the regression test for the double charge.

# Task specification
_What did the user ask to build? Any design decisions or other explanatory context_

# Files and Functions
_What are the important files? In short, what do they contain and why are they relevant?_

# Workflow
_What bash commands are usually run and in what order? How to interpret their output if not obvious?_

# Errors & Corrections
_Errors encountered and how they were fixed. What did the user correct? What approaches failed and should not be tried again?_

# Codebase and System Documentation
_What are the important system components? How do they work/fit together?_

# Learnings
_What has worked well? What has not? What to avoid? Do not duplicate items from other sections_

# Key results
_If the user asked a specific output such as an answer to a question, a table, or other document, repeat the exact result here_

# Worklog
_Step by step, what was attempted, done? Very terse summary for each step_
```

## Fix safety
Safe: the fix puts back the missing heading and its description line, empty, in template order
(before the next template section present, else at the end). It adds only the template's own text;
no line of the user's is changed or moved.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from memlint.rules import RuleMeta
from memlint.rules.notes.files import keeper, notes_files, notes_paths, template_for, template_name
from memlint.rules.notes.repair import insertion_point, line_of, missing_group, put_back_sections
from memlint.violations import Finding

if TYPE_CHECKING:
    from memlint.model.run.rule_context import RuleContext

META = RuleMeta(
    code="ML401",
    slug="notes-section-missing",
    severity="warning",
    summary="A session-notes file lacks a section of its template",
    fix="safe",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not notes_paths(ctx):
        return  # no notes file: no template is read
    template = template_for(ctx)
    if isinstance(template, str):
        for path in notes_paths(ctx):
            yield Finding(path, 1, f"{template}: memlint checked no section of this notes file; "
                                   "fix `[tool.memlint.session-notes] template`")
        return
    for nf in notes_files(ctx):
        notes = nf.notes
        present = notes.present()
        done: set[int] = set()
        for i in range(len(notes.template.sections)):
            if i in present or i in done:
                continue
            group = missing_group(notes, i)
            done.update(group)
            names = ", ".join(f"`{notes.template.sections[k].heading}`" for k in group)
            what = f"sections {names} of {template_name(notes.template)} are" if len(group) > 1 else \
                f"section {names} of {template_name(notes.template)} is"
            yield Finding(
                nf.path, line_of(notes, insertion_point(notes, i)),
                f"{what} missing: {keeper(ctx, notes.template)}, and the next session has no place for what "
                "belongs there; put it back (empty, with its description line)",
                fix=put_back_sections(nf.path, notes, i, nf.doc.newline),
            )
