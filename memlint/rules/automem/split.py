"""The split of MEMORY.md: when the index is over Claude Code's write-guard target (140 lines or
17,500 UTF-16 units, the 70 % its own guard asks for), move just enough detail into new topic
files to get under it.

What may move and what is picked is `_split_units.py`: entries, standing instructions, comments
and the introduction stay byte-identical; a whole section becomes one entry (titled with its
heading) under its parent heading; a run of detail inside a section that keeps something becomes
one entry in its place. Each new topic file holds the moved lines verbatim under frontmatter.

`plan_split` is a pure function of the index text and of what already exists beside it; it never
writes. It checks its own result before returning it: every non-blank line of the old MEMORY.md
is in the new MEMORY.md or in exactly one new topic file, else `SplitError`. A topic file that an
earlier, interrupted split already wrote (same `name`, same body up to white space) is linked
again instead of being written a second time under another name.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import field
from pathlib import Path

from memlint.model.automem import (
    GUARD_TARGET_LINES,
    GUARD_TARGET_UNITS,
    Truncation,
    cut_index,
)
from memlint.model.document import Document
from memlint.model.frontmatter import parse_frontmatter
from memlint.model.jstext import JS_WS_CLASS, js_trim, utf16_len
from memlint.records import dataclass
from memlint.rules.automem._index import MAX_LINE_CHARS, Index, parse_index, plain_text, shorten
from memlint.rules.automem._lines import Line
from memlint.rules.automem._split_units import Candidates, candidates, pick

TYPES = ("user", "feedback", "project", "reference")
MAX_DESCRIPTION = 150
MAX_SLUG = 48
# File names a new topic file never takes: Claude Code's own files, and names Windows reserves.
_RESERVED = {"memory", "claude", "claude-local", "agents", "readme", "con", "prn", "aux", "nul",
             *(f"com{n}" for n in range(10)), *(f"lpt{n}" for n in range(10))}
_TYPE_WORDS = (
    ("user", re.compile(r"\b(user|preferences?|about me|persona)\b", re.IGNORECASE)),
    ("feedback", re.compile(r"\b(feedback|lessons?|corrections?|mistakes?|gotchas?|pitfalls?|avoid)\b", re.IGNORECASE)),
    ("reference", re.compile(r"\b(references?|links?|resources?|docs|documentation|urls?|contacts?)\b", re.IGNORECASE)),
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s|[\u3002\uff01\uff1f]")
_TABLE_RULE = re.compile(r"\|?[ \t]*:?-{2,}:?[ \t]*(\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*")
_MAX_ROUNDS = 6


class SplitError(Exception):
    """The split would lose text; nothing is offered."""


@dataclass(frozen=True)
class NewTopic:
    path: Path
    name: str
    title: str
    description: str
    text: str  # the whole file as written
    source: str = field(repr=False)  # the old MEMORY.md (not a copy)
    span: tuple[int, int]  # where in `source` the moved lines are
    reused: bool  # already on disk from an earlier run: linked, not written

    @property
    def moved(self) -> str:
        """The lines of MEMORY.md it holds, verbatim (sliced when asked: a run keeps every plan)."""
        return self.source[self.span[0] : self.span[1]]


@dataclass(frozen=True)
class SplitPlan:
    old_text: str
    topics: tuple[NewTopic, ...]
    replacements: tuple[tuple[int, int, str], ...]  # (start, end, new text) in the old MEMORY.md
    entries: tuple[str, ...] = ()  # the entry lines the split adds

    @property
    def new_text(self) -> str:
        """The new MEMORY.md, made when asked (a run keeps every plan; few ask for this)."""
        return _apply(self.old_text, self.replacements)

    @property
    def truncation(self) -> Truncation:
        """How Claude Code would load the new MEMORY.md."""
        return measure(self.new_text)


def measure(text: str) -> Truncation:
    """Claude Code's cut of MEMORY.md text (the markdown parse only when comments need it)."""
    doc = Document.from_text(Path("MEMORY.md"), text)
    body = doc.body
    return cut_index(doc.loaded if "<!--" in body else body)  # not cached: a plan's texts are not kept


