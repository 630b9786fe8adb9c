"""MEMORY.md has frontmatter or `@includes`, which Claude Code never shows or follows there.

## What it does
Reports a frontmatter block at the top of MEMORY.md (Claude Code removes it from the loaded index)
and every `@path` in it that names a file (Claude Code never follows includes in auto memory). An
`@scope/package` or `@handle` in prose, with no extension and no such file, is left alone.

## Why is this bad?
Whatever the frontmatter says never reaches Claude, and an `@file` in MEMORY.md stays plain text:
the file is not loaded. Both look like they work and do not.

## Example
```md ~/.claude/projects/<project>/memory/MEMORY.md
---
description: project memory
---
- [Deploy](deploy.md) — how we ship
See @docs/conventions.md
```

Use instead:
```md ~/.claude/projects/<project>/memory/MEMORY.md
- [Deploy](deploy.md) — how we ship
- [Conventions](conventions.md) — naming and layout rules of the code base
```
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules.automem._common import auto_memory_indexes, exists
from memlint.violations import Finding

META = RuleMeta(
    code="ML306",
    slug="memory-index-frontmatter-or-include",
    severity="warning",
    summary="frontmatter or @includes in MEMORY.md are never shown or followed",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for mem in auto_memory_indexes(ctx):
        if mem.doc.frontmatter is not None:
            yield Finding(
                mem.path,
                1,
                f"MEMORY.md starts with frontmatter (lines 1-{mem.doc.body_line_offset}): Claude Code removes "
                "it from the index it loads, so Claude never sees it; write it as index lines or drop it",
            )
        for ref in mem.doc.scan().includes:
            if not _meant_as_include(ctx, mem.path.parent, ref.path):
                continue  # `@scope/pkg`, `@user`: an npm scope or a handle in prose, not a file
            yield Finding(
                mem.path,
                ref.line,
                f"`@{ref.written}` is never followed: Claude Code does not expand @includes in MEMORY.md, so "
                f"`{ref.path}` is not loaded; make it a topic file and link it as `- [Title](file.md) — hook`",
                column=ref.column,
            )


def _meant_as_include(ctx: RuleContext, folder: Path, written: str) -> bool:
    """`@path` names a file: it ends in a file extension, or it exists beside MEMORY.md."""
    if re.search(r"\.[A-Za-z0-9]{1,8}$", written):
        return True
    return not written.startswith(("~", "/")) and exists(ctx, folder / written)
