"""MEMORY.md is over 200 lines or 25,000 UTF-16 units, so Claude Code loads only part of it.

## What it does
Applies Claude Code's cut to MEMORY.md (spec section 5: the first 200 lines, then at the last
newline before 25,000 UTF-16 units) and reports the first line that is cut, the index entries
(by title) that Claude never sees, and the exact WARNING line Claude Code appends instead.

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
The `split-memory-index` fix is unsafe: when MEMORY.md is over the 140-line / 17,500-unit target
of Claude Code's write guard, it moves just enough detail, verbatim, into new topic files with
frontmatter to get under it (largest blocks first). Entries, lines that link an existing topic
file, standing instructions (`NEVER ...`, `Always ...`, `CRITICAL: ...`, sections titled Rules or
Critical) and comments stay byte-identical; a whole section becomes one entry titled with its
heading, placed under its parent heading; detail inside a section that keeps something becomes
one entry in its place. New files get unique lowercase names; no file is ever overwritten or
changed, and memlint refuses the fix unless every line of the old MEMORY.md is in the new one or
in exactly one new topic file. When the entries alone are over the limit, the message says which
are still cut; no entry is ever dropped.

## Options
- `default-type` (default `"project"`): the `metadata.type` of a split-off topic file when its
  title does not say (user, feedback, project or reference).
- `intro-lines` (default `3`): how many lines of introduction under the title are part of an index.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.automem import MAX_LINES, MAX_UNITS, format_size
from memlint.model.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._common import (
    MemoryIndex,
    auto_memory_indexes,
    cut_entries,
    index_of_text,
    split_fix,
    titles,
)
from memlint.rules.automem._topics import TYPES
from memlint.violations import Finding

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
        if plan is not None:
            after = plan.truncation
            if after.truncated:
                still = titles(cut_entries(index_of_text(mem.path, plan.new_text))[1])
                message += (
                    f"; splitting detail into {_files(len(plan.topics))} leaves {after.line_count} lines, "
                    f"still over the limit: entries {still} would still be cut (no entry is dropped)"
                )
            else:
                message += f"; splitting detail into {_files(len(plan.topics))} leaves {after.line_count} lines"
        elif cut:
            message += "; the entries alone are over the limit: move or merge memories"
        yield Finding(mem.path, last + 1 if last < total else last, message, fix=fix)
