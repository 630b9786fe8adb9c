"""Why no split makes a MEMORY.md load whole: the floor, by category, against the limit.

After every stage of the split, what is left is what may not move: standing instructions and the
sections that hold them, entries outside any group, headings, comments and the introduction. The
floor says how much of each, which lines block, and the smallest change by hand that would fit.
"""

from __future__ import annotations

from memlint.model.cli_js.jstext import utf16_len
from memlint.model.memory.automem import MAX_LINES, MAX_UNITS, Truncation
from memlint.model.text.instructions import marks_always_on
from memlint.records import dataclass
from memlint.rules.automem._index import Index, heading_text, plain_text, shorten
from memlint.rules.automem._split_units import instruction_lines, outline


@dataclass(frozen=True)
class Floor:
    lines: int  # what the index would still be after every move
    units: int
    parts: tuple[tuple[str, int, int], ...]  # (category, lines, units)
    blocking: tuple[str, ...]  # what keeps lines in the index
    change: str  # the smallest change by hand that would fit

    bound: bool = False  # `lines` is a lower bound found before any move (`units` then unknown: 0)

    def message(self) -> str:
        if self.bound:
            parts = ", ".join(f"{name}: {n}" for name, n, _ in self.parts if n)
            return (f"no split makes it load whole: at least {self.lines} lines must stay in it (limit {MAX_LINES}): "
                    f"{parts}; smallest change by hand: {self.change}")
        parts = ", ".join(f"{name} {n} line{'s' if n != 1 else ''} ({u:,} units)" for name, n, u in self.parts if n)
        text = (f"no split makes it load whole: after every move it would still be {self.lines} lines, "
                f"{self.units:,} units (limit {MAX_LINES}, {MAX_UNITS:,}): {parts}")
        if self.blocking:
            text += "; kept: " + "; ".join(self.blocking)
        return text + f"; smallest change by hand: {self.change}"


def floor_of(index: Index, after: Truncation) -> Floor:
    lines = index.lines
    counts: dict[str, list[int]] = {}
    always_on: list[str] = []
    instructions = 0
    longest: list[tuple[int, str]] = []
    orders = set(instruction_lines(lines))
    for i in range(len(lines)):
        kind = lines.kind(i)
        if kind in ("blank", "comment"):
            continue
        content = lines.content(i)
        units = utf16_len(content) + 1
        if kind == "heading":
            name = "headings"
            title = heading_text(content)[1]
            if marks_always_on(title):
                always_on.append(f"'{shorten(title, 40)}'")
        elif kind == "entry":
            name = "entries"
        elif i in orders:
            name = "instructions"
            instructions += 1
        else:
            name = "other"
        counts.setdefault(name, [0, 0])
        counts[name][0] += 1
        counts[name][1] += units
        longest.append((units, plain_text(content)))
    order = ("entries", "instructions", "headings", "other")
    parts = tuple((name, counts[name][0], counts[name][1]) for name in order if name in counts)
    blocking: list[str] = []
    if instructions:
        blocking.append(f"{instructions} standing instruction line{'s' if instructions != 1 else ''} stay in the index")
    if always_on:
        blocking.append("sections marked always-on: " + ", ".join(always_on[:3]))
    over_lines = after.line_count - MAX_LINES
    over_units = after.size - MAX_UNITS
    changes = []
    if over_lines > 0:
        changes.append(f"remove or merge {over_lines} line{'s' if over_lines != 1 else ''} (entries or instructions "
                       "that say the same thing)")
    if over_units > 0:
        longest.sort(reverse=True)
        top = longest[0][1] if longest else ""
        changes.append(f"shorten lines by {over_units:,} units, the longest first ('{shorten(top, 40)}')")
    return Floor(after.line_count, after.size, parts, tuple(blocking), " and ".join(changes) or "none")


def lower_bound(index: Index) -> Floor | None:
    """A floor found before any move, when it is already over the line limit: every entry outside
    the sections stays (but for older entries of the same topic), and every top-level section
    leaves at least one line (its pointer, or its heading). None when the bound fits."""
    lines = index.lines
    o = outline(lines)
    tops = [h for h in o.heads if h != o.title and o.parent[h] in (-1, o.title)]
    first_top = tops[0] if tops else len(lines)
    targets = {e.target for e in index.entries if e.number - lines.first < first_top}
    bound = len(targets) + len(tops) + (1 if o.title >= 0 else 0)
    if bound <= MAX_LINES:
        return None
    over = bound - MAX_LINES
    parts = (("entries outside any section", len(targets), 0), ("top-level sections", len(tops), 0))
    change = (f"remove or merge {over} of these lines, or gather the entries under fewer sections (each section "
              "can become one line that points to its own index file)")
    return Floor(bound, 0, parts, (), change, True)
