"""A settings file holds a value Claude Code refuses, so Claude Code ignores the whole file.

## What it does
Reports a user, project, local or `--settings` file that Claude Code reads and then uses nothing of,
because one of its values breaks Claude Code's settings schema: a `claudeMdExcludes` that is a string
rather than a list, `"autoMemoryEnabled": "false"` (a string, not `false`), `"cleanupPeriodDays": 0`,
a `permissions.deny` that is not a list, a `model` that is not a string, an `enabledPlugins` value
that is neither `true`, `false` nor a list of strings, JSON `null` for any of these, and the like
(memlint/model/loading/settings_schema.py lists what is checked; each was seen with the real CLI, the
same on every release memlint models). It names the first such value and what the file holds that is
lost with it. A settings file whose text is no JSON object as JavaScript's `JSON.parse` reads it (a
comment, a trailing comma, `NaN`) is ignored whole too, and reported at the line the parse stops.
Managed settings are read value by value and are never reported, nor is a settings file read only
from start folders inside another project's copy (a submodule, `node_modules`, `vendor/`).

## Why is this bad?
Nothing in the file applies, silently: its `claudeMdExcludes` no longer keep files out of memory, its
Read deny rules withhold nothing, its `autoMemoryDirectory` and AGENTS.md plugin options are not used,
and neither are its permissions, hooks or environment. One wrong value costs every setting beside it.

## Example
```md .claude/settings.json
{"claudeMdExcludes": ["**/vendor/**"], "cleanupPeriodDays": 0}
```

```md CLAUDE.md
# Project
Build with make.
```

Use instead:
```md .claude/settings.json
{"claudeMdExcludes": ["**/vendor/**"], "cleanupPeriodDays": 30}
```

```md CLAUDE.md
# Project
Build with make.
```
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from memlint.model.loading.settings import IgnoredSettings, NotJson
from memlint.model.run.include_problems import owned
from memlint.model.run.rule_context import RuleContext, vendored_start
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._settings import line_of
from memlint.violations import Finding

META = RuleMeta(
    code="ML528",
    slug="settings-file-ignored",
    severity="error",
    summary="A settings file holds a value Claude Code refuses, so Claude Code ignores the whole file",
)

_SHOWN = 40


def check(ctx: RuleContext) -> Iterator[Finding]:
    seen: dict[Path, IgnoredSettings] = {}
    for start, loaded in ctx.loads.items():
        if loaded.settings.ignored and not vendored_start(ctx, start):  # (no session of this project starts there)
            for item in loaded.settings.ignored:
                seen.setdefault(item.file.path, item)
    for path in sorted(seen, key=str):
        if not owned(ctx, path):
            continue
        item = seen[path]
        refused = item.problem
        if isinstance(refused, NotJson):  # no JSON object to Claude Code: a comment, a trailing comma, NaN ...
            yield Finding(path, refused.line, f"Claude Code ignores `{show(ctx, path)}` whole because {item.why()}: "
                                              "none of its settings apply; write it as plain JSON (no comments, no "
                                              "trailing commas)")
            continue
        shown = json.dumps(refused.value, ensure_ascii=False)
        shown = shown if len(shown) <= _SHOWN else shown[: _SHOWN - 3] + "..."
        lost = _lost(item.file.data, refused.keys[0])
        yield Finding(
            path, _line(ctx, path, refused.keys),
            f"Claude Code ignores `{show(ctx, path)}` whole because {refused.message()} and is `{shown}` here: "
            f"none of its settings apply{lost}; fix or remove the value",
        )


def _line(ctx: RuleContext, path: Path, keys: tuple[str, ...]) -> int:
    """The line of the refused value's key (the innermost, written after the one above it)."""
    return line_of(ctx, path, keys[-1], keys[-2]) if len(keys) > 1 else line_of(ctx, path, keys[0])


def _lost(data: Any, refused: str) -> str:
    """What of memory the file would set (its excludes, deny rules, memory folder and plugin options),
    but the refused value itself."""
    lost = []
    excludes = data.get("claudeMdExcludes")
    if isinstance(excludes, list) and excludes and refused != "claudeMdExcludes":
        lost.append(f"its claudeMdExcludes ({len(excludes)} pattern{'s' if len(excludes) != 1 else ''})")
    permissions = data.get("permissions")
    deny = permissions.get("deny") if isinstance(permissions, dict) else None
    if isinstance(deny, list) and deny and refused != "permissions":
        lost.append(f"its {len(deny)} deny rule{'s' if len(deny) != 1 else ''}")
    for key in ("autoMemoryDirectory", "autoMemoryEnabled", "pluginConfigs"):
        if key in data and key != refused:
            lost.append(f"its `{key}`")
    if not lost:
        return ""
    return ", " + (lost[0] if len(lost) == 1 else ", ".join(lost[:-1]) + " and " + lost[-1]) + " included"
