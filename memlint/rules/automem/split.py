"""The split of MEMORY.md: one planned, explained transformation that makes the index load whole.

Claude Code loads the first 200 lines / 25,000 UTF-16 units of MEMORY.md. The plan reaches that
goal with a margin (under the 160-line / 20,000-unit point where Claude Code's write guard starts
to warn, so the next appended entry still loads), and pursues the guard's own 140 / 17,500 target
only with moves that change nothing Claude needs at start. The stages, in order, each run only
while the index is still over:

1. blank separator lines go (when the index is over 160 lines);
2. detail moves, largest first (`_split_detail`, `_split_units`): a whole section becomes its
   entries under its parent heading, detail inside a section that keeps something becomes entries
   in its place, a procedure or table moves whole; an instruction that stands alone stays;
3. only for an index that is cut, while it is still over the margin, the entry stages
   (`_split_entries`): older entries of a topic linked again later go to one file of superseded
   entries; over-long entries to missing files get their file and a short line; whole groups of
   entries move into second-level index files, historical ones first, until the index is under the
   warning point (else Claude Code's write guard would tell the agent to compact it after every write).

If the index still would not load whole, nothing changes and `Floor` says why: what is left by
category against the limit, the lines that block, and the smallest change by hand that would fit.

`plan_split` is a pure function of the index text and of what exists beside it; it never writes.
It checks its own result before returning it: every non-blank line of the old MEMORY.md is, byte
for byte, in exactly one place (the new MEMORY.md, in its old order, or one new topic file), and
the only new lines of MEMORY.md are the entries and shortened entries it wrote; else `SplitError`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from pathlib import Path

from memlint.model.cli_js.jstext import js_trim
from memlint.model.memory.automem import (
    GUARD_TARGET_LINES,
    GUARD_TARGET_UNITS,
    GUARD_WARN_LINES,
    GUARD_WARN_UNITS,
    MAX_LINES,
    MAX_UNITS,
    Truncation,
    cut_index,
)
from memlint.model.text.document import Document
from memlint.records import dataclass
from memlint.rules.automem._index import Index, parse_index
from memlint.rules.automem._split_detail import move_detail
from memlint.rules.automem._split_entries import (
    INSTRUCTION_CAP,
    cap_instructions,
    drop_blanks,
    move_groups,
    shorten_dangling,
    supersede,
)
from memlint.rules.automem._split_files import (
    MAX_DESCRIPTION as MAX_DESCRIPTION,  # noqa: PLC0414 - re-exported
)
from memlint.rules.automem._split_files import NewTopic as NewTopic  # noqa: PLC0414 - re-exported
from memlint.rules.automem._split_files import (
    Writer,
    conventions,
    is_ours,
    name_key,
)
from memlint.rules.automem._split_files import first_sentence as first_sentence  # noqa: PLC0414
from memlint.rules.automem._split_files import infer_type as infer_type  # noqa: PLC0414
from memlint.rules.automem._split_files import slugify as slugify  # noqa: PLC0414
from memlint.rules.automem._split_files import yaml_scalar as yaml_scalar  # noqa: PLC0414
from memlint.rules.automem._split_floor import Floor, floor_of, lower_bound
from memlint.rules.automem._split_text import SplitError as SplitError  # noqa: PLC0414 - re-exported
from memlint.rules.automem._split_text import apply, separator
from memlint.rules.automem._split_units import instruction_lines

FIT_LINES = GUARD_WARN_LINES - 1  # what the entry stages aim for: under the write guard's warning
FIT_UNITS = GUARD_WARN_UNITS - 1


@dataclass(frozen=True)
class SplitPlan:
    old_text: str
    new_text: str
    topics: tuple[NewTopic, ...]
    added: tuple[str, ...]  # the lines the split writes into MEMORY.md (entries, shortened entries)
    steps: tuple[str, ...]  # what each stage did, in order
    before: Truncation
    floor: Floor | None = None  # set when no split makes the index fit: nothing changes
    moved_detail: bool = False  # the plan moves detail (not only entries and layout)

    @property
    def replacements(self) -> tuple[tuple[int, int, str], ...]:
        """The change of MEMORY.md as one replacement of the part that differs."""
        old, new = self.old_text, self.new_text
        if old == new:
            return ()
        head = 0
        limit = min(len(old), len(new))
        while head < limit and old[head] == new[head]:
            head += 1
        tail = 0
        while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
            tail += 1
        return ((head, len(old) - tail, new[head : len(new) - tail]),)

    @property
    def entries(self) -> tuple[str, ...]:
        return self.added

    @property
    def truncation(self) -> Truncation:
        """How Claude Code would load the new MEMORY.md."""
        return measure(self.new_text)

    def explanation(self) -> tuple[str, ...]:
        """What the plan does, for `fix --diff` and the summary."""
        after = self.truncation
        head = (f"MEMORY.md: {self.before.line_count} lines, {self.before.size:,} units -> "
                f"{after.line_count} lines, {after.size:,} units"
                + ("; now loads whole" if not after.truncated else "; still cut"))
        index = _index(self.new_text, 3)
        lines = index.lines
        headings = sum(1 for i in range(len(lines)) if lines.kind(i) == "heading")
        orders = len(instruction_lines(lines))
        added = Counter(_lines("\n".join(self.added)))
        new = sum(1 for line in _lines(self.new_text) if _take(added, line))
        kept = (f"kept in MEMORY.md: {len(index.entries)} entries ({new} of them new), "
                f"{orders} standing instruction{'s' if orders != 1 else ''}, {headings} heading{'s' if headings != 1 else ''}")
        return (head, *self.steps, kept)


def measure(text: str) -> Truncation:
    """Claude Code's cut of MEMORY.md text (the markdown parse only when comments need it)."""
    doc = Document.from_text(Path("MEMORY.md"), text)
    body = doc.body
    return cut_index(doc.loaded if "<!--" in body else body)  # not cached: a plan's texts are not kept


