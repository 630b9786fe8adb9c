"""An `@path` that names an existing file is not an include for Claude Code where it stands.

## What it does
Claude Code follows `@path` only in paragraph-like text, only when the `@` starts a text or follows
white space, and only for paths starting with an ASCII letter, digit, `.`, `_`, `-`, `./`, `~/`
or `/`. This rule reports `@path` text whose file exists but which Claude Code passes over:

- in a fenced or indented code block, or in a code span (`` `@docs/a.md` ``);
- in an HTML block (a line starting with a tag such as `<rules>` starts one, up to the next
  blank line);
- after an unclosed `<!--`, which hides the rest of the file;
- glued to a bracket or quote: `(@docs/a.md)`, `"@docs/a.md"`;
- written with backslashes: `@docs\\a.md` asks for `docs`;
- written in quotes: `@"Design Docs/api.md"` loads nothing (`@Design\\ Docs/api.md` does);
- starting with another character: `@日本.md` (write `@./日本.md`).

A closed comment (`<!-- @old.md -->`) is a deliberate way to turn an include off and is not
reported; neither is `@path` text whose file does not exist, nor a path naming the file it is in.
A code span is reported only when it is all its line holds (after a list or quote marker), the
shape of an include line: a code span inside a sentence (``source it with `@AGENTS.md` instead``)
quotes the path as documentation.

## Why is this bad?
The author plainly meant the file to be loaded, and Claude Code silently does not load it.

## Example
```md CLAUDE.md
# Project
Conventions (@docs/conventions.md) apply everywhere.
```
```md docs/conventions.md
Use tabs.
```

Use instead:
```md CLAUDE.md
# Project
Conventions apply everywhere: @docs/conventions.md
```
```md docs/conventions.md
Use tabs.
```

## Fix safety
Two cases have one plainly right fix, both unsafe because the model then reads a file it did not
read before: backslashes are turned into `/`, a quoted path loses its quotes (spaces written
`\\ `), and a path rejected for its first character gets `./` in front. The other cases are left to a person (was the code block meant as an example?
where should the comment close?).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from memlint.lazy_regex import compile_lazily
from memlint.model.run.include_problems import owned
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.includes._suspects import Suspect, suspects
from memlint.violations import Applicability, Edit, Finding, Fix

META = RuleMeta(
    code="ML108",
    slug="include-not-recognized",
    severity="warning",
    summary="An @path naming an existing file is not an include where it stands",
    fix="unsafe",
)

_WHY = {
    "code-block": "it is inside a code block, which Claude Code never scans for includes",
    "code-span": "it is inside a code span, which Claude Code never scans for includes",
    "html-block": "it is inside an HTML block, which Claude Code does not scan for includes; "
                  "put a blank line after the opening tag line or move the include out",
    "unclosed-comment": "it follows an unclosed `<!--`, which hides the rest of the file from the "
                        "include scan; close the comment with `-->`",
    "backslash": "Claude Code stops the path at the first backslash; write it with `/`",
    "rejected": "an include path must start with an ASCII letter, digit, `.`, `_`, `-`, `./`, `~/` or `/`; "
                "write it with `./` in front",
}


_MARKERS = compile_lazily(r"^\s*(?:>\s*)*(?:[-*+]\s+|\d+[.)]\s+)?")


def check_file(ctx: RuleContext, path: Path) -> Iterator[Finding]:
    doc = ctx.document(path)
    lines: list[str] | None = None
    itself = _real(ctx, str(path))
    for item in suspects(doc, ctx.home, lambda p: _real(ctx, p)):
        if str(item.target) == itself:
            continue  # the file names itself: nothing to load
        if item.where == "code-span":
            lines = doc.text.splitlines() if lines is None else lines
            line = lines[item.line - 1] if 0 < item.line <= len(lines) else ""
            if _MARKERS.sub("", line, count=1).strip() != f"`@{item.written}`":
                continue  # quoted in a sentence: documentation, not an include line
        message = f"Claude Code does not load `{show(ctx, item.target)}` from `@{item.written}`: {_why(item)}"
        yield Finding(path, item.line, message, column=item.column, fix=_fix(ctx, path, item))


def _real(ctx: RuleContext, path: str) -> str:
    """`os.path.realpath` of a memory file `suspects` reads (absolute, and readable: it has no
    problem): for a file that exists, the loader's cached resolution (`Workspace.realpath`, which
    the loader already asked for the files it loaded) is the same path."""
    real, _linked = ctx.workspace.realpath(path)
    return real


def _why(item: Suspect) -> str:
    if item.where == "quoted":
        escaped = item.written[1:-1].replace(" ", "\\ ")
        return f"Claude Code takes no quotes around an include path; write `@{escaped}` (a space as `\\ `)"
    return _WHY.get(item.where) or (
        f"the `@` is glued to `{item.before}`, and Claude Code takes `@` as an include only at the "
        "start of a text or after white space; put a space before the `@` (and after the path)"
    )


def _memory_paths(ctx: RuleContext) -> list[Path]:
    """CLAUDE.md files, local files, rules and every file they include, once each."""
    paths: dict[str, Path] = {}
    for memory in ctx.files:
        if memory.role in ("claude-md", "local", "rule"):
            paths.setdefault(str(memory.path), memory.path)
    for loaded in ctx.loads.values():
        for item in loaded.files:
            if item.kind != "automem":
                paths.setdefault(str(item.path), item.path)
    return [p for key, p in sorted(paths.items()) if owned(ctx, p)]


FILES = _memory_paths


def _fix(ctx: RuleContext, path: Path, item: Suspect) -> Fix | None:
    if item.where not in ("backslash", "rejected", "quoted"):
        return None
    doc = ctx.document(path)
    if doc.problem is not None:
        return None
    text = doc.text
    offset = _offset(text, item.line, item.column)
    if offset is None or text[offset : offset + 1 + len(item.written)] != "@" + item.written:
        return None
    start = offset + 1
    if item.where == "quoted":
        fixed = item.written[1:-1].replace(" ", "\\ ")
        return Fix(f"Write `@{fixed}`", Applicability.UNSAFE, (Edit(path, start, start + len(item.written), fixed),))
    if item.where == "backslash":
        if "\\ " in item.written:
            return None
        fixed = item.written.replace("\\", "/")
        return Fix(f"Write `@{fixed}`", Applicability.UNSAFE, (Edit(path, start, start + len(item.written), fixed),))
    return Fix(f"Write `@./{item.written}`", Applicability.UNSAFE, (Edit(path, start, start, "./"),))


def _offset(text: str, line: int, column: int) -> int | None:
    offset = 0
    for _ in range(line - 1):
        index = text.find("\n", offset)
        cr = text.find("\r", offset)
        if cr != -1 and (index == -1 or cr < index):
            index = cr if not text.startswith("\r\n", cr) else cr + 1
        if index == -1:
            return None
        offset = index + 1
    return offset + column - 1