def slugify(title: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    if len(slug) > MAX_SLUG:
        slug = slug[:MAX_SLUG].rsplit("-", 1)[0] if "-" in slug[:MAX_SLUG] else slug[:MAX_SLUG]
    return slug or "note"


def infer_type(title: str, heading: str | None, default: str) -> str:
    for value, pattern in _TYPE_WORDS:
        if pattern.search(title) or (heading and pattern.search(heading)):
            return value
    return default


def first_sentence(words: str) -> str:
    """The first sentence of `words`, white space made plain, at most 150 characters."""
    match = _SENTENCE_END.search(words)
    if match and match.start() > 0:
        words = words[: match.start() + (1 if words[match.start()] in "\u3002\uff01\uff1f" else 0)]
    return shorten(_plain_spaces(words), MAX_DESCRIPTION)


_SPACES = re.compile(f"[{JS_WS_CLASS}]+")


def _plain_spaces(words: str) -> str:
    return _SPACES.sub(" ", words).strip(" ")


_PLAIN_SAFE = re.compile(r"[^:#'\"{}\[\]&*!|>%@`,\\\n\r\t\u0085\u2028\u2029\ufeff]*")


def yaml_scalar(value: str) -> str:
    """`value` as a YAML scalar that reads back as exactly `value`."""
    if value[:1].isalpha() and " " in value and _PLAIN_SAFE.fullmatch(value) and value == value.strip():
        return value  # words, no indicator, quote, comment or mapping character: YAML reads it as written
    plain = parse_frontmatter(f"---\nv: {value}\n---\n")
    if plain is not None and plain.error is None and not plain.retried and plain.data.get("v") == value:
        return value
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def describe(lines: list[Line], title: str) -> str:
    """One line that says what the moved lines hold: their first items, a table's columns and
    size, or a code block's first line; never a table header alone, a rule, or the title again."""
    parts: list[str] = []
    size = 0
    i = 0
    code: str | None = None
    while i < len(lines) and size < 120:
        line = lines[i]
        content = line.content.strip()
        i += 1
        if line.kind == "code":
            if code is None and not content.startswith(("```", "~~~")) and content:
                code = content
            continue
        if line.kind != "detail" or not content:
            continue
        if content.startswith("|"):
            rows = [content]
            while i < len(lines) and lines[i].content.strip().startswith("|"):
                rows.append(lines[i].content.strip())
                i += 1
            body = [r for r in rows if not _TABLE_RULE.fullmatch(r)]
            if len(body) < len(rows) and len(body) >= 1:
                cells = [plain_text(c) for c in rows[0].strip("|").split("|")]
                columns = ", ".join(c for c in cells if c)
                words = f"table of {len(body) - 1} row{'s' if len(body) != 2 else ''}" + (
                    f" ({columns})" if columns else "")
            else:
                words = plain_text(rows[0])
        else:
            words = plain_text(content)
        words = _plain_spaces(words)
        if not words or words.casefold() == title.casefold():
            continue
        parts.append(words)
        size += len(words) + 2
    if not parts and code is not None:
        parts.append(f"code: {_plain_spaces(code)}")
    text = "".join(p + ("" if n == len(parts) - 1 else " " if p.endswith((".", "!", "?", ":", "\u3002")) else "; ")
                   for n, p in enumerate(parts)) or f"{sum(1 for ln in lines if ln.kind != 'blank')} lines moved from MEMORY.md"
    return shorten(text, MAX_DESCRIPTION)


def _is_ours(existing: str, name: str, moved: str) -> bool:
    """An earlier split wrote this file: same `name`, same body up to white space."""
    fm = parse_frontmatter(existing)
    if fm is None or str(fm.data.get("name")) != name:  # (an older split wrote `name: 2026` unquoted)
        return False
    return _normalized(existing[fm.end_offset :]) == _normalized(moved)


def _normalized(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if line.strip()]


def _digest(text: str, k: int, length: int) -> str:
    return hashlib.sha1(f"{k}\0{text}".encode()).hexdigest()[:length]


def name_key(name: str) -> str:
    """What two file names that one disk may treat as the same file have in common."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFC", name)).casefold()


def _separator(index: Index) -> str:
    """The title/hook separator the index already uses most (` — ` when none)."""
    seen: Counter[str] = Counter()
    for entry in index.entries[:200]:
        m = re.search(r"\]\([^)]*\)([ \t]+(?:\u2014|\u2013|--?|:)[ \t]+)", entry.line.content)
        if m:
            seen[m.group(1)] += 1
    return seen.most_common(1)[0][0] if seen else " \u2014 "


def entry_line(title: str, name: str, description: str, separator: str) -> str:
    title = title.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    prefix = f"- [{title}]({name}.md){separator}"
    return prefix + shorten(description, max(20, MAX_LINE_CHARS - len(prefix)))


def plan_split(
    text: str,
    folder: Path,
    existing: Callable[[Path], str | None],
    taken: Collection[str] = (),
    default_type: str = "project",
    intro_lines: int = 3,
) -> SplitPlan | None:
    """The split of MEMORY.md text `text` in `folder`, or None when the index is already under
    the write-guard target or nothing may move.

    `existing(path)` gives the text of a file that exists (None when it does not); `taken` holds
    the names of files in the folder (a name equal up to case or Unicode normalisation is taken)."""
    before = measure(text)
    over_lines = before.line_count - GUARD_TARGET_LINES
    over_units = before.size - GUARD_TARGET_UNITS
    if over_lines <= 0 and over_units <= 0:
        return None
    doc = Document.from_text(folder / "MEMORY.md", text)
    index = parse_index(doc, intro_lines)
    newline = doc.newline
    separator = _separator(index)
    lines = index.lines
    if utf16_len(text) == len(text):  # no character takes two UTF-16 units: one length per line
        line_units = [len(lines.raw(i).rstrip("\r\n")) + 1 for i in range(len(lines))]
    else:
        line_units = [utf16_len(lines.raw(i).rstrip("\r\n")) + 1 for i in range(len(lines))]

    def cost(title: str, _: str) -> tuple[int, int]:
        return 1, len(entry_line(title, slugify(title), "x" * 100, separator)) + 1

    def links_existing(target: str) -> bool:
        return existing(folder / target) is not None

    found = candidates(index, links_existing, intro_lines, cost, line_units)
    if not found.units:
        return None
    o = found.outline
    chosen: set[int] = set()
    plan: SplitPlan | None = None
    for _ in range(_MAX_ROUNDS):
        size = len(chosen)
        pick(found, o, chosen, over_lines, over_units)
        if len(chosen) == size:
            break
        plan = _build(text, folder, index, found, sorted(chosen), existing, taken, default_type, newline, separator)
        after = plan.truncation
        over_lines = after.line_count - GUARD_TARGET_LINES
        over_units = after.size - GUARD_TARGET_UNITS
        if over_lines <= 0 and over_units <= 0:
            break
    if plan is None:
        return None
    verify(plan, text, intro_lines)
    return plan


def _build(
    text: str, folder: Path, index: Index, found: Candidates, chosen: list[int],
    existing: Callable[[Path], str | None], taken: Collection[str], default_type: str, newline: str,
    separator: str,
) -> SplitPlan:
    lines = index.lines
    used = {name_key(t) for t in taken} | {"memory.md"}
    planned: set[str] = set()
    topics: list[NewTopic] = []
    entries: dict[int, str] = {}
    for n in chosen:
        unit = found.units[n]
        moved_lines = lines[unit.first : unit.last + 1]
        span = (lines.start(unit.first), lines.end(unit.last))
        moved = text[span[0] : span[1]]
        heading = plain_text(lines.content(unit.heading)) if unit.heading >= 0 else None
        description = describe(list(moved_lines[1:] if unit.whole else moved_lines), unit.title)
        name, on_disk = _name(folder, unit.title, moved, existing, used, planned)
        planned.add(name_key(f"{name}.md"))
        kind = infer_type(unit.title, heading, default_type)
        body = moved if moved.endswith("\n") else moved + newline
        file_text = newline.join(["---", f"name: {yaml_scalar(name)}", f"description: {yaml_scalar(description)}", "metadata:",
                                  f"  type: {kind}", "---", "", ""]) + body
        reused = on_disk is not None
        topics.append(NewTopic(folder / f"{name}.md", name, unit.title, description,
                               on_disk if on_disk is not None else file_text, text, span, reused))
        entries[n] = entry_line(unit.title, name, description, separator)
    replacements = _replacements(text, index, found, chosen, entries, newline)
    return SplitPlan(text, tuple(topics), tuple(replacements), tuple(entries[n] for n in chosen))


def _name(
    folder: Path, title: str, moved: str, existing: Callable[[Path], str | None], used: set[str], planned: set[str]
) -> tuple[str, str | None]:
    """A unique lowercase slug for the new file, and the file's text when an earlier,
    interrupted split already wrote it."""
    base = slugify(title)
    if base in _RESERVED:
        base += "-notes"
    name, k = base, 0
    while True:
        key = name_key(f"{name}.md")
        if key not in planned:
            on_disk = existing(folder / f"{name}.md")
            if on_disk is not None and _is_ours(on_disk, name, moved):
                return name, on_disk
            if on_disk is None and key not in used:
                return name, None
        name = f"{base}-{_digest(moved, k // 4, 6 + 2 * (k % 4))}"
        k += 1


def _replacements(
    text: str, index: Index, found: Candidates, chosen: list[int], entries: dict[int, str], newline: str
) -> list[tuple[int, int, str]]:
    """Chosen runs become their entry in place; chosen sections are removed, and their entries go
    after the last line of the parent heading's own body (a blank line before and after as needed)."""
    lines = index.lines
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
            by_parent.setdefault(unit.parent, []).append(entries[n])
        else:
            ending = newline if lines.raw(unit.last).endswith("\n") else ""
            out.append((lines.start(unit.first), lines.end(unit.last), entries[n] + ending))
            in_run.update((unit.first, unit.last))
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


def _apply(text: str, replacements: Sequence[tuple[int, int, str]]) -> str:
    out, cursor = [], 0
    for start, end, new in replacements:
        out.append(text[cursor:start])
        out.append(new)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


def _lines(text: str) -> list[str]:
    return [line.removesuffix("\r") for line in text.split("\n") if js_trim(line)]


def verify(plan: SplitPlan, old_text: str, intro_lines: int = 3) -> None:
    """Refuse a plan that loses or copies text: the non-blank lines of the old MEMORY.md are
    exactly those of the new MEMORY.md (less the entries the split adds) and of the moved blocks,
    and every topic file holds its moved block verbatim."""
    for topic in plan.topics:
        if topic.reused:
            if not _is_ours(topic.text, topic.name, topic.moved):
                raise SplitError(f"{topic.path.name} does not hold the block it stands for")
        elif topic.moved not in topic.text:
            raise SplitError(f"{topic.path.name} does not hold its block verbatim")
    old = Counter(_lines(old_text))
    new = Counter(_lines(plan.new_text))
    new.subtract(Counter(_lines("\n".join(plan.entries))))
    new.update(line for t in plan.topics for line in _lines(t.moved))
    if +new != +old or any(v < 0 for v in new.values()):
        lost = next(iter((old - new) or (new - old)), "")
        raise SplitError(f"the line {lost[:60]!r} would be lost or copied")
    spans = [(s, e) for s, e, _ in plan.replacements]
    if any(a[1] > b[0] for a, b in itertools.pairwise(spans)):
        raise SplitError("overlapping blocks")
