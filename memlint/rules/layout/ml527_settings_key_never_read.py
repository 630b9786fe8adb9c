"""A settings file holds instructions under a key Claude Code never reads.

## What it does
Reports a top-level key of a Claude Code settings file (`.claude/settings.json`,
`.claude/settings.local.json`, the user's `~/.claude/settings.json`, a `--settings` file) whose
text reads as instructions to the agent, as the instruction detector reads them in any language,
when Claude Code does not read that key there:

- a key no modelled release of Claude Code knows (`instructions`, `memory`, `rules`, `context` ...):
  Claude Code keeps it in the file and uses it for nothing;
- `claudeMd` outside managed settings: Claude Code sends its text as organization policy only from
  the managed settings file, and ignores it in user, project, local and `--settings` files.

A key being unknown is not enough: settings have many keys, and other tools add their own; only
an unknown key that holds instruction-like text is reported (its string, the strings of its list,
or of one object in it: `{"memory": {"rules": [...]}}`, not a server's `{"db": {"description":
...}}`). Keys Claude Code reads (`language`, `companyAnnouncements`, `env`, `permissions` ...) are
never reported, nor is a key that does not start with a letter (`//`, `_comment`, `$comment`: the
ways JSON files hold notes for people). One finding per file names every such key.

## Why is this bad?
The author believes Claude follows these instructions; Claude never sees them. Settings are not
memory: Claude Code reads a fixed set of keys from them and sends none of their text to the model.
Instructions belong in CLAUDE.md or a rule file under `.claude/rules/`.

## Example
```md .claude/settings.json
{"permissions": {"allow": ["Bash(make test)"]}, "instructions": ["Always run make test before you commit."]}
```

```md CLAUDE.md
# Project
Build with make.
```

Use instead:
```md .claude/settings.json
{"permissions": {"allow": ["Bash(make test)"]}}
```

```md CLAUDE.md
# Project
Build with make.
Always run make test before you commit.
```
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from memlint.lazy_regex import compile_lazily
from memlint.model.loading.settings_keys import MANAGED_ONLY_KEYS, SETTINGS_KEYS
from memlint.model.run.include_problems import owned
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._settings import line_of, settings_files
from memlint.violations import Finding

META = RuleMeta(
    code="ML527",
    slug="settings-key-never-read",
    severity="warning",
    summary="A settings file holds instructions under a key Claude Code never reads",
)

_SENTENCE_END = compile_lazily(r"(?<=[.!?。！？])\s+")
_SHOWN = 80


def check(ctx: RuleContext) -> Iterator[Finding]:
    for item in settings_files(ctx):
        if not owned(ctx, item.path):
            continue
        found: list[tuple[str, str, bool]] = []  # (key, first instruction-like text, read only when managed)
        for key, value in item.data.items():
            if key in SETTINGS_KEYS and not (key in MANAGED_ONLY_KEYS and item.source != "managed"):
                continue
            if not key[:1].isalpha():
                continue  # `//`, `_comment`, `$comment`: JSON's comment conventions, notes for people
            texts = [t.strip() for t in _strings(value, 2, 1) if t.strip()]
            orders = [t for t in texts if _holds_instruction(t)]
            managed_only = key in SETTINGS_KEYS
            if orders or (managed_only and texts):
                found.append((key, (orders or texts)[0].splitlines()[0], managed_only))
        if not found:
            continue
        unknown = [key for key, _, managed_only in found if not managed_only]
        managed = [key for key, _, managed_only in found if managed_only]
        why = []
        if unknown:
            names = [f"`{k}`" for k in unknown]
            keys = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
            why.append(f"Claude Code reads no key {keys} in settings (no release memlint models knows it)"
                       if len(unknown) == 1 else
                       f"Claude Code reads none of the keys {keys} in settings (no release memlint models knows them)")
        if managed:
            why.append(f"Claude Code reads `{managed[0]}` only from managed settings (organization policy) and "
                       f"ignores it in {item.source} settings")
        first = found[0][1]
        quoted = first if len(first) <= _SHOWN else first[: _SHOWN - 3] + "..."
        yield Finding(
            item.path, line_of(ctx, item.path, found[0][0]),
            f"{'; '.join(why)}, so the instructions under {'it' if len(found) == 1 else 'them'} in "
            f"`{show(ctx, item.path)}` (\"{quoted}\"{' and more' if len(found) > 1 else ''}) never reach Claude; "
            "move them to CLAUDE.md or a rule file under `.claude/rules/`",
        )


def _strings(value: Any, depth: int, objects: int) -> Iterator[str]:
    """The strings of `value`, and of the lists in it down to `depth` levels, entering `objects`
    objects on the way (the strings of a server's `description` in `{"db": {"description": ...}}`
    are configuration, not instructions)."""
    if isinstance(value, str):
        yield value
    elif depth > 0 and isinstance(value, list):
        for element in value:
            yield from _strings(element, depth - 1, objects)
    elif depth > 0 and objects > 0 and isinstance(value, dict):
        for element in value.values():
            yield from _strings(element, depth - 1, objects - 1)


def _holds_instruction(text: str) -> bool:
    """A line, or one sentence of a line, of `text` reads as an instruction."""
    from memlint.model.text.instructions import is_instruction  # 5 ms of regexes: only for an unknown key

    for line in text.splitlines():
        line = line.strip()
        if line and any(is_instruction(sentence) for sentence in _SENTENCE_END.split(line)):
            return True
    return False
