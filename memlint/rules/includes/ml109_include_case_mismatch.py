"""An `@include` names a file that exists only under another letter case.

## What it does
Reports includes whose target does not exist as written but does when letter case is ignored:
`@Docs/API.md` when the file is `docs/api.md`. Claude Code resolves paths with the file system's
rules: on Linux (and case-sensitive macOS volumes, CI runners, containers) the include loads
nothing; on a default macOS or Windows disk it works.

## Why is this bad?
The same repository loads different memory on different machines, and the failure is silent.

## Example
```md CLAUDE.md
Conventions: @Docs/Conventions.md
```
```md docs/conventions.md
Use tabs.
```

Use instead:
```md CLAUDE.md
Conventions: @docs/conventions.md
```
```md docs/conventions.md
Use tabs.
```

## Fix safety
The fix rewrites the path with the letter case of the existing file. It is unsafe: on a
case-sensitive system the model then reads the included file, which it did not before.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from memlint.model.run.include_problems import IncludeProblem, at_offset, include_problems
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.violations import Applicability, Edit, Finding, Fix

META = RuleMeta(
    code="ML109",
    slug="include-case-mismatch",
    severity="error",
    summary="An @include names a file that exists only under another letter case",
    fix="unsafe",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for item in include_problems(ctx):
        if item.problem != "case" or item.better is None:
            continue
        ref = item.origin.ref
        corrected = _corrected(ref.path, item.better)
        message = (
            f"Claude Code loads nothing for `@{ref.written}` on a case-sensitive file system: the file is "
            f"`{show(ctx, item.better)}`"
        )
        yield Finding(item.origin.path, item.origin.line, message, column=ref.column, fix=_fix(ctx, item, corrected))


def _corrected(written: str, better: Path) -> str | None:
    """`written` with each name replaced by the existing name it matches up to letter case."""
    segments = written.split("/")
    names = list(better.parts)
    out: list[str] = []
    for segment in reversed(segments):
        if segment in ("", ".", "..", "~"):
            out.append(segment)
            names = []  # nothing above a `..` or `~` can be matched by position
            continue
        if not names or names[-1].lower() != segment.lower():
            if names:
                return None
            out.append(segment)
            continue
        out.append(names.pop())
    result = "/".join(reversed(out))
    return None if result == written else result


def _fix(ctx: RuleContext, item: IncludeProblem, corrected: str | None) -> Fix | None:
    ref = item.origin.ref
    if corrected is None or not ref.written.startswith(ref.path) or ctx.document(item.origin.path).problem:
        return None
    offset = at_offset(ctx, item.origin)
    if offset is None:
        return None
    start = offset + 1
    return Fix(f"Write `@{corrected}`", Applicability.UNSAFE,
               (Edit(item.origin.path, start, start + len(ref.path), corrected),))
