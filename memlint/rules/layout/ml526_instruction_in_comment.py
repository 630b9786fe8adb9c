"""An instruction is written inside an HTML comment that Claude Code cuts from a memory file.

Opt-in (`--select ML526` or `extend-select`): an instruction in a comment is as often a note to
the people who edit the file ("uncomment and adapt", a commented-out template section, a note for
the IDE) as an order meant for Claude, and nothing in the text tells the two apart in every
language. On the judged corpora every such comment was a note to editors, so the default run
leaves it out.

## What it does
Claude Code removes every `<!-- ... -->` of an HTML comment block (a comment that stands on its
own lines, outside paragraphs, lists and quotes) before it sends a memory file to the model. This
rule reports, once per memory file Claude Code loads (at start, or later as a nested CLAUDE.md or a
conditional rule), the comment blocks whose lines read as instructions to the agent, as the
instruction detector reads them in any language. Lines tagged for people (`TODO:`, `FIXME:`) and
lines that end in a colon (a lead-in to a list left for people to fill) are not counted. A comment inside a paragraph line, a list item or a block quote is sent as written
and is not reported; nor is an unclosed `<!--`, which Claude Code keeps to the end of the file.

## Why is this bad?
An instruction inside a comment never reaches Claude: the author sees it in the file, believes it
is in force, and Claude acts as if it were not there. Authors sometimes hide "for Claude only"
notes in comments, expecting the model to read the raw file; Claude Code strips them first.

## Example
```md CLAUDE.md
# Project
Build with make.

<!--
Always run the linter before you commit.
-->
```

Use instead:
```md CLAUDE.md
# Project
Build with make.

Always run the linter before you commit.
```

If the comment is a note for the people who edit the file, leave it: Claude is not meant to see it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from memlint.lazy_regex import compile_lazily
from memlint.model.run.include_problems import owned
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.comments import HiddenComment, hidden_comments
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.violations import Finding

META = RuleMeta(
    code="ML526",
    slug="instruction-in-comment",
    severity="warning",
    summary="An instruction is written inside an HTML comment Claude Code cuts from the file",
    default=False,
)

_SHOWN = 3
_LIST_MARK = compile_lazily(r"^(?:[-*+]|\d{1,9}[.)])[ \t]+")
# A line tagged for people: an upper-case tag and a colon (`TODO:`, `FIXME(ana):`), read as a tag
# when the tag alone is no instruction marker (`IMPORTANT:` is one).
_TAG = compile_lazily(r"[ \t]*(?:[-*+][ \t]+)?([A-Z]{2,12})(?:\([^)\n]{0,40}\))?[ \t]*:")


def check(ctx: RuleContext) -> Iterator[Finding]:
    for path in _memory_files(ctx):
        doc = ctx.document(path)
        hits = [(comment, line) for comment in hidden_comments(doc) for line in _instructions(comment)]
        if not hits:
            continue
        comments = sorted({comment.line for comment, _ in hits})
        shown = [str(n) for n in comments[:_SHOWN]]
        if len(comments) > _SHOWN:
            where = f"{', '.join(shown)} and {len(comments) - _SHOWN} more"
        else:
            where = " and ".join([", ".join(shown[:-1]), shown[-1]] if len(shown) > 1 else shown)
        first = _LIST_MARK.sub("", hits[0][1])
        quoted = first if len(first) <= 80 else first[:77] + "..."
        one = len(hits) == 1
        at = "the HTML comment at line" if len(comments) == 1 else "the HTML comments at lines"
        more = "" if one else f" and {len(hits) - 1} more"
        yield Finding(
            path, comments[0],
            f"Claude Code cuts {at} {where} of `{show(ctx, path)}` before the model sees the file, so "
            f"{'the instruction' if one else 'the instructions'} in {'it' if len(comments) == 1 else 'them'} "
            f"(\"{quoted}\"{more}) never {'reaches' if one else 'reach'} Claude; write "
            f"{'it' if one else 'them'} outside the comment if Claude should follow {'it' if one else 'them'}, "
            "or leave the comment if it is a note for people",
        )


def _memory_files(ctx: RuleContext) -> list[Path]:
    """Every file Claude Code loads as memory, at start or later, under a checked root or in HOME."""
    found: dict[str, Path] = {}
    for loaded in ctx.loads.values():
        for item in loaded.files:
            found.setdefault(str(item.path), item.path)
        for deferred in loaded.deferred:
            found.setdefault(str(deferred.path), deferred.path)
    return [path for key, path in sorted(found.items()) if owned(ctx, path)]


def _instructions(comment: HiddenComment) -> Iterator[str]:
    from memlint.model.text.instructions import (
        is_instruction,  # 5 ms of regexes: only when a text is asked about
    )

    for raw in comment.text.splitlines():
        line = raw.strip()
        if not line or line.endswith((":", "：")):
            continue  # a lead-in to a list the comment leaves for people to fill ("What must be tested:")
        tag = _TAG.match(line)
        if tag is not None and not is_instruction(tag.group(1) + ": x"):
            continue
        if is_instruction(line):
            yield line
