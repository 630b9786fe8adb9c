"""The stages of the MEMORY.md split that work on layout and entries, not on detail.

- `drop_blanks`: blank separator lines go (blank lines are layout); a blank line that markdown
  needs (before a rule line or after HTML, around code and comments) stays.
- `supersede`: where several entries link the same topic file (an index kept by appending), the
  newest stays in place and the older lines go, verbatim, into one file of superseded entries.
- `shorten_dangling`: an over-long entry that links a file missing from the folder gets that file
  (frontmatter, and the original line as its body); the index line keeps its link, its title and
  its first clause, and any clause that is an instruction.
- `move_groups`: whole groups (a heading and its entries, byte-identical) move into a
  second-level index file with one pointer each: historical groups first (a heading with a date,
  or one that says the group is done or archived), then the largest; never the title, a group that
  holds an instruction, or one under a heading that marks its section always-on.

Each stage returns replacements in the text it was given (start, end, new text), the files it
creates and the lines it adds to MEMORY.md.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.jstext import utf16_len
from memlint.model.text.instructions import is_instruction, marks_always_on
from memlint.rules.automem._index import LINK, Index, heading_text, plain_text, shorten
from memlint.rules.automem._lines import Lines
from memlint.rules.automem._split_files import NewTopic, Writer, is_ours, name_key
from memlint.rules.automem._split_units import always_on, instruction_lines, outline

Replacement = tuple[int, int, str]
Stage = tuple[list[Replacement], list[NewTopic], list[str]]

LONG_ENTRY = 150  # an entry longer than this is shortened (when its file is missing)
_HISTORY = compile_lazily(
    r"(?<![\w-])(?:19|20)\d{2}(?![\w])|(?<![\w-])(?:archived?|archives|completed?|done|history|historical|old|legacy|"
    r"deprecated|obsolete|past|superseded|previous|finished|closed|resolved|erledigt|archiv|abgeschlossen|"
    r"termin[ée]e?s?|archiv[ée]e?s?|historique|completad[oa]s?|archivad[oa]s?|hist[oó]rico|completat[oi]|"
    r"archiviat[oi]|storico|conclu[ií]d[oa]s?|arquivad[oa]s?|архив|завершено|история|выполнено)(?![\w-])"
    r"|归档|已完成|历史|歷史|完了|履歴|アーカイブ|過去|완료|보관|아카이브|지난",
    re.IGNORECASE,
)
_CLAUSE_END = compile_lazily(r"[.;!?。；！？](?:\s|$)|\s[\u2014\u2013]\s|\s-\s")
_HOOK_START = compile_lazily(r"[ \t]+(?:\u2014|\u2013|--?|:)[ \t]+")


def drop_blanks(index: Index) -> Stage:
    lines = index.lines
    out: list[Replacement] = []
    kinds = [lines.kind(i) for i in range(len(lines))]
    for i, kind in enumerate(kinds):
        if kind != "blank":
            continue
        before = next((j for j in range(i - 1, -1, -1) if kinds[j] != "blank"), -1)
        after = next((j for j in range(i + 1, len(kinds)) if kinds[j] != "blank"), -1)
        if before < 0 or after < 0:
            if after >= 0 or before >= 0:
                out.append((lines.start(i), lines.end(i), ""))
            continue
        if not _separates(lines.content(before), kinds[before], lines.content(after), kinds[after]):
            continue
        out.append((lines.start(i), lines.end(i), ""))
    return out, [], []


def _separates(prev: str, prev_kind: str, nxt: str, next_kind: str) -> bool:
    """A blank line between these two lines is a separator only (markdown reads the same text
    without it as far as an index goes)."""
    if prev_kind not in ("heading", "entry", "detail") or next_kind not in ("heading", "entry", "detail"):
        return False
    lead = nxt.lstrip()
    return not (prev.lstrip().startswith("<") or lead.startswith(("<", "=", "-  ", "    "))
                or nxt.startswith(("    ", "\t")))


def supersede(index: Index, writer: Writer) -> Stage | None:
    """Older entries that link the same topic file as a later one, moved into one file."""
    last: dict[str, int] = {}
    for entry in index.entries:
        last[_key(entry.target)] = entry.number
    older = [e for e in index.entries if last[_key(e.target)] != e.number]
    if not older:
        return None
    lines = index.lines
    rows = [e.number - lines.first for e in older]
    raw = [lines.raw(i) if lines.raw(i).endswith("\n") else lines.raw(i) + writer.newline for i in rows]
    made, pointers = writer.topics("Superseded index entries", raw, ["entry"] * len(raw), kind="reference",
                                   said=_superseded_said)
    first = rows[0]
    out: list[Replacement] = []
    for i in rows:
        new = ""
        if i == first:
            ending = writer.newline if lines.raw(i).endswith("\n") else ""
            new = writer.newline.join(pointers) + ending
        out.append((lines.start(i), lines.end(i), new))
    return out, made, pointers


def _superseded_said(contents: list[str], kinds: Sequence[str]) -> str:
    n = len(contents)
    return f"{n} older entr{'y' if n == 1 else 'ies'} of topics that have a newer entry in MEMORY.md; read only for history"


def _index_said(contents: list[str], kinds: Sequence[str]) -> str:
    titles = [plain_text(m.group(1)) for c, k in zip(contents, kinds) if k == "entry" and (m := LINK.search(c))]
    return shorten(f"index of {len(titles)} entries: " + ", ".join(titles[:4]), 150)


INSTRUCTION_CAP = 30  # standing instructions kept in the index before the rest goes to one file


def cap_instructions(index: Index, writer: Writer) -> Stage | None:
    """Standing instructions past the first `INSTRUCTION_CAP` (outside sections marked always-on)
    go, verbatim, to one feedback file, with one entry where the first of them was."""
    lines = index.lines
    o = outline(lines)
    kinds = [lines.kind(i) for i in range(len(lines))]
    always = always_on(lines, o)
    under: dict[int, int] = {}
    heading = -1
    for i in range(len(kinds)):
        if kinds[i] == "heading":
            heading = i
        under[i] = heading
    found = [i for i in instruction_lines(lines) if not (under[i] >= 0 and always[under[i]])]
    rows = found[INSTRUCTION_CAP:]
    if not rows:
        return None
    raw = [lines.raw(i) if lines.raw(i).endswith("\n") else lines.raw(i) + writer.newline for i in rows]
    made, pointers = writer.topics("More standing instructions", raw, ["detail"] * len(raw), kind="feedback",
                                   said=_instructions_said)
    out: list[Replacement] = []
    for n, i in enumerate(rows):
        ending = writer.newline if lines.raw(i).endswith("\n") else ""
        out.append((lines.start(i), lines.end(i), writer.newline.join(pointers) + ending if n == 0 else ""))
    return out, made, pointers


def _instructions_said(contents: list[str], kinds: Sequence[str]) -> str:
    n = len(contents)
    return f"{n} more standing instruction{'s' if n != 1 else ''} from MEMORY.md: read before starting any task"


def _key(target: str) -> str:
    return name_key(posixpath.normpath(target))


def shorten_dangling(index: Index, writer: Writer, exists: Callable[[str], bool], needed: int) -> Stage | None:
    """Over-long entries to missing files, longest first, until `needed` UTF-16 units are saved:
    each short line at most `LONG_ENTRY` characters, or shorter when that is not enough."""
    lines = index.lines
    dangling = []
    for entry in index.entries:
        i = entry.number - lines.first
        content = lines.content(i)
        target = entry.target
        if len(content) <= LONG_ENTRY or "/" in target.removeprefix("./") or not target.endswith(".md"):
            continue
        if exists(target):  # (or an interrupted split wrote it: then it holds exactly this line)
            stem = target.removeprefix("./")[:-3]
            raw = lines.raw(i) if lines.raw(i).endswith("\n") else lines.raw(i) + writer.newline
            on_disk = writer.existing(writer.folder / target.removeprefix("./"))
            if on_disk is None or not is_ours(on_disk, stem, raw):
                continue
        elif name_key(target.removeprefix("./")) in writer.used | writer.planned:
            continue
        dangling.append((i, target, content))
    if not dangling:
        return None
    for cap in (LONG_ENTRY, 120, 100, 80, 60):
        shortened = [(utf16_len(content) - utf16_len(short), i, target, short) for i, target, content in dangling
                     if (short := _short_line(content, cap)) is not None and len(short) < len(content)]
        if sum(gain for gain, *_ in shortened) >= needed:
            break
    shortened.sort(key=lambda t: (-t[0], t[1]))
    out: list[Replacement] = []
    made: list[NewTopic] = []
    added: list[str] = []
    saved = 0
    for gain, i, target, short in shortened:
        if saved >= needed:
            break
        name = target.removeprefix("./")[:-3]
        raw = lines.raw(i) if lines.raw(i).endswith("\n") else lines.raw(i) + writer.newline
        topic = writer.named(name, raw, "entry")
        if topic is None:
            continue
        made.append(topic)
        ending = lines.raw(i)[len(lines.content(i)) :]
        out.append((lines.start(i), lines.end(i), short + ending))
        added.append(short)
        saved += gain
    out.sort()
    return (out, made, added) if out else None


def _short_line(content: str, cap: int) -> str | None:
    """The entry with its title, link and first clause, and any clause that is an instruction."""
    link = LINK.search(content)
    if link is None:
        return None
    head = content[: link.end()]
    rest = content[link.end() :]
    sep = _HOOK_START.match(rest)
    joiner = sep.group(0) if sep else " \u2014 "
    hook = rest[sep.end() :] if sep else rest.strip()
    clauses = _clauses(hook)
    if not clauses:
        return head
    kept = [clauses[0]] + [c for c in clauses[1:] if is_instruction(c)]
    words = "; ".join(c.strip().rstrip(".;") for c in kept)
    return head + joiner + shorten(words, max(24, cap - len(head) - len(joiner)))


def _clauses(hook: str) -> list[str]:
    out, start = [], 0
    for match in _CLAUSE_END.finditer(hook):
        piece = hook[start : match.start() + (1 if match.group(0)[0] in ".!?。！？" else 0)].strip()
        if piece:
            out.append(piece)
        start = match.end()
    tail = hook[start:].strip()
    if tail:
        out.append(tail)
    return out


def move_groups(index: Index, writer: Writer, need: Callable[[int, int], bool]) -> Stage | None:
    """Whole groups of entries into second-level index files, until `need(lines, units saved)` is
    False: historical groups first, then the largest."""
    lines = index.lines
    o = outline(lines)
    kinds = [lines.kind(i) for i in range(len(lines))]
    holds = _instruction_lines(lines, kinds)
    prefix = [0]
    for i in range(len(lines)):
        prefix.append(prefix[-1] + (1 if holds[i] else 0))
    always = always_on(lines, o)  # (inherited: a section under an always-on one is always-on)
    entries_before = [0]
    for kind in kinds:
        entries_before.append(entries_before[-1] + (kind == "entry"))
    groups = []
    for h in o.heads:
        if h == o.title:
            continue
        end = o.subtree_end[h]
        if entries_before[end] == entries_before[h + 1] or prefix[end] > prefix[h]:
            continue  # no entry, or an instruction (or an always-on heading) inside
        if o.parent[h] >= 0 and always[o.parent[h]]:
            continue  # inside a section marked always-on
        last = next(i for i in range(end - 1, h, -1) if kinds[i] != "blank")
        size = lines.end(last) - lines.start(h)
        title = heading_text(lines.content(h))[1]
        groups.append((0 if _HISTORY.search(title) else 1, -(last + 1 - h), -size, h, last, end, title))
    if not groups:
        return None
    groups.sort()
    chosen: list[tuple[int, int, int, str]] = []
    taken: set[int] = set()  # headings inside or around a chosen group
    saved_lines = saved_units = 0
    for *_, h, last, end, title in groups:
        if not need(saved_lines, saved_units):
            break
        if h in taken:
            continue
        chosen.append((h, last, end, title))
        taken.update(x for x in range(h, end) if kinds[x] == "heading")
        p = o.parent[h]
        while p >= 0:
            taken.add(p)
            p = o.parent[p]
        saved_lines += last - h
        saved_units += lines.end(last) - lines.start(h) - 120
    if not chosen:
        return None
    out: list[Replacement] = []
    made: list[NewTopic] = []
    added: list[str] = []
    by_parent: dict[int, list[str]] = {}
    for h, last, end, title in sorted(chosen):
        raw = [lines.raw(i) for i in range(h, last + 1)]
        if not raw[-1].endswith("\n"):
            raw[-1] += writer.newline
        group_topics, pointers = writer.topics(title or "Index", raw, [kinds[i] for i in range(h, last + 1)],
                                               kind="reference", said=_index_said)
        made += group_topics
        added += pointers
        out.append((lines.start(h), lines.end(last), ""))
        by_parent.setdefault(o.parent[h], []).extend(pointers)
    for parent, pointers in by_parent.items():
        out.append(_insertion(lines, o.own_end[parent] if parent >= 0 else o.preamble_end, parent, pointers,
                              writer.newline))
    out.sort(key=lambda r: (r[0], r[1]))
    return out, made, added


def _insertion(lines: Lines, stop: int, parent: int, new: list[str], newline: str) -> Replacement:
    """The pointer lines after the last non-blank line of the parent's own body (or its heading)."""
    start = max(parent, 0)
    last = next((i for i in range(stop - 1, start - 1, -1) if lines.kind(i) != "blank"), -1)
    if last < 0:
        at = lines.start(0) if len(lines) else len(lines.text)
        if at == 0 and lines.text.startswith("\ufeff"):
            at = 1
        return at, at, newline.join(new) + newline
    at = lines.end(last)
    before = "" if lines.raw(last).endswith("\n") else newline
    return at, at, before + newline.join(new) + newline


def _instruction_lines(lines: Lines, kinds: Sequence[str]) -> list[bool]:
    """Which lines keep their group in MEMORY.md: an always-on heading, an instruction that stands
    alone, an entry whose hook is an instruction."""
    out = [False] * len(kinds)
    for i in instruction_lines(lines):
        out[i] = True
    for i, kind in enumerate(kinds):
        if kind == "heading":
            out[i] = marks_always_on(heading_text(lines.content(i))[1])
        elif kind == "entry":
            out[i] = is_instruction(plain_text(content_after_link(lines.content(i))))
    return out


def content_after_link(content: str) -> str:
    link = LINK.search(content)
    if link is None:
        return content
    rest = content[link.end() :]
    sep = _HOOK_START.match(rest)
    return rest[sep.end() :] if sep else rest