def _index(text: str, intro_lines: int) -> Index:
    return parse_index(Document.from_text(Path("MEMORY.md"), text), intro_lines, cached=False)


def plan_split(
    text: str,
    folder: Path,
    existing: Callable[[Path], str | None],
    taken: Collection[str] = (),
    default_type: str = "project",
    intro_lines: int = 3,
) -> SplitPlan | None:
    """The split of MEMORY.md text `text` in `folder`, or None when the index is already under
    the write-guard target or nothing may move. A plan with a `floor` changes nothing: it says why
    the index cannot be made to load whole.

    `existing(path)` gives the text of a file that exists (None when it does not); `taken` holds
    the names of files in the folder (a name equal up to case or Unicode normalisation is taken)."""
    before = measure(text)
    bom = "\ufeff" if text.startswith("\ufeff") else ""  # it stays first in MEMORY.md, never moves
    work = text[len(bom) :]
    doc = Document.from_text(folder / "MEMORY.md", work)
    newline = doc.newline
    index = parse_index(doc, intro_lines)
    if before.line_count <= GUARD_TARGET_LINES and before.size <= GUARD_TARGET_UNITS:
        return None  # under the write guard's target: detail there is the author's choice
    if before.truncated and (early := lower_bound(index)) is not None:
        return SplitPlan(text, text, (), (), (), before, early)
    # the conventions of the memories the index links (files an interrupted split wrote are not
    # linked yet, and must not change the names a second run gives), else of the folder's files
    linked = sorted({link.target for link in index.links if "/" not in link.target} & set(taken))
    writer = Writer(folder, existing, {name_key(t) for t in taken} | {"memory.md"},
                    conventions(folder, linked or taken, existing), newline, separator(index), default_type)

    def links_existing(target: str) -> bool:
        return existing(folder / target) is not None

    run = _Run(work, index, intro_lines)
    if before.line_count > FIT_LINES:
        run.take(drop_blanks(run.index), "dropped {k} blank separator lines")
    # all the detail that costs index lines or units: it belongs in topic files (ML304), and moving it
    # changes nothing Claude needs at start
    run.take(move_detail(run.index, writer, links_existing, intro_lines), "moved detail into {n} topic file(s): {names}")
    moved_detail = bool(run.topics)
    entry_steps = len(run.steps)
    if before.truncated or run.past(MAX_LINES, MAX_UNITS):
        if max(run.over(FIT_LINES, FIT_UNITS)) > 0:
            run.take(supersede(run.index, writer), "moved {k} superseded entries (older entries of topics "
                                                   "listed again later) into {names}")
        units_over = run.over(FIT_LINES, FIT_UNITS)[1]
        if units_over > 0:
            run.take(shorten_dangling(run.index, writer, links_existing, units_over),
                     "shortened {k} over-long entries whose topic file was missing; each full entry is now "
                     "that file: {names}")
        if run.past(MAX_LINES, MAX_UNITS):
            run.take(cap_instructions(run.index, writer), "kept the first {cap} standing instructions; moved the "
                     "other {k} into {names}")
        # groups hide entries Claude sees today: only for an index that is cut, and only until it is
        # under the write guard's warning (left at 160-199 lines, Claude Code would tell the agent to
        # compact it after every write, and the check after the fix would warn, ML302)
        lines_over, units_over = run.over(FIT_LINES, FIT_UNITS)
        if lines_over > 0 or units_over > 0:
            run.take(move_groups(run.index, writer, lambda sl, su: sl < lines_over or su < units_over),
                     "moved {n} group(s) of entries into second-level index files: {names}")
    if len(run.steps) > entry_steps and run.past(GUARD_TARGET_LINES, GUARD_TARGET_UNITS):
        # an entry stage can leave detail standing alone (the entry above it moved as superseded):
        # it moves as the rest did, or a second split would move it (the split is idempotent)
        topics = len(run.topics)
        run.take(move_detail(run.index, writer, links_existing, intro_lines),
                 "moved the detail the moves above left alone into {n} topic file(s): {names}")
        moved_detail = moved_detail or len(run.topics) > topics
    if run.text != work and run.past(FIT_LINES, 10**9):
        # the entries written in place of sections may bring blank lines back: while the index is
        # still over the margin, none stays (a second run would drop them: the split is idempotent)
        run.take(drop_blanks(run.index), "dropped {k} blank separator lines")
    if run.text == work:
        return _refusal(text, work, before, intro_lines) if before.truncated else None
    if run.past(MAX_LINES, MAX_UNITS):
        return _refusal(text, run.text, before, intro_lines)
    plan = SplitPlan(text, bom + run.text, tuple(run.topics), tuple(run.added), tuple(run.steps), before,
                     moved_detail=moved_detail)
    verify(plan, text)
    return plan


