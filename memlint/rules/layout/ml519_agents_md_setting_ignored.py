"""An AGENTS.md setting (`instructionFiles`, `projectInstructions`, `enabledPlugins`) that Claude Code ignores.

## What it does
From Claude Code 2.1.281 the built-in plugin `cc-plugin-agents-md@builtin` (alias
`agents-md@builtin`) decides whether AGENTS.md is loaded, through
`pluginConfigs[<id>].options.instructionFiles`. Reports a setting of it that does nothing:

- in a project or local settings file (`.claude/settings.json`): Claude Code reads this plugin's
  options only from the user settings, a `--settings` file and managed settings;
- a value of `instructionFiles` it does not know (it counts as the default,
  `claude-md-or-agents-md`, so a legacy `projectInstructions` beside it decides, else the default);
- a plugin id that is not one of the two (`cc-plugin-agents-md` without `@builtin`), or the full id
  on a release that knows only `agents-md@builtin` (before 2.1.285).

## Why is this bad?
The team believes it chose how AGENTS.md and CLAUDE.md combine, while Claude Code uses its
default: AGENTS.md is silently dropped whenever a CLAUDE.md loads.

## Example
```md .claude/settings.json
{"pluginConfigs": {"cc-plugin-agents-md@builtin": {"options": {"instructionFiles": "claude-md-and-agents-md"}}}}
```

```md CLAUDE.md
Project notes.
```

Use instead:
```md .claude/settings.json
{"permissions": {"allow": []}}
```
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from memlint.model.loading.settings import LEGACY_MODES, MODES, SettingsFile, plugin_ids
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._settings import line_of, settings_files
from memlint.violations import Finding

META = RuleMeta(
    code="ML519",
    slug="agents-md-setting-ignored",
    severity="warning",
    summary="An AGENTS.md plugin setting that Claude Code ignores",
)


def _blocks(data: dict[str, Any]) -> Iterator[tuple[str, str, str, Any]]:
    """(section, plugin id, option, value) for every agents-md-looking plugin entry."""
    configs = data.get("pluginConfigs")
    if isinstance(configs, dict):
        for plugin, block in configs.items():
            options = block.get("options") if isinstance(block, dict) else None
            if "agents-md" in plugin and isinstance(options, dict):
                for option in ("instructionFiles", "projectInstructions"):
                    if option in options:
                        yield "pluginConfigs", plugin, option, options[option]
    enabled = data.get("enabledPlugins")
    if isinstance(enabled, dict):
        for plugin, value in enabled.items():
            if "agents-md" in plugin:
                yield "enabledPlugins", plugin, "", value


def _problem(ctx: RuleContext, item: SettingsFile, section: str, plugin: str, option: str, value: Any) -> str | None:
    ids = plugin_ids(ctx.release)
    if plugin not in ids:
        known = " or ".join(f"`{i}`" for i in ids)
        return f"`{plugin}` is not the AGENTS.md plugin's id for Claude Code {ctx.release.name} (use {known})"
    if section == "pluginConfigs" and item.source in ("project", "local"):
        return ("Claude Code reads this plugin's options only from the user settings, a `--settings` file and "
                "managed settings, never from project settings")
    if option == "instructionFiles" and value not in MODES:
        return (f"{value!r} is not a mode Claude Code knows ({', '.join(MODES)}), so it counts as the default "
                "`claude-md-or-agents-md` (a `projectInstructions` set beside it then decides)")
    if option == "projectInstructions" and value not in LEGACY_MODES:
        return f"{value!r} is not a `projectInstructions` value Claude Code knows, so it means `claude-md`"
    return None


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.release.agents_md:
        return
    for item in settings_files(ctx):
        for section, plugin, option, value in _blocks(dict(item.data)):
            problem = _problem(ctx, item, section, plugin, option, value)
            if problem is None:
                continue
            what = f"`{section}.{plugin}" + (f".options.{option}`" if option else "`")
            yield Finding(item.path, line_of(ctx, item.path, plugin, section),
                          f"{what} in `{show(ctx, item.path)}` does nothing: {problem}")
