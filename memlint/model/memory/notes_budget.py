"""Token sizes of a notes file and its sections, as Claude Code budgets them: each section's
trimmed text under its heading (description included), the whole file, estimated as
round(characters / 4) in UTF-16 units (or with cl100k)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from memlint.model.cli_js.jstext import js_trim, utf16_len
from memlint.model.text.tokens import counter
from memlint.records import dataclass

if TYPE_CHECKING:
    from memlint.model.memory.notes_template import Notes, Section

KEEP = frozenset({"current state", "errors and corrections"})  # condensed last, per Claude Code
TRUNCATE_CHARS = 8_000  # at compaction a longer section is cut at a line boundary


@dataclass(frozen=True)
class SectionSize:
    """The size of one section of session notes, in tokens and characters."""

    section: Section
    heading: str
    tokens: int
    chars: int


def section_text(notes: Notes, section: Section) -> str:
    assert section.heading is not None
    return js_trim(notes.text[section.heading.end : section.end])


def sizes(notes: Notes, count: Callable[[str], int]) -> list[SectionSize]:
    out = []
    for section in notes.sections:
        assert section.heading is not None
        body = section_text(notes, section)
        out.append(SectionSize(section, section.heading.text.strip(), count(body), utf16_len(body)))
    return out


def estimator(name: object) -> tuple[Callable[[str], int], str]:
    label = "round(chars/4)" if name == "chars4" else str(name)
    return counter(str(name)), label


def table(rows: list[SectionSize], budget: int) -> str:
    """`Session Title 12/2,000, Worklog 2,300/2,000 (over), ...`"""
    parts = []
    for row in rows:
        mark = " (over)" if row.tokens > budget else ""
        parts.append(f"{row.heading.lstrip('#').strip()} {row.tokens:,}/{budget:,}{mark}")
    return ", ".join(parts)


def condense_first(rows: list[SectionSize], excess: int, budget: int) -> list[SectionSize]:
    """Sections to condense first: every section over its budget, then the largest others until
    they cover `excess` tokens; Current State and Errors & Corrections last of all."""
    from memlint.model.memory.notes_template import normalize  # imported by runs that have notes only

    candidates = sorted((r for r in rows if normalize(r.heading.lstrip("#")) not in KEEP),
                        key=lambda r: -r.tokens)
    chosen = [r for r in candidates if r.tokens > budget]
    covered = sum(r.tokens for r in chosen)
    for row in candidates:
        if covered >= excess:
            break
        if row not in chosen and row.tokens > 0:
            chosen.append(row)
            covered += row.tokens
    return chosen


def advice(rows: list[SectionSize], excess: int, budget: int) -> str:
    first = condense_first(rows, excess, budget)
    if not first:
        return "condense Current State and Errors & Corrections last of all"
    names = ", ".join(f"{r.heading.lstrip('#').strip()} ({r.tokens:,})" for r in first)
    return f"condense first: {names}; keep Current State and Errors & Corrections"