class _Run:
    """The text as the stages leave it, and what they made."""

    def __init__(self, text: str, index: Index, intro_lines: int) -> None:
        self.text = text
        self._index: Index | None = index
        self._cut: Truncation | None = None
        self.intro_lines = intro_lines
        self.topics: list[NewTopic] = []
        self.added: list[str] = []
        self.steps: list[str] = []

    @property
    def index(self) -> Index:
        """The index of the text as it is now (parsed when a stage asks)."""
        if self._index is None:
            self._index = _index(self.text, self.intro_lines)
        return self._index

    @property
    def cut(self) -> Truncation:
        """Claude Code's cut of the text as it is now (measured once per text)."""
        if self._cut is None:
            self._cut = measure(self.text)
        return self._cut

    def over(self, lines: int, units: int) -> tuple[int, int]:
        """How many lines and UTF-16 units the text is over `lines` and `units`."""
        return self.cut.line_count - lines, self.cut.size - units

    def past(self, lines: int, units: int) -> bool:
        return max(self.over(lines, units)) > 0

    def take(self, stage: tuple[list[tuple[int, int, str]], list[NewTopic], list[str]] | None, step: str) -> None:
        if stage is None or not stage[0]:
            return
        self.text = apply(self.text, stage[0])
        self._index = self._cut = None
        self.topics.extend(stage[1])
        self.added.extend(stage[2])
        self.steps.append(step.format(n=len(stage[1]), names=_names(stage[1]), k=len(stage[0]), cap=INSTRUCTION_CAP))


def _names(topics: list[NewTopic]) -> str:
    shown = ", ".join(t.path.name for t in topics[:4])
    return shown + (f", \u2026 ({len(topics)} in all)" if len(topics) > 4 else "")


def _refusal(text: str, best: str, before: Truncation, intro_lines: int) -> SplitPlan:
    return SplitPlan(text, text, (), (), (), before, floor_of(_index(best, intro_lines), measure(best)))


def _lines(text: str) -> list[str]:
    return [line.removesuffix("\r") for line in text.split("\n") if js_trim(line)]


def verify(plan: SplitPlan, old_text: str) -> None:
    """Refuse a plan that loses or copies text: the non-blank lines of the old MEMORY.md are
    exactly those of the new MEMORY.md, less the lines the split adds, plus the moved blocks; and
    every topic file holds its moved block verbatim."""
    for topic in plan.topics:
        if topic.reused:
            if not is_ours(topic.text, topic.name, topic.moved):
                raise SplitError(f"{topic.path.name} does not hold the block it stands for")
        elif topic.moved not in topic.text:
            raise SplitError(f"{topic.path.name} does not hold its block verbatim")
    if old_text.startswith("\ufeff") != plan.new_text.startswith("\ufeff"):
        raise SplitError("the byte-order mark would move")
    old_text, new_text = old_text.removeprefix("\ufeff"), plan.new_text.removeprefix("\ufeff")
    old = Counter(_lines(old_text))
    new = Counter(_lines(new_text))
    new.subtract(Counter(_lines("\n".join(plan.added))))
    new.update(line for t in plan.topics for line in _lines(t.moved))
    if +new != +old or any(v < 0 for v in new.values()):
        lost = next(iter((old - new) or (new - old)), "")
        raise SplitError(f"the line {lost[:60]!r} would be lost or copied")
    kept = _lines(new_text)
    added = Counter(_lines("\n".join(plan.added)))
    order = [line for line in kept if not _take(added, line)]
    if not _in_order(order, _lines(old_text)):
        raise SplitError("the lines MEMORY.md keeps would change their order")


def _take(counter: Counter[str], line: str) -> bool:
    if counter[line] > 0:
        counter[line] -= 1
        return True
    return False


def _in_order(sub: list[str], full: list[str]) -> bool:
    it = iter(full)
    return all(any(line == other for other in it) for line in sub)
