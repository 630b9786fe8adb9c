"""Text helpers of the MEMORY.md split: applying replacements, the index's entry separator."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from memlint.lazy_regex import compile_lazily
from memlint.rules.automem._index import Index

_SEPARATOR = compile_lazily(r"\]\([^)]*\)([ \t]+(?:\u2014|\u2013|--?|:)[ \t]+)")


class SplitError(Exception):
    """The split would lose text; nothing is offered."""


def apply(text: str, replacements: Sequence[tuple[int, int, str]]) -> str:
    """`text` with each (start, end, new) replacement made (sorted, not overlapping)."""
    out, cursor = [], 0
    for start, end, new in sorted(replacements, key=lambda r: (r[0], r[1])):
        if start < cursor:
            raise SplitError("overlapping replacements")
        out.append(text[cursor:start])
        out.append(new)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


def separator(index: Index) -> str:
    """The title/hook separator the index already uses most (` — ` when none)."""
    seen: Counter[str] = Counter()
    for entry in index.entries[:200]:
        m = _SEPARATOR.search(entry.line.content)
        if m:
            seen[m.group(1)] += 1
    return seen.most_common(1)[0][0] if seen else " \u2014 "
