"""MEMORY.md or a topic file has trailing white space, runs of blank lines, or a bad final newline.

## What it does
Opt-in (`--select ML320` or `extend-select`): it restates a convention and changes nothing
Claude Code does, so the default run leaves it out.
In MEMORY.md and the topic files beside it (never in CLAUDE.md or rules files), reports lines
ending in spaces or tabs, runs of more than one blank line, a last line with no newline, and blank
lines at the end of the file. Fenced code blocks and the frontmatter are left alone.

## Why is this bad?
Claude Code loads MEMORY.md at every start and counts it against a 200-line and 25,000-unit
budget; recalled topic files are cut at 200 lines and 4,096 bytes. Blank-line runs spend lines of
that budget, trailing white space spends characters, and a missing final newline makes the next
appended entry join the last line.

## Example
```md ~/.claude/projects/<project>/memory/MEMORY.md
# Memory   


- [Deploy](deploy.md) — blue/green on Fridays only
- [Testing](testing.md) — integration tests hit a real database


```

Use instead:
```md ~/.claude/projects/<project>/memory/MEMORY.md
# Memory

- [Deploy](deploy.md) — blue/green on Fridays only
- [Testing](testing.md) — integration tests hit a real database
```

## Fix safety
The fix is safe: it removes white space at line ends and extra blank lines, and sets exactly one
final newline. It keeps the file's newline style and BOM and never touches fenced code or the
frontmatter, so nothing Claude reads changes but white space.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from memlint.lazy_regex import compile_lazily
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.document import Document
from memlint.rules import RuleMeta
from memlint.rules.automem._index import Line, parse_index
from memlint.rules.automem._topics import memory_folders
from memlint.violations import Applicability, Edit, Finding, Fix

META = RuleMeta(
    default=False,
    code="ML320",
    slug="memory-whitespace",
    severity="info",
    summary="trailing white space, blank-line runs or a bad final newline in MEMORY.md or a topic file",
    fix="safe",
)


def _files(ctx: RuleContext) -> Iterator[tuple[Path, Document]]:
    for folder, paths in memory_folders(ctx).items():
        for path in [folder / "MEMORY.md", *paths]:
            if path.name == "MEMORY.md" and path not in {f.path for f in ctx.by_role("automem-index")}:
                continue
            doc = ctx.document(path)
            if doc.problem is None and doc.text.strip() and doc.newline != "\r":
                yield path, doc


# Anything that could give a finding: a space or tab before a line end, white space other than
# space, tab and newline, a lone CR, two empty lines in a row, no final newline or a blank last line.
# A text without any is tidy and is not parsed (most topic files).
_MAYBE_UNTIDY = compile_lazily(
    r"[ \t]\r?(?:\n|\Z)|[\v\f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|\r(?!\n)"
    r"|(?:\A|\n)\r?\n\r?\n|\n\r?\n\Z"
)


def _maybe_untidy(text: str) -> bool:
    if not text.endswith("\n"):
        return True
    if text.isascii():  # the same test with substring searches, much faster than the regex
        return (" \n" in text or "\t\n" in text or "\r" in text or "\v" in text or "\f" in text
                or "\n\n\n" in text or text.startswith("\n\n") or text.endswith("\n\n"))
    return _MAYBE_UNTIDY.search(text) is not None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def check(ctx: RuleContext) -> Iterator[Finding]:
    for path, doc in _files(ctx):
        if not _maybe_untidy(doc.text):
            continue
        lines = list(parse_index(doc).lines)
        # the blank lines that end the file, outside code
        tail: list[Line] = []
        while lines and lines[-1].kind == "blank":
            tail.insert(0, lines.pop())
        edits: list[Edit] = []
        trailing: list[int] = []
        runs: list[int] = []
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.kind == "blank":
                j = i
                while j + 1 < len(lines) and lines[j + 1].kind == "blank":
                    j += 1
                bom = 1 if line.start == 0 and line.content.startswith("\ufeff") else 0  # a BOM stays
                if line.content[bom:]:
                    edits.append(Edit(path, line.start + bom, line.start + len(line.content), ""))
                    trailing.append(line.number)
                if j > i:
                    edits.append(Edit(path, lines[i + 1].start, lines[j].end, ""))
                    runs.append(line.number)
                i = j + 1
                continue
            if line.kind != "code":
                content = line.content
                kept = content.rstrip(" \t")
                if kept != content:
                    edits.append(Edit(path, line.start + len(kept), line.start + len(content), ""))
                    trailing.append(line.number)
            i += 1
        ending = None
        if lines:
            last = lines[-1]
            if tail:
                edits.append(Edit(path, tail[0].start, tail[-1].end, ""))
                ending = (tail[0].number, f"the file ends with {_plural(len(tail), 'blank line')} after its text")
            elif last.raw == last.content and last.kind != "code":
                edits.append(Edit(path, last.end, last.end, doc.newline))
                ending = (last.number, "the last line has no newline, so the next entry appended joins it")
        if not edits:
            continue
        fix = Fix(f"tidy white space in {path.name}", Applicability.SAFE, tuple(edits))
        if trailing:
            yield Finding(path, trailing[0], f"{_plural(len(trailing), 'line')} end{'s' if len(trailing) == 1 else ''} in spaces or tabs (first: line "
                          f"{trailing[0]}), characters Claude Code loads for nothing", fix=fix)
        if runs:
            yield Finding(path, runs[0], f"{_plural(len(runs), 'run')} of blank lines (first: line {runs[0]}) "
                          f"spend{'s' if len(runs) == 1 else ''} lines that Claude Code counts; one blank line is enough", fix=fix)
        if ending:
            yield Finding(path, ending[0], ending[1], fix=fix)
