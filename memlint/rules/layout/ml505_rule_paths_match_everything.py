"""A rule's `paths:` is empty, `**` or `*`, so the condition does nothing useful.

## What it does
Reports a rule file under `.claude/rules/` whose `paths:` key is present but either empty or only
`**` (Claude Code then treats the rule as unconditional and loads it at every start), or only
patterns that match every file, such as `*` or `**/*` (the rule is conditional, but loads as soon
as Claude reads any file at all).

## Why is this bad?
A `paths:` that selects nothing misleads the reader: it looks like a condition but is not one. Either
the rule should load always (then the key is noise) or it was meant for some files and the
pattern is wrong, in which case the rule costs context in every session.

## Example
```md .claude/rules/style.md
---
paths: "**"
---
Keep functions short.
```

Use instead:
```md .claude/rules/style.md
Keep functions short.
```

## Fix safety
For an empty or `**` value the fix removes the `paths:` key (and the frontmatter block when nothing
else is in it). It is safe: the rule loaded at every start before and still does, with the same
text. Patterns like `*` are not fixed: removing them would load the rule at start. A frontmatter
that holds `paths:` twice is not fixed either: Claude Code reads the last one (which is reported),
and removing it would bring the first into force, removing the first would lose what it says.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.rule_context import RuleContext
from memlint.model.text.frontmatter import rule_paths
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._common import key_blocks, rule_files
from memlint.violations import Applicability, Edit, Finding, Fix

META = RuleMeta(
    code="ML505",
    slug="rule-paths-match-everything",
    severity="info",
    summary="A rule's paths: is empty or matches every file",
    fix="safe",
)

_EVERYTHING = frozenset({"*", "**", "**/*", "/**/*"})


def _written(value: object) -> str:
    """The value as the message shows it: one level deep (a list nested 2,000 deep is `[[…]]`, not
    a string Python cannot even build), at most 80 characters."""
    if isinstance(value, list):
        shown = "[" + ", ".join(_item(v) for v in value[:10]) + (", …" if len(value) > 10 else "") + "]"
    else:
        shown = _item(value)
    return shown if len(shown) <= 80 else shown[:79] + "…"


def _item(value: object) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[…]"
    return "{…}" if isinstance(value, dict) else str(value)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for path, doc in rule_files(ctx):
        fm = doc.frontmatter
        if fm is None or fm.error is not None or "paths" not in fm.data:
            continue
        where = show(ctx, path)
        blocks = key_blocks(doc.text, fm)
        own = [b for b in blocks if b.key == "paths"]
        block = own[-1] if own else None  # of a key written twice, Claude Code reads the last
        line = block.line if block is not None else 1
        patterns = rule_paths(fm.data)
        if patterns is not None:
            everything = [p for p in patterns if p in _EVERYTHING]
            if everything:
                shown = ", ".join(f"`{p}`" for p in everything)
                yield Finding(
                    path,
                    line,
                    f"`{where}` has the pattern {shown} in `paths:`, which matches every file: Claude Code loads it as soon as "
                    "it reads any file, so the condition only delays it; drop `paths:` to load it at start, or "
                    "narrow the pattern",
                )
            continue
        value = fm.data["paths"]
        said = "empty" if not value else f"`{_written(value)}`, which is only `**`"
        fix = None
        if block is not None and len(own) == 1:
            if len(blocks) == 1 and not doc.body.startswith("---"):
                edit = Edit(path, 0, fm.end_offset, "")
            else:
                edit = Edit(path, block.start, block.end, "")
            fix = Fix("Remove the `paths:` key that matches everything", Applicability.SAFE, (edit,))
        yield Finding(
            path,
            line,
            f"`{where}` has a `paths:` that is {said}: Claude Code treats that as no condition and loads the "
            "rule at every start; remove the key, or list the files the rule is for",
            fix=fix,
        )
