"""The detail stage of the MEMORY.md split: move detail, largest first, into new topic files.

What may move is `_split_units.candidates`: a whole section (heading, body, sub-sections) when
nothing in it stays, or a run of detail inside a section that keeps something. A whole section
becomes its entries under the parent heading; a run becomes its entries in its place. Every unit
that saves lines or units is picked, largest first.
"""

from __future__ import annotations

from collections.abc import Callable

from memlint.rules.automem._index import Index, plain_text
from memlint.rules.automem._split_files import NewTopic, Writer, entry_line, slugify
from memlint.rules.automem._split_units import Candidates, candidates, pick


def move_detail(index: Index, writer: Writer, links_existing: Callable[[str], bool], intro_lines: int
                ) -> tuple[list[tuple[int, int, str]], list[NewTopic], list[str]] | None:
    """The replacements, new files and added entry lines that move every unit of detail that costs
    the index lines or units (largest first; a unit inside a chosen section is part of it); None
    when nothing may move."""
    lines = index.lines
    line_units = [len(lines.raw(i).rstrip("\r\n")) + 1 for i in range(len(lines))]

    def cost(title: str, _: str) -> tuple[int, int]:
        return 1, len(entry_line(title, slugify(title) + ".md", "x" * 100, writer.separator)) + 1

    found = candidates(index, links_existing, intro_lines, cost, line_units)
    chosen = pick(found, found.outline, set(), 10**9, 10**9)  # no target: all that gains
    return _build(index, found, sorted(chosen), writer) if chosen else None


def _build(index: Index, found: Candidates, chosen: list[int], writer: Writer
           ) -> tuple[list[tuple[int, int, str]], list[NewTopic], list[str]]:
    lines = index.lines
    topics: list[NewTopic] = []
    entries: dict[int, list[str]] = {}
    for n in chosen:
        unit = found.units[n]
        rows = [i for first, last in unit.runs for i in range(first, last + 1)]
        raw = [lines.raw(i) for i in rows]
        if raw and not raw[-1].endswith("\n"):
            raw[-1] += writer.newline
        kinds = [lines.kind(i) for i in rows]
        heading = plain_text(lines.content(unit.heading)) if unit.heading >= 0 else None
        made, lines_of = writer.topics(unit.title, raw, kinds, heading)
        topics += made
        entries[n] = lines_of
    return _replacements(index, found, chosen, entries, writer.newline), topics, [e for n in chosen for e in entries[n]]


def _replacements(index: Index, found: Candidates, chosen: list[int], entries: dict[int, list[str]],
                  newline: str) -> list[tuple[int, int, str]]:
    """Chosen runs become their entries in place; chosen sections are removed, and their entries go
    after the last line of the parent heading's own body (a blank line before and after as needed)."""
    lines = index.lines
    text = lines.text
    outl = found.outline
    out: list[tuple[int, int, str]] = []
    removed: dict[int, int] = {}  # first line of a removed section -> first line after it
    in_run: set[int] = set()
    by_parent: dict[int, list[str]] = {}
    for n in chosen:
        unit = found.units[n]
        if unit.whole:
            out.append((lines.start(unit.first), lines.end(unit.end - 1), ""))
            removed[unit.first] = unit.end
            by_parent.setdefault(unit.parent, []).extend(entries[n])
        else:
            for k, (first, last) in enumerate(unit.runs):
                ending = newline if lines.raw(last).endswith("\n") else ""
                out.append((lines.start(first), lines.end(last), newline.join(entries[n]) + ending if k == 0 else ""))
                in_run.update((first, last))
    for parent, new in by_parent.items():
        stop = outl.own_end[parent] if parent >= 0 else outl.preamble_end
        start = max(parent, 0)
        last = next((i for i in range(stop - 1, start - 1, -1) if lines.kind(i) != "blank"), -1)
        if parent >= 0 and last == parent and parent + 1 < stop:
            last = parent + 1  # `## Heading`, a blank line, then the entries
        before = ""
        if last >= 0 and lines.kind(last) in ("detail", "code", "layout", "comment") and last not in in_run:
            before = newline
        if last >= 0:
            at = lines.end(last)
            if not lines.raw(last).endswith("\n"):
                before = newline + before
        else:
            at = lines.start(0) if lines else len(text)
            if at == 0 and text.startswith("\ufeff"):
                at = 1
        follow = last + 1
        while follow in removed:
            follow = removed[follow]
        after = newline if follow < len(lines) and lines.kind(follow) != "blank" else ""
        out.append((at, at, before + newline.join(new) + newline + after))
    out.sort(key=lambda r: (r[0], r[1]))
    return out
