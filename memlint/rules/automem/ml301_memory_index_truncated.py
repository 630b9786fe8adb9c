"""MEMORY.md is over 200 lines or 25,000 UTF-16 units, so Claude Code loads only part of it.

## What it does
Applies Claude Code's cut to MEMORY.md (spec section 5: the first 200 lines, then at the last
newline before 25,000 UTF-16 units) and reports the first line that is cut, the index entries
(by title) that Claude never sees, and the exact WARNING line Claude Code appends instead. A
MEMORY.md that memlint judges kept by hand (`model.memory_identity`: no auto-memory folder, no
include, no memory topic files beside it) is not cut by Claude Code; when it is over the limit and
looks like a copy of an auto memory (it links a `.md` file, or its folder's name holds `memory`,
Claude Code's name for the folder: `memory/`, `claude-memory/`), an `info` finding says so and
names `memlint fix PATH`, which fixes a MEMORY.md you name as an index. A MEMORY.md that is neither
(a dated log in an archive folder) only shares the name: nothing is said about it.

## Why is this bad?
Every entry past the cut is invisible: Claude does not know the memory exists and never reads its
topic file. Detail written into the index pushes real entries out.

## Example
```md ~/.claude/projects/<project>/memory/MEMORY.md
{bad}
```

Use instead:
```md ~/.claude/projects/<project>/memory/MEMORY.md
# Memory
- [Deploy](deploy.md) — how we ship to production
```

## Fix safety
The `split-memory-index` fix is unsafe under `check --fix` (it changes what Claude reads at
start) and applied by `memlint fix`, because it is lossless and verified before anything is
written: every non-blank line of the old MEMORY.md is, byte for byte, in exactly one place (the
new MEMORY.md, in its old order, or one new topic file); the only new lines of MEMORY.md are the
entries it writes. In order, and each only while needed: blank separator lines go (over 160
lines); detail moves into topic files, a whole section as its entries under the parent heading,
a section's detail around what it keeps as one entry in place, a table or procedure whole; a
standing instruction (a one-line item whose clause is an order, in any language) and sections
marked always-on stay, the first 30 of them while the index would still be cut, the rest in one
feedback file; while the index is still over 160 lines or 20,000 units, older entries of a topic
listed again later go to one file of superseded entries, and an over-long entry to a missing
file gets that file (its line as the body) and a short line; whole groups of entries become
second-level index files, historical ones first, until the index is under 160 lines and 20,000
units (left between that and the limit, Claude Code's write guard would tell the agent to compact
it after every write). New files follow the
folder's frontmatter form and names, stay under a recall's 4,096 bytes (a long block is cut at
headings and dates), and never replace a file. When no split makes the index load whole,
nothing changes and the message names the floor: what stays by category, what keeps it, and
the smallest change by hand that would fit.

## Options
- `default-type` (default `"project"`): the `metadata.type` of a split-off topic file when its
  title does not say (user, feedback, project or reference).
- `intro-lines` (default `3`): how many lines of introduction under the title are part of an index.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from memlint.model.memory.automem import MAX_LINES, MAX_UNITS, format_size
from memlint.model.run.memory_identity import identity
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._common import (
    MemoryIndex,
    auto_memory_indexes,
    cut_entries,
    indexes,
    split_fix,
    split_floor,
    titles,
)
from memlint.rules.automem._topics import TYPES
from memlint.violations import Finding

if TYPE_CHECKING:
    from memlint.rules.automem._index import Entry
    from memlint.rules.automem.split import SplitPlan

__doc__ = __doc__.replace(
    "{bad}", "# Memory\n" + "\n".join(f"- [Note {n}](note-{n}.md) \u2014 fact number {n}" for n in range(1, 201))
)

META = RuleMeta(
    code="ML301",
    slug="memory-index-truncated",
    severity="error",
    summary="MEMORY.md is over 200 lines or 25,000 UTF-16 units: Claude Code loads only part of it",
    fix="unsafe",
    options={"default-type": "project", "intro-lines": 3},
    choices={"default-type": TYPES},
)


def _describe(mem: MemoryIndex) -> str:
    t = mem.truncation
    what = []
    if t.over_lines:
        what.append(f"{t.line_count} lines (limit {MAX_LINES})")
    if t.over_size:
        what.append(f"{t.size:,} UTF-16 units, {format_size(t.size)} (limit {MAX_UNITS:,})")
    return " and ".join(what)


def _files(n: int) -> str:
    return f"{n} topic file{'' if n == 1 else 's'}"


def check(ctx: RuleContext) -> Iterator[Finding]:
    for mem in auto_memory_indexes(ctx, int(ctx.options.get("intro-lines", 3))):
        t = mem.truncation
        if not t.truncated:
            continue
        last, cut = cut_entries(mem)
        total = mem.doc.text.rstrip().count("\n") + 1  # the last line with text: trailing blanks cut nothing
        lines = f"lines {last + 1}-{total}" if total > last + 1 else f"line {last + 1}"
        message = (
            f"MEMORY.md is {_describe(mem)}: Claude Code loads only its first {t.kept_lines} lines "
            f"(to line {last}); {lines} "
        )
        verb = "are" if total > last + 1 else "is"
        message += f"with {len(cut)} index entr{'y' if len(cut) == 1 else 'ies'} ({titles(cut)}) {verb} never seen" \
            if cut else f"{verb} never seen"
        message += f", and Claude gets instead the line `{t.warning}`"
        fix, plan = split_fix(ctx, mem)
        floor = split_floor(ctx, mem)
        if plan is not None:
            after = plan.truncation
            message += (f"; the split (`memlint fix`) leaves {after.line_count} lines, {after.size:,} units, and it "
                        f"loads whole ({_files(len(plan.topics))} written, every line kept)")
        elif floor is not None:
            message += "; " + floor.message()
        yield Finding(mem.path, last + 1 if last < total else last, message, fix=fix,
                      headline=_headline(mem, lines, verb, cut, plan, floor is not None))
    for mem in indexes(ctx, int(ctx.options.get("intro-lines", 3))):
        found = identity(ctx, mem.path)
        if found.kind == "hand-kept" and mem.truncation.truncated and _like_an_index(mem):
            shown = _as_typed(mem.path)
            yield Finding(
                mem.path, 1,
                f"`{shown}` is {_describe(mem)}: were it Claude Code's auto-memory index, Claude Code would load only "
                f"its first {mem.truncation.kept_lines} lines; memlint judges it {found.evidence}, so it "
                f"runs no index rule on it and offers no split; `memlint fix {shown}` (or its folder) fixes it as an "
                "auto-memory index",
                severity="info",
            )


def _headline(mem: MemoryIndex, lines: str, verb: str, cut: list[Entry], plan: SplitPlan | None, floor: bool) -> str:
    """The finding's first line: what is lost, by name, and what to do (the message says why)."""
    head = f"MEMORY.md is {_describe(mem)}: {lines} {verb} never loaded"
    if cut:
        head += f", with {len(cut)} index entr{'y' if len(cut) == 1 else 'ies'}: {titles(cut, 3)}"
    if plan is not None:
        return head + (f"; `memlint fix` splits it into {_files(len(plan.topics))}, and it loads whole "
                       f"({plan.truncation.line_count} lines)")
    return head + ("; no split makes it load whole: move detail into topic files by hand" if floor else "")


def _like_an_index(mem: MemoryIndex) -> bool:
    """A MEMORY.md kept by hand that may be installed as auto memory somewhere: it links a `.md`
    file, or its folder's name holds Claude Code's folder name `memory` (in any case)."""
    return "memory" in mem.path.parent.name.lower() or any(
        link.target.lower().endswith(".md") for link in mem.index.links)


def _as_typed(path: Path) -> str:
    """The path to type after `memlint fix`: relative to the current folder when below it, else absolute."""
    try:
        here = os.getcwd()
    except OSError:
        return str(path)
    relative = os.path.relpath(path, here)
    return str(path) if relative.startswith("..") else relative

