"""An `autoMemoryDirectory` setting that Claude Code does not accept, so auto memory stays where it was.

## What it does
Reports an `autoMemoryDirectory` in a user, project, local or `--settings` file whose value Claude
Code rejects: empty, relative (`memory/`), `~/` with nothing or `..` after it, or the root folder. (A
value that is not a string makes Claude Code ignore the whole file: ML528 reports that.)

## Why is this bad?
Claude Code then ignores the setting without a word and keeps reading and writing MEMORY.md in
`~/.claude/projects/<project>/memory/`: the folder the team pointed it to stays empty, and the
memories written there by hand are never loaded.

## Example
```md .claude/settings.json
{"autoMemoryDirectory": "memory"}
```

```md CLAUDE.md
Project notes.
```

Use instead:
```md .claude/settings.json
{"autoMemoryDirectory": "~/team-memory"}
```
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

from memlint.model.loading.settings import memory_dir_setting
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._settings import line_of, settings_files
from memlint.violations import Finding

META = RuleMeta(
    code="ML514",
    slug="memory-directory-rejected",
    severity="warning",
    summary="An autoMemoryDirectory setting Claude Code does not accept",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    # the HOME the loader modelled (absolute and real), else the one given
    loads = list(ctx.loads.values())
    home = loads[0].home if loads else (Path(os.path.realpath(ctx.home)) if ctx.home else None)
    for item in settings_files(ctx):
        if item.source not in ("user", "project", "local", "flag") or "autoMemoryDirectory" not in item.data:
            continue
        value = item.data["autoMemoryDirectory"]
        if home is not None and memory_dir_setting(value, home) is not None:
            continue
        shown = json.dumps(value, ensure_ascii=False)
        yield Finding(
            item.path, line_of(ctx, item.path, "autoMemoryDirectory"),
            f"Claude Code ignores `autoMemoryDirectory` {shown} in `{show(ctx, item.path)}`: it accepts only an "
            "absolute path or one starting with `~/` below HOME, so MEMORY.md stays in "
            "~/.claude/projects/<project>/memory/",
        )
