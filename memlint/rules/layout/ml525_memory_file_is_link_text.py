"""A memory file holds only a path: a symbolic link checked out as text.

## What it does
Reports a file Claude Code loads at start (a CLAUDE.md, CLAUDE.local.md, rule or include) whose
whole text is one path and nothing else: one line, no white space, that names a file (it holds a
`/` or ends in a file extension such as `.md`). Git stores a symbolic link as a file holding its
target; a checkout without symlink support (`core.symlinks=false`, the default on Windows, or a
downloaded archive) writes that target as the file's text. Claude Code then loads that one line,
`AGENTS.md` or `../shared/rules/style.md`, and never the file it names.

## Why is this bad?
The instructions the link was meant to share never reach Claude: every session gets one word
instead. Nothing warns about it, since the file exists and loads.

## Example
```md CLAUDE.md
docs/AGENTS.md
```
```md docs/AGENTS.md
Use pnpm.
```

Use instead:
```md CLAUDE.md
@docs/AGENTS.md
```
```md docs/AGENTS.md
Use pnpm.
```

Turn symlinks on (`git config core.symlinks true`, then check the file out again; on Windows
this needs Developer Mode), or replace the link with a file that includes its target
(`@docs/AGENTS.md`), which works everywhere.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._linktext import link_text
from memlint.rules._paths import show
from memlint.violations import Finding

META = RuleMeta(
    code="ML525",
    slug="memory-file-is-link-text",
    severity="error",
    summary="A loaded memory file holds only a path: a symbolic link checked out as text",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    seen: set[str] = set()
    for loaded in ctx.loads.values():
        for item in loaded.files:
            key = str(item.path)
            if key in seen or item.kind == "automem":
                continue
            seen.add(key)
            text = link_text(item.document)
            if text is None:
                continue
            advice = (f"write `@{text}` to include the file wherever it is checked out" if not text.startswith(("/", "~"))
                      else "the link points outside the repository, so copy the text it should share into this file")
            yield Finding(
                item.path,
                1,
                f"Claude Code loads `{show(ctx, item.path)}` as the one line `{text}`: it is a symbolic link "
                "checked out as text (git's `core.symlinks` is off here, or the files came from an archive), so "
                f"Claude gets this path and never the text of the file it names; turn symlinks on and check it out "
                f"again, or {advice}",
            )
