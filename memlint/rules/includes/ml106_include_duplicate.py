"""A file is included twice: Claude Code loads it only at the first place.

## What it does
Opt-in (`--select ML106` or `extend-select`): nothing is lost, the file is loaded once, so the
default run leaves it out.
Reports an include of a file that Claude Code has already loaded earlier in the same session
start-up (included by another file, under another spelling such as `./a.md` or through a symlink,
or loaded at start anyway like a `CLAUDE.md`). Repeating the same `@path` within one file is not
reported. Cycles are ML105.

## Why is this bad?
Only the first include loads the file; the second is ignored. If the author placed the second one
where the content should appear (after the section it belongs to, or in a file loaded earlier in
another session), the model sees it elsewhere or not where expected.

## Example
```md CLAUDE.md
@docs/style.md
```
```md CLAUDE.local.md
My own notes. @docs/style.md
```
```md docs/style.md
Four spaces.
```

Use instead:
```md CLAUDE.md
@docs/style.md
```
```md CLAUDE.local.md
My own notes.
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.include_problems import include_problems
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.violations import Finding

META = RuleMeta(
    default=False,
    code="ML106",
    slug="include-duplicate",
    severity="info",
    summary="A file is included twice; only the first include loads it",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for item in include_problems(ctx):
        if item.problem != "duplicate":
            continue
        ref = item.origin.ref
        first = next((f for f in item.context.files if str(f.path) == str(item.target)), None)
        if first is None:  # a symlink: the same file under another path
            first = next(
                (f for f in item.context.files if f.path.resolve() == item.target.resolve()), None
            )
        if first is not None and first.origin is not None:
            where = f"already included by {show(ctx, first.origin.path)}:{first.origin.line}"
        elif first is not None:
            where = "already loaded at start as a memory file of its own"
        else:
            where = "already loaded earlier"
        yield Finding(
            item.origin.path,
            item.origin.line,
            f"Claude Code ignores `@{ref.written}`: `{show(ctx, item.target)}` is {where}, "
            "and each file loads once, at its first place",
            column=ref.column,
        )
