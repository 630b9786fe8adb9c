"""A loaded memory file still holds template placeholders (`<project name>`, `[PROJECT_NAME]`, a bare `TODO`).

## What it does
Reports, once per file, placeholder text left from a template in a file Claude Code loads at
start (CLAUDE.md, CLAUDE.local.md, rules, their includes), told by its shape, in any language:
words in angle brackets such as `<project name>` or `<プロジェクト名>`, capitals joined by `_` in
square brackets such as `[PROJECT_NAME]`, and lines that hold only `TODO`, `TBD` or `FIXME`.
Left alone: code blocks, code spans and HTML comments (Claude Code strips comments: Claude
never sees them), fill-ins inside quotation marks (`"fixed — <what>"`, `「<名前>」`), a fill-in that is part of
a name or path (`docs/<page name>.md`, `#<issue number>`), and a line with two or more fill-ins
or a quoted line (`> ...`): that is a format to fill in when Claude writes
(`<type>: <one-line summary>`), not a fact left out.

## Why is this bad?
Claude Code sends the text as it is, in every session: Claude reads `<project name>` literally,
and a section that says only `TODO` tells it nothing while looking like it does. The file was
generated from a template and never finished.

## Example
```md CLAUDE.md
# <project name>

Architecture:
TODO
```

Use instead:
```md CLAUDE.md
# Billing service

Architecture:
A Flask API in `api/`, workers in `jobs/`, Postgres for everything.
```

## Options
- `todo-text` (default `false`): also report a line that starts with `TODO`, `TBD` or `FIXME`
  and goes on with text (`TODO: describe the architecture`). Off by default: without reading the
  words memlint cannot tell a template's fill-in from a real open task noted on purpose.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memlint.lazy_regex import compile_lazily
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.markdown import blank_comments
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._common import InstructionFile, listed, loaded_instruction_files, prose_lines
from memlint.violations import Finding

META = RuleMeta(
    code="ML516",
    slug="memory-placeholder-text",
    severity="warning",
    summary="A loaded memory file still holds template placeholders such as <project name> or [PROJECT_NAME]",
    options={"todo-text": False},
)

# Words in angle brackets: two to six words of letters, or one run of letters outside ASCII (a
# script written without spaces: `<プロジェクト名>`); an HTML tag is one ASCII word, a link or a
# comment starts with a scheme or `!`.
_ANGLE = compile_lazily(r"<(?!https?:|mailto:|!)((?:[^\W\d_][\w'/-]*(?: [^\W\d_][\w'/-]*){1,5})|[^\W\d_\x00-\x7f][^\W_]*)>")
_BRACKET = compile_lazily(r"\[([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\](?![(\[:])")  # [PROJECT_NAME], not a link
_TODO = compile_lazily(r"^\s{0,3}(?:[-*+]\s+)?(?:\*\*|__)?(?:TODO|TBD|FIXME)(?:\*\*|__)?\b\s*[:.-]?\s*$", re.IGNORECASE)
_TODO_TEXT = compile_lazily(r"^\s{0,3}(?:[-*+]\s+)?(?:\*\*|__)?(?:TODO|TBD|FIXME)(?:\*\*|__)?\b\s*[:.-]?\s*.{0,200}$",
                        re.IGNORECASE)
_QUOTED = compile_lazily(r"^\s{0,3}>")
# Quoted text on a line: a sample of what to say or write, with its fill-ins (`"done — <what>"`).
_QUOTE_SPAN = compile_lazily(r'"[^"\n]{1,300}"|“[^”\n]{1,300}”|„[^“”\n]{1,300}[“”]|«[^»\n]{1,300}»|「[^」\n]{1,300}」|『[^』\n]{1,300}』')
_CODE_SPAN = compile_lazily(r"(`+).*?\1")
# Any fill-in, one word too (`<owner>`, `[ID]`): counted to tell a format line from a missing fact.
_ANY_FILL = compile_lazily(r"<(?!https?:|mailto:|!|/)[^<>\s][^<>]{0,80}>|\[[A-Z][A-Z0-9_]*\](?![(\[:])")
_GLUE = set("/\\#._-@:=+~")
_SHOWN = 4


def _glued(line: str, fill: re.Match[str]) -> bool:
    """The fill-in is part of a longer name or path (`docs/<page name>.md`, `#<issue number>`): a
    pattern for names, not a fact left out."""
    before = line[fill.start() - 1] if fill.start() > 0 else " "
    after = line[fill.end()] if fill.end() < len(line) else " "
    return any(c.isalnum() or c in _GLUE for c in (before, after))


def placeholders(text: str, todo_text: bool = False) -> list[tuple[int, str]]:
    """(line, placeholder) for each placeholder outside code and comments (`todo_text`: a line that
    starts with TODO and goes on counts too)."""
    todo = _may_hold_todo(text)
    if not todo and "<" not in text and "[" not in text:
        return []  # most files: nothing to look at, line by line
    if "<!--" in text:  # Claude Code strips comments: blank them, keeping the line numbers
        text = blank_comments(text)
    marker = _TODO_TEXT if todo_text else _TODO
    found: list[tuple[int, str]] = []
    for number, line in prose_lines(text):
        if not todo and "<" not in line and "[" not in line:
            continue
        visible = line.rstrip("\r")
        if "`" in line:
            visible = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), visible)
        if todo and _may_be_todo(visible) and marker.match(visible) and visible.strip():
            found.append((number, visible.strip().lstrip("-*+ ").strip("*_")))
            continue
        if '"' in visible or not visible.isascii():
            visible = _QUOTE_SPAN.sub(lambda m: " " * len(m.group(0)), visible)
        fills = []
        if "<" in visible:
            fills += [m for m in _ANGLE.finditer(visible)]
        if "[" in visible:
            fills += [m for m in _BRACKET.finditer(visible)]
        if len(fills) == 1 and not _QUOTED.match(visible) and len(_ANY_FILL.findall(visible)) == 1 \
                and not _glued(visible, fills[0]):
            found.append((number, fills[0].group(0)))  # (two or more, a quote, a name: a format to fill in)
    return found


def _may_hold_todo(text: str) -> bool:
    """Whether `_TODO` can match a line of `text`: the text must hold one of its words in some case
    (besides ASCII letters, only `İ` and a dotless `ı` match one of their letters when case is
    ignored: a text with either may always)."""
    if not text.isascii() and ("\u0130" in text or "\u0131" in text):
        return True
    lower = text.lower()
    return _TODO_OR_TBD.search(lower) is not None or _FIXME.search(lower) is not None


# Faster scans than `"todo" in lower or "tbd" in lower` (one pattern that starts with a fixed
# character finds both) and `"fixme" in lower` (found by its `x`, rarer than its other letters).
_TODO_OR_TBD = compile_lazily("t(?:odo|bd)")
_FIXME = compile_lazily("x(?<=fix)me")


def _may_be_todo(line: str) -> bool:
    """Whether `_TODO` can match: an ASCII line must hold its word (a non-ASCII line may spell it
    with letters that only match when case is ignored, like a dotless `ı`)."""
    if not line.isascii():
        return True
    lower = line.lower()
    return "todo" in lower or "tbd" in lower or "fixme" in lower


FILES = loaded_instruction_files


def check_file(ctx: RuleContext, entry: InstructionFile) -> Iterator[Finding]:
    file, doc, _base = entry
    found = placeholders(doc.text, bool(ctx.options.get("todo-text", False)))
    if not found:
        return
    shown = listed([f"line {n} `{text}`" for n, text in found[:_SHOWN]], len(found))
    yield Finding(
        file.path,
        found[0][0],
        f"`{show(ctx, file.path)}` still holds template placeholder{'s' if len(found) > 1 else ''}: {shown}; "
        "Claude Code loads this text into every session as it is, so Claude reads the placeholder instead "
        "of the fact; write the real text or delete the line",
        end_line=found[-1][0],
    )
