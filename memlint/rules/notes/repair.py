"""Fixes that restore a notes file's structure. Every one keeps the user's lines verbatim and in
their section; extra sections travel with the template section above them, never deleted."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from memlint.violations import Applicability, Edit, Fix

if TYPE_CHECKING:
    from memlint.model.memory.notes_template import Notes, Section


def _break_after(text: str, end: int) -> int:
    """Length of the line break at `end` (0 at the end of the text)."""
    if text.startswith("\r\n", end):
        return 2
    return 1 if text.startswith(("\n", "\r"), end) else 0


def insertion_point(notes: Notes, index: int) -> int:
    """Where a missing template section `index` goes: before the present section that follows
    it in template order, else at the end."""
    present = notes.present()
    later = [i for i in present if i > index]
    if later:
        return present[min(later)].start
    return len(notes.text)


def missing_group(notes: Notes, index: int) -> list[int]:
    """The missing template sections that go to the same place as `index`, in template order."""
    present = notes.present()
    point = insertion_point(notes, index)
    return [i for i in range(len(notes.template.sections))
            if i not in present and insertion_point(notes, i) == point]


def section_text(notes: Notes, index: int, nl: str) -> str:
    section = notes.template.sections[index]
    return section.heading + nl + (section.description + nl if section.description else "")


def put_back_sections(path: Path, notes: Notes, index: int, nl: str) -> Fix:
    """One fix for every missing section that goes where `index` goes (identical for each of
    them, so the fix loop applies it once)."""
    group = missing_group(notes, index)
    point = insertion_point(notes, index)
    text = notes.text
    if point < len(text):
        replacement = "".join(section_text(notes, i, nl) + nl for i in group)
    else:
        if not text:
            prefix = ""
        elif text.endswith(("\n", "\r")):
            last = notes.lines[-1].text if notes.lines else ""
            prefix = "" if not last.strip() else nl
        else:
            prefix = nl + nl
        replacement = prefix + nl.join(section_text(notes, i, nl) for i in group)
    names = ", ".join(f"`{notes.template.sections[i].heading}`" for i in group)
    title = f"Put back the missing section{'s' if len(group) > 1 else ''} {names}"
    return Fix(title, Applicability.SAFE, (Edit(path, point, point, replacement),))


def put_back_description(path: Path, notes: Notes, section: Section, nl: str) -> Fix:
    assert section.heading is not None and section.template_index is not None
    description = notes.template.sections[section.template_index].description
    assert description is not None
    end = section.heading.end
    step = _break_after(notes.text, end)
    replacement = description + nl if step else nl + description
    at = end + step
    return Fix(f"Put back the description line under `{section.heading.text.strip()}`", Applicability.SAFE,
               (Edit(path, at, at, replacement),))


def rename_heading(path: Path, notes: Notes, section: Section) -> Fix:
    assert section.heading is not None and section.template_index is not None
    heading = notes.template.sections[section.template_index].heading
    return Fix(f"Rename the heading to `{heading}`", Applicability.UNSAFE,
               (Edit(path, section.heading.start, section.heading.end, heading),))


def template_order(notes: Notes) -> list[list[Section]]:
    """The sections in groups, groups in template order: a template section, then its later
    copies, each followed by the extra sections that came under it. Extra sections before any
    template section stay first."""
    groups: dict[int, list[Section]] = {}
    current = -1
    for section in notes.sections:
        if section.template_index is not None:
            current = section.template_index
        groups.setdefault(current, []).append(section)
    return [groups[key] for key in sorted(groups)]


def reorder(path: Path, notes: Notes, nl: str) -> Fix | None:
    """Move whole sections into template order; None when they already are."""
    ordered = [s for group in template_order(notes) for s in group]
    if ordered == list(notes.sections):
        return None
    text = notes.text
    # Each section keeps its lines; only the blank lines at its end are redone, one between two
    # sections, so that a section that was last is not glued to the next heading.
    chunks = [text[s.start : s.end].rstrip("\r\n") for s in ordered]
    start = notes.sections[0].start
    new = (nl + nl).join(chunks) + (nl if text.endswith(("\n", "\r")) else "")
    return Fix("Move the sections into template order", Applicability.UNSAFE,
               (Edit(path, start, len(text), new),))


def line_of(notes: Notes, offset: int) -> int:
    """The 1-based number of the line holding `offset` (the last line for the end of the text)."""
    for line in notes.lines:
        if offset <= line.end:
            return line.number
    return max(1, len(notes.lines))
