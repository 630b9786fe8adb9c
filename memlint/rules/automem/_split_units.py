"""What the detail stage of the MEMORY.md split may move, and what it picks.

MEMORY.md is read as headings and, under each heading, *items*: an entry line, a list item with
its continuation lines, a paragraph, a table, a code block, a comment, a rule line. An item stays
in MEMORY.md when Claude must see it every session or when it is part of the index:

- an entry, or any line that links a file that exists beside MEMORY.md (moving it would hide a
  memory that is indexed today);
- a standing instruction: a one-line item whose clause is an order (`model.instructions`, in any
  language: "NEVER push", "항상 한국어로 답변할 것"), not a keyword anywhere in a paragraph; a
  numbered procedure stays whole only when every step is one;
- anything under a heading that marks its section always-on (Rules, Every session, 규칙 ...);
- comments, rule lines (`---`), and a short introduction under the title.

Everything else may move, as a *unit*: a whole section (heading, body and sub-sections, when
nothing in it stays), replaced by one entry under the parent heading; or, in a section that keeps
something, all of its detail gathered into one file with one entry where the first of it was
(detail that continues an entry moves as that entry's details). Units are picked largest first;
everything is linear in the size of MEMORY.md.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import NamedTuple

from memlint.lazy_regex import compile_lazily
from memlint.model.text.instructions import is_instruction, marks_always_on
from memlint.records import dataclass
from memlint.rules.automem._index import _BULLET, LINK, Index, heading_text, local_target, plain_text
from memlint.rules.automem._lines import Lines

_ORDERED = compile_lazily(r"[ \t]{0,3}\d{1,9}[.)][ \t]")


class Item(NamedTuple):
    first: int  # index into Index.lines
    last: int  # inclusive
    stays: bool
    after_entry: bool  # detail lines that continue the entry just above


@dataclass(frozen=True)
class Unit:
    """Lines that may move to one topic file."""

    first: int  # first line moved (index into Index.lines)
    last: int  # last non-blank line moved
    end: int  # lines [first, end) leave MEMORY.md (a section takes its trailing blank lines)
    whole: bool  # a whole section: its entry goes under `parent`; else the entry takes its place
    parent: int  # the heading the entry goes under (whole sections; -1: top of the file)
    heading: int  # the heading the unit is or stands under (-1: none)
    title: str
    after_entry: bool
    lines_gain: int
    units_gain: int
    spans: tuple[tuple[int, int], ...] = ()  # the runs a section's detail is gathered from (first, last)

    @property
    def runs(self) -> tuple[tuple[int, int], ...]:
        return self.spans or ((self.first, self.last),)


@dataclass(frozen=True)
class Outline:
    """Headings of MEMORY.md: level, enclosing heading, end of own body and of sub-tree."""

    heads: tuple[int, ...]
    level: dict[int, int]
    parent: dict[int, int]
    own_end: dict[int, int]  # first line after the heading's own body (next heading)
    subtree_end: dict[int, int]  # next heading of the same or a higher level
    title: int  # the index's title heading (first heading, level 1), else -1
    preamble_end: int  # lines before the first heading


def outline(lines: Lines) -> Outline:
    heads = [i for i in range(len(lines)) if lines.kind(i) == "heading"]
    level = {h: heading_text(lines.content(h))[0] for h in heads}
    parent: dict[int, int] = {}
    subtree_end: dict[int, int] = {}
    stack: list[int] = []
    for h in heads:
        while stack and level[stack[-1]] >= level[h]:
            subtree_end[stack.pop()] = h
        parent[h] = stack[-1] if stack else -1
        stack.append(h)
    for h in stack:
        subtree_end[h] = len(lines)
    own_end = {h: heads[n + 1] if n + 1 < len(heads) else len(lines) for n, h in enumerate(heads)}
    title = heads[0] if heads and level[heads[0]] == 1 else -1
    return Outline(tuple(heads), level, parent, own_end, subtree_end, title, heads[0] if heads else len(lines))


def _indent(content: str) -> int:
    return len(content) - len(content.lstrip(" \t"))


_ITEM_BREAK_FIRST = frozenset("-*+>0123456789")  # what a list item or quote line starts with


_STAYING = frozenset({"entry", "layout", "blank"})


def items(lines: Lines, start: int, stop: int) -> list[Item]:
    """The items of lines [start, stop) (no heading among them), staying or not by their own lines.
    Consecutive entry and rule lines (blank lines between them included) are one staying item: what
    stays only separates what may move, and an index of 100,000 entries is then one item."""
    out: list[Item] = []
    kind_of = lines.kind
    i = start
    while i < stop:
        kind = kind_of(i)
        if kind == "blank":
            i += 1
            continue
        first = i
        i += 1
        if kind == "code" or kind == "comment":
            while i < stop and kind_of(i) == kind:
                i += 1
            out.append(Item(first, i - 1, kind == "comment", False))
            continue
        if kind != "detail":  # entry, layout: staying lines, and so the lines after them up to the next item
            last = first
            while i < stop and kind_of(i) in _STAYING:
                if kind_of(i) != "blank":
                    last = i
                i += 1
            out.append(Item(first, last, True, False))
            continue
        after = first > 0 and kind_of(first - 1) == "entry"
        content = lines.content(first)
        table = content.lstrip().startswith("|")
        base = _indent(content)
        while i < stop:
            if kind_of(i) != "detail":
                break
            nxt = lines.content(i)
            lead = nxt.lstrip()
            if table != lead.startswith("|"):
                break
            if (not table and lead[:1] in _ITEM_BREAK_FIRST and _indent(nxt) <= base
                    and (lead[0] == ">" or _BULLET.match(lead))):
                break
            i += 1
        out.append(Item(first, i - 1, False, after))
    return out


def always_on(lines: Lines, o: Outline) -> dict[int, bool]:
    """For each heading, whether it or a heading above it marks its section always-on (every
    stage keeps such sections whole: one answer for all of them)."""
    out: dict[int, bool] = {}
    for h in o.heads:  # a parent comes before its children
        p = o.parent[h]
        out[h] = marks_always_on(heading_text(lines.content(h))[1]) or (p >= 0 and out[p])
    return out


def is_order(lines: Lines, item: Item) -> bool:
    """The item is one line of detail whose clause is an order: a standing instruction."""
    return item.first == item.last and lines.kind(item.first) == "detail" and is_instruction(lines.content(item.first))


def instruction_lines(lines: Lines) -> list[int]:
    """The lines that are standing instructions: one-line items (outside code and comments) whose
    clause is an order (`model.instructions`)."""
    heads = [i for i in range(len(lines)) if lines.kind(i) == "heading"]
    bounds = [0, *(h + 1 for h in heads)]
    stops = [*heads, len(lines)]
    out: list[int] = []
    for start, stop in zip(bounds, stops):
        out += [item.first for item in items(lines, start, stop) if is_order(lines, item)]
    return out


def anchored(lines: Lines, item: Item, links_existing: Callable[[str], bool]) -> bool:
    """The item must stay: it links a file that exists, or it is one line that is a standing
    instruction (`model.instructions`: a line standing alone whose clause is an order)."""
    if item.stays:
        return True
    if is_order(lines, item):
        return True
    for i in range(item.first, item.last + 1):
        if lines.kind(i) != "detail":
            continue
        content = lines.content(i)
        if "](" in content and any(
            (t := local_target(m.group(2))) is not None and links_existing(t) for m in LINK.finditer(content)
        ):
            return True
    return False


def _procedures(lines: Lines, marked: list[tuple[Item, bool]], links_existing: Callable[[str], bool]
                ) -> list[tuple[Item, bool]]:
    """Consecutive numbered items are one procedure: it stays whole when every step is an
    instruction (a numbered list of rules), else it is detail and moves whole (a step that says
    "never" does not keep its procedure in the index)."""
    out = list(marked)
    n = 0
    while n < len(out):
        if not _ORDERED.match(lines.content(out[n][0].first)) or out[n][0].stays:
            n += 1
            continue
        end = n
        while end < len(out) and _ORDERED.match(lines.content(out[end][0].first)) and not out[end][0].stays:
            end += 1
        if end - n > 1:
            steps = [item for item, _ in out[n:end]]
            rules = all(is_order(lines, item) for item in steps)
            for k in range(n, end):
                item = out[k][0]
                out[k] = (item, rules or _links_existing(lines, item, links_existing))
        n = max(end, n + 1)
    return out


def _links_existing(lines: Lines, item: Item, links_existing: Callable[[str], bool]) -> bool:
    return any("](" in (c := lines.content(i)) and any(
        (t := local_target(m.group(2))) is not None and links_existing(t) for m in LINK.finditer(c))
        for i in range(item.first, item.last + 1))


def _is_intro(lines: Lines, item: Item, intro_lines: int) -> bool:
    filled = [i for i in range(item.first, item.last + 1) if lines.kind(i) != "blank"]
    return len(filled) <= intro_lines and all(lines.kind(i) == "detail" and len(lines.content(i)) <= 200
                                              for i in filled)


@dataclass(frozen=True)
class Candidates:
    units: tuple[Unit, ...]  # in document order
    whole_of: dict[int, int]  # heading index -> index of its whole-section unit
    outline: Outline


def candidates(
    index: Index,
    links_existing: Callable[[str], bool],
    intro_lines: int,
    cost: Callable[[str, str], tuple[int, int]],
    line_units: list[int],
) -> Candidates:
    """Every unit that may move. `cost(title, first_words)` gives the lines and UTF-16 units of
    the entry that replaces a unit; `line_units[i]` the UTF-16 units of line i with its ending."""
    lines = index.lines
    o = outline(lines)
    prefix = [0]
    for n in line_units:
        prefix.append(prefix[-1] + n)
    rule_under = always_on(lines, o)
    regions = [(-1, 0, o.preamble_end)] + [(h, h + 1, o.own_end[h]) for h in o.heads]
    region_items: dict[int, list[tuple[Item, bool]]] = {}
    region_ok: dict[int, bool] = {}
    for h, a, b in regions:
        found = items(lines, a, b)
        marked = []
        for n, item in enumerate(found):
            stays = (h >= 0 and rule_under[h]) or anchored(lines, item, links_existing)
            if n == 0 and h in (-1, o.title) and _is_intro(lines, item, intro_lines):
                stays = True  # a short introduction under the title is part of an index
            marked.append((item, stays))
        marked = _procedures(lines, marked, links_existing) if not (h >= 0 and rule_under[h]) else marked
        region_items[h] = marked
        region_ok[h] = not any(s for _, s in marked) and not (h >= 0 and rule_under[h])
    subtree_ok: dict[int, bool] = {}
    for h in reversed(o.heads):
        subtree_ok[h] = region_ok[h]
    for h in reversed(o.heads):  # children come after their parent: fold upward
        p = o.parent[h]
        if p >= 0 and not subtree_ok[h]:
            subtree_ok[p] = False
    units: list[Unit] = []
    whole_heads: set[int] = set()
    for h in o.heads:
        end = o.subtree_end[h]
        if not subtree_ok[h] or h == o.title:
            continue
        last = next((i for i in range(end - 1, h, -1) if lines.kind(i) != "blank"), h)  # the last non-blank line
        if last == h:
            continue
        whole_heads.add(h)
    for h, a, b in regions:
        title = heading_text(lines.content(h))[1] if h >= 0 else ""
        if h in whole_heads:
            end = o.subtree_end[h]
            last = next(i for i in range(end - 1, h, -1) if lines.kind(i) != "blank")
            name = _shorten(title, 80) or "Notes"
            n_lines, n_units = cost(name, "")
            units.append(Unit(h, last, end, True, o.parent[h], h, name, False,
                              end - h - n_lines, prefix[end] - prefix[h] - n_units))
            continue
        if h >= 0 and _inside_whole(h, o, whole_heads):
            continue
        runs = _runs(region_items[h])
        for first, last, after in runs:  # detail that continues an entry moves as that entry's details
            if after:
                name = _shorten(f"{_entry_title(lines.content(first - 1))} (details)", 80)
                n_lines, n_units = cost(name, "")
                units.append(Unit(first, last, last + 1, False, -1, h, name, True,
                                  last + 1 - first - n_lines, prefix[last + 1] - prefix[first] - n_units))
        plain = tuple((first, last) for first, last, after in runs if not after)
        if plain:  # the rest of the section's detail: one file, one entry where its first run was
            first = plain[0][0]
            if title and h != o.title:
                name = title
            else:
                name = plain_text(lines.content(first)) or "Notes"
            name = _shorten(name, 80)
            n_lines, n_units = cost(name, "")
            moved_lines = sum(b + 1 - a for a, b in plain)
            moved_units = sum(prefix[b + 1] - prefix[a] for a, b in plain)
            units.append(Unit(first, plain[-1][1], plain[-1][1] + 1, False, -1, h, name, False,
                              moved_lines - n_lines, moved_units - n_units, plain if len(plain) > 1 else ()))
    units.sort(key=lambda u: u.first)
    whole_of = {u.heading: n for n, u in enumerate(units) if u.whole}
    return Candidates(tuple(units), whole_of, o)


def _inside_whole(h: int, o: Outline, whole_heads: set[int]) -> bool:
    p = o.parent[h]
    while p >= 0:
        if p in whole_heads:
            return True
        p = o.parent[p]
    return False


def _runs(marked: list[tuple[Item, bool]]) -> list[tuple[int, int, bool]]:
    """Maximal runs of movable items: (first line, last line, starts right after an entry)."""
    out: list[tuple[int, int, bool]] = []
    current: list[Item] = []
    for item, stays in marked:
        if stays or (item.after_entry and current):
            if current:
                out.append((current[0].first, current[-1].last, current[0].after_entry))
            current = [] if stays else [item]
            continue
        current.append(item)
    if current:
        out.append((current[0].first, current[-1].last, current[0].after_entry))
    return out


def _entry_title(content: str) -> str:
    m = LINK.search(content)
    return plain_text(m.group(1)) if m else "Entry"


def _shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:-") + "\u2026"


def pick(found: Candidates, o: Outline, chosen: set[int], over_lines: int, over_units: int) -> set[int]:
    """Add units to `chosen` until `over_lines` lines and `over_units` UTF-16 units are saved
    (as estimated): largest first; when the largest saves more than is left to save, the smallest
    unit that is still enough. Units inside or around a chosen section are never picked."""
    units = found.units
    starts = [u.first for u in units]
    blocked: set[int] = set()
    for n in chosen:
        _block(found, o, n, blocked, starts)
    left = {"lines": over_lines, "units": over_units}
    fed = {units[n].parent for n in chosen if units[n].whole}  # parents that already get a blank line
    for key in ("lines", "units"):
        def gain(n: int, key: str = key) -> int:
            return units[n].lines_gain if key == "lines" else units[n].units_gain

        order = sorted((n for n in range(len(units)) if gain(n) > 0 and n not in chosen),
                       key=lambda n: (-gain(n), -units[n].units_gain, units[n].first))
        pos = 0
        while left[key] > 0:
            while pos < len(order) and (order[pos] in chosen or order[pos] in blocked):
                pos += 1
            if pos >= len(order):
                break
            best = order[pos]
            if gain(best) > left[key]:
                need = left[key]
                fits = [n for n in order[pos:] if n not in chosen and n not in blocked and gain(n) >= need]
                best = min(fits, key=lambda n: (gain(n), -units[n].units_gain, units[n].first))
            chosen.add(best)
            _block(found, o, best, blocked, starts)
            left["lines"] -= units[best].lines_gain
            if units[best].whole and units[best].parent not in fed:
                left["lines"] += 1  # the blank line after the entries under the parent
                fed.add(units[best].parent)
            left["units"] -= units[best].units_gain
    return chosen


def _block(found: Candidates, o: Outline, n: int, blocked: set[int], starts: list[int]) -> None:
    unit = found.units[n]
    if unit.whole:
        lo = bisect.bisect_left(starts, unit.first)
        hi = bisect.bisect_left(starts, unit.end)
        blocked.update(k for k in range(lo, hi) if k != n)
    h = unit.parent if unit.whole else unit.heading
    while h >= 0:
        if h in found.whole_of:
            blocked.add(found.whole_of[h])
        h = o.parent[h]
