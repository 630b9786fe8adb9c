"""Which files are session notes, and which template each is checked against.

Session notes are Claude Code's `.../session-memory/summary.md` (found under the checked paths,
and under `HOME/.claude/projects/<P>/<session>/` when a HOME is modelled) plus the files a project
names in `[tool.memlint.session-notes] paths = [...]` (globs relative to the config's folder).
The template is, first found: the project's `template = "..."`, then
`HOME/.claude/session-memory/config/template.md` (Claude Code's custom template), then Claude
Code's built-in one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from memlint.model.run.rule_context import RuleContext
from memlint.model.text.document import Document
from memlint.records import dataclass

if TYPE_CHECKING:
    from memlint.model.memory.notes_template import Notes, Template

# memlint.model.memory.notes_template is imported only by runs that have session notes to check: with no
# notes file, no template is read either (`notes_files`, ML401).

HOME_TEMPLATE = Path(".claude/session-memory/config/template.md")


@dataclass(frozen=True)
class NotesFile:
    """A session-notes file, read against its template."""

    path: Path
    doc: Document
    notes: Notes

    @property
    def template(self) -> Template:
        return self.notes.template


def notes_paths(ctx: RuleContext) -> list[Path]:
    """Every session-notes file to check (found by discovery, named in config, or under HOME)."""
    return sorted({f.path for f in ctx.by_role("session-notes")})


def template_for(ctx: RuleContext) -> Template | str:
    """The template to check against, or why it cannot be read."""
    from memlint.model.memory.notes_template import DEFAULT_TEMPLATE, parse_template

    candidates: list[Path] = []
    if ctx.selection.session_notes_template is not None:
        candidates.append(ctx.selection.session_notes_template)
    elif ctx.home is not None:
        home_template = ctx.home / HOME_TEMPLATE
        if ctx.document(home_template).problem is None:
            candidates.append(home_template)
    for path in candidates:
        doc = ctx.document(path)
        if doc.problem is not None:
            return f"the session-notes template `{path}` cannot be read ({doc.problem.detail})"
        template = parse_template(doc.body, str(path))
        if not template.sections:
            return f"the session-notes template `{path}` has no headings"
        return template
    return DEFAULT_TEMPLATE


def notes_files(ctx: RuleContext) -> Iterator[NotesFile]:
    """Each readable notes file, split against its template (none when the template is broken:
    ML401 reports that)."""
    paths = notes_paths(ctx)
    if not paths:
        return
    template = template_for(ctx)
    if isinstance(template, str):
        return
    from memlint.model.memory.notes_template import split_notes

    for path in paths:
        doc = ctx.document(path)
        if doc.problem is not None:
            continue
        yield NotesFile(path, doc, split_notes(doc.text, template))


def template_name(template: Template) -> str:
    from memlint.model.memory.notes_template import DEFAULT_TEMPLATE

    if template is DEFAULT_TEMPLATE:
        return "Claude Code's session-notes template"
    return f"the template `{template.source}`"


def by_claude(template: Template, config_template: Path | None) -> bool:
    """Whether Claude Code itself writes notes from this template (its own, or the custom one
    in HOME), rather than a team template named in the project's config."""
    from memlint.model.memory.notes_template import DEFAULT_TEMPLATE

    return template is DEFAULT_TEMPLATE or config_template is None or str(config_template) != template.source


def keeper(ctx: RuleContext, template: Template) -> str:
    """Who insists on the template's structure, for messages."""
    if by_claude(template, ctx.selection.session_notes_template):
        return "Claude Code tells the model to keep every heading and italic description line exactly"
    return "notes that follow a template are continued section by section"
