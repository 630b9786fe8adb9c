"""What rules report: findings, violations, and the text edits that fix them."""

from __future__ import annotations

from dataclasses import field
from enum import Enum
from pathlib import Path
from typing import Literal

from memlint.records import dataclass

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


class Applicability(str, Enum):
    """How safe a fix is. SAFE changes nothing the agent reads but white space and layout."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


@dataclass(frozen=True, order=True, slots=True)
class Edit:
    """Replace `text[start:end]` of the file at `path` with `replacement` (character offsets in
    the decoded text). `create=True` writes a new file that must not exist yet; `delete=True`
    removes the file (a rename is a create plus a delete in one Fix)."""

    path: Path
    start: int
    end: int
    replacement: str
    create: bool = False
    delete: bool = False


@dataclass(frozen=True)
class Fix:
    """A set of edits applied all together or not at all.

    `verified`: the fix is lossless by construction and checked itself before it was offered
    (every line of text it takes away is byte-identical somewhere in what it writes; the MEMORY.md
    split). Such a fix may still be UNSAFE (it changes what the agent reads at start): `memlint fix`
    applies it without `--unsafe-fixes`, since the user asked for the fix; `memlint check --fix`
    and the pre-commit fix hook still need `--unsafe-fixes`.

    `explanation`: lines that say what the fix does in words (what moved where, sizes before and
    after), printed by `memlint fix --diff` before the patch and under the summary of a fix run."""

    title: str
    applicability: Applicability
    edits: tuple[Edit, ...]
    verified: bool = False
    explanation: tuple[str, ...] = ()

    @property
    def paths(self) -> frozenset[Path]:
        return frozenset(e.path for e in self.edits)

    @property
    def name(self) -> str:
        """The fix's name: its title up to the first colon (`split-memory-index`)."""
        return self.title.split(":", 1)[0].strip()


@dataclass(frozen=True, slots=True)
class Finding:
    """What a rule yields; the engine stamps it with the rule's code, slug and severity."""

    path: Path
    line: int
    message: str
    column: int = 1
    end_line: int | None = None
    end_column: int | None = None
    fix: Fix | None = None
    severity: Severity | None = None  # overrides the rule's default when set
    headline: str = ""  # the rule's own short first line, when its message is long (the message is the detail)


@dataclass(frozen=True, order=True, slots=True)
class Violation:
    """A finding of a rule, as reported."""

    path: Path
    line: int
    column: int
    code: str
    slug: str = field(compare=False)
    severity: Severity = field(compare=False)
    message: str = field(compare=False)
    end_line: int = field(compare=False)
    end_column: int = field(compare=False)
    fix: Fix | None = field(default=None, compare=False)
    detail: str = field(default="", compare=False)  # the whole message when `message` is its headline


HEADLINE = 300  # characters at most in a finding's first line


def headline(message: str, limit: int = HEADLINE) -> tuple[str, str]:
    """(first line, detail) of a rule's message: the message and "" when its first line fits in
    `limit` characters; else a headline, with the whole message as the detail (`--verbose` prints it,
    `--format json` carries it). The headline first drops asides: parenthesised groups (where the
    file loads, lists of folders), longest first, each cut to its first items (`(a, b, …)`) or
    replaced by `(…)`; what is still too long keeps
    its start and, when short, its last clause (what to do) around an elided middle ` … `. Cuts fall
    on a clause boundary (`; `, `: `, `, `) outside a `code span`, else on a space."""
    first, newline, _ = message.partition("\n")
    if len(first) <= limit:
        return (first, message) if newline else (message, "")
    chosen: list[tuple[int, int, str]] = []
    length = len(first)
    for start, end in sorted(_asides(first), key=lambda span: span[0] - span[1]):  # the longest first
        if length <= limit:
            break
        if end - start > len("(…)") + 8:
            short = _first_items(first[start:end], end - start - (length - limit)) or "(…)"
            chosen.append((start, end, short))
            length -= end - start - len(short)
    for start, end, short in sorted(chosen, reverse=True):
        first = first[:start] + short + first[end:]
    if len(first) <= limit:
        return first, message
    tail = ""
    last = first.rfind("; ")
    if last != -1 and len(first) - last - 2 <= limit // 2 and first[: last].count("`") % 2 == 0:
        tail = first[last:]
    budget = limit - len(" …") - len(tail)
    cut = _boundary(first, budget)
    return first[:cut].rstrip(" ,;:") + " …" + tail, message


_LIST_ITEMS = 3  # items a cut list keeps in a headline at most


def _first_items(aside: str, room: int) -> str | None:
    """A parenthesised list (`(line 3 `a.md`, line 4 `b.md`, …)`) cut to its first few items and `…`
    within `room` characters; None when it is no list or not even its first item fits."""
    inner = aside[1:-1]
    for sep in ("; ", ", "):
        items = _split_top(inner, sep)
        if len(items) < 2:
            continue
        for keep in range(min(len(items) - 1, _LIST_ITEMS), 0, -1):
            shortened = "(" + sep.join(items[:keep]) + sep + "…)"
            if len(shortened) <= room:
                return shortened
        return None
    return None


def _split_top(text: str, sep: str) -> list[str]:
    """`text` split at `sep` outside backticks and parentheses."""
    parts, depth, code, start, i = [], 0, False, 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "`":
            code = not code
        elif not code and ch == "(":
            depth += 1
        elif not code and ch == ")" and depth:
            depth -= 1
        elif not code and not depth and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i = i + len(sep)
            continue
        i += 1
    parts.append(text[start:])
    return parts


def _asides(text: str) -> list[tuple[int, int]]:
    """(start, end) of each outermost parenthesised group outside backticks."""
    spans: list[tuple[int, int]] = []
    depth, opened, code = 0, -1, False
    for i, ch in enumerate(text):
        if ch == "`":
            code = not code
        elif code:
            continue
        elif ch == "(":
            if depth == 0:
                opened = i
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                spans.append((opened, i + 1))
    return spans


def _boundary(text: str, budget: int) -> int:
    """The end of the longest prefix of `text` up to `budget` characters that ends before a clause
    separator (else a space) outside backticks; `budget` itself when there is none."""
    for separators in (("; ", ": ", ", ", " ("), (" ",)):
        best = -1
        for sep in separators:
            at = text.rfind(sep, budget // 2, budget)
            while at != -1 and text[:at].count("`") % 2:
                at = text.rfind(sep, budget // 2, at)
            best = max(best, at)
        if best != -1:
            return best
    return budget
