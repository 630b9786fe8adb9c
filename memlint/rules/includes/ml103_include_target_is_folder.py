"""An `@include` names a folder (or another non-file), which Claude Code cannot load.

## What it does
Reports includes whose target exists but is a folder, a named pipe, a socket or a device.
Claude Code reads only regular files: `@docs/` or `@docs` loads nothing, not the files inside.

## Why is this bad?
The author probably expected the folder's files to be loaded; Claude Code silently skips it.

## Example
```md CLAUDE.md
# Project
Read the guides: @docs
```
```md docs/setup.md
Run make setup.
```

Use instead:
```md CLAUDE.md
# Project
Read the guides: @docs/setup.md
```
```md docs/setup.md
Run make setup.
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
    code="ML103",
    slug="include-target-is-folder",
    severity="error",
    summary="An @include names a folder or another non-file",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for item in include_problems(ctx):
        if item.problem != "folder":
            continue
        ref = item.origin.ref
        what = "a folder" if item.target.is_dir() else (item.detail or "not a regular file")
        advice = "; include its files one by one" if item.target.is_dir() else ""
        yield Finding(
            item.origin.path,
            item.origin.line,
            f"Claude Code loads nothing for `@{ref.written}`: `{show(ctx, item.target)}` is {what}, "
            f"and only regular files are read{advice}",
            column=ref.column,
        )
