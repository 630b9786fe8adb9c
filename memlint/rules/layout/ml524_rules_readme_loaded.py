"""A README.md in `.claude/rules/` is loaded as a rule at every start.

## What it does
Reports a file named `README.md` (any letter case before the lower-case `.md`) under a
`.claude/rules/` folder that Claude Code loads at start: it has no `paths:`, so Claude Code takes it
for an unconditional rule, whatever it says. Only what Claude Code loads is reported; a README
with `paths:` loads only with matching files and is left alone.

## Why is this bad?
Claude Code reads every `.md` file under `.claude/rules/` as a rule; it has no notion of a
README. A note written for people who browse the folder ("this folder holds the team rules...")
is sent with every request, spends context in every session and reads to Claude as an
instruction.

## Example
```md .claude/rules/README.md
# Rules
This folder holds the team rules; each file covers one area.
```

Use instead:
```md .claude/README.md
# Rules
The rules folder holds the team rules; each file covers one area.
```

Move the note out of `.claude/rules/` (to `.claude/README.md`, or into the folder's docs), or
delete it.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._common import rule_files
from memlint.violations import Finding

META = RuleMeta(
    code="ML524",
    slug="rules-readme-loaded",
    severity="warning",
    summary="A README.md in .claude/rules/ is loaded as a rule at every start",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    readmes = {str(path): path for path, _ in rule_files(ctx) if path.name.lower() == "readme.md"}
    if not readmes:
        return
    starts: dict[str, list[str]] = {}
    for loaded in ctx.loads.values():
        for item in loaded.files:
            key = str(item.path)
            if key in readmes and item.globs is None:
                starts.setdefault(key, []).append(show(ctx, loaded.start))
    for key, where in sorted(starts.items()):
        path = readmes[key]
        chars = len(ctx.document(path).body.strip())
        folders = ", ".join(f"`{w}`" for w in where[:3]) + (f" and {len(where) - 3} more" if len(where) > 3 else "")
        yield Finding(
            path,
            1,
            f"Claude Code loads `{show(ctx, path)}` as a rule at every start in {folders} ({chars:,} characters): "
            "every `.md` file under `.claude/rules/` is a rule to it, a README for people included; move the "
            "note out of `.claude/rules/` (for example to `.claude/README.md`) or delete it",
        )
