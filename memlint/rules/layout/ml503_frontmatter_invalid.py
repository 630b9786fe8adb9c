"""A rule's frontmatter is not valid YAML (or never closes), so Claude Code ignores it and the rule always loads.

## What it does
Reports a rule file under `.claude/rules/` whose frontmatter YAML fails to parse even after Claude
Code's own retry (which double-quotes simple `key: value` lines such as `paths: src/**/*.ts`), and
a rule that opens a frontmatter block with `---` but never closes it. A value that parses only
thanks to the retry is fine and not reported.

## Why is this bad?
When the YAML does not parse, Claude Code treats the rule as having no frontmatter keys: its
`paths:` is ignored and the rule is loaded at every start, costing context in every session. A
block that is never closed is not frontmatter at all: the `---` and the keys stay in the text the
model reads. The usual culprit is an unquoted list item starting with `*` (`- **/*.ts`), which YAML
reads as an alias.

## Example
```md .claude/rules/typescript.md
---
paths:
  - **/*.ts
---
Use strict mode.
```

Use instead:
```md .claude/rules/typescript.md
---
paths:
  - "**/*.ts"
---
Use strict mode.
```

## Fix safety
When double-quoting the list items and values that start with a YAML special character makes the
block parse, the fix does that. It is unsafe: the rule's `paths:` then applies, so it stops loading
at every start.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.lazy_regex import compile_lazily
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.frontmatter import Frontmatter, parse_frontmatter
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._common import rule_files, yaml_start
from memlint.violations import Applicability, Edit, Finding, Fix

META = RuleMeta(
    code="ML503",
    slug="frontmatter-invalid",
    severity="error",
    summary="A rule's frontmatter does not parse, so its paths are ignored",
    fix="unsafe",
)

_ITEM = compile_lazily(r"([ \t]*-[ \t]+|[ \t]*[A-Za-z_][\w-]*:[ \t]+)([^\r\n]*?)([ \t]*)(\r?)$")
_SPECIAL_START = tuple("*&!|>%@`")
_KEY_LINE = compile_lazily(r"[A-Za-z_][\w-]*[ \t]*:(?:[ \t]|$)")


def _error_line(fm: Frontmatter) -> int:
    """The 1-based line of the YAML error within the file (the block starts on line 2)."""
    import yaml  # type: ignore[import-untyped,unused-ignore]

    try:
        yaml.safe_load(fm.raw)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        if mark is not None:
            return int(mark.line) + 2
    except (yaml.YAMLError, RecursionError):  # nested past Python's limit: no line to point at
        pass
    return 2


def _needs_quotes(value: str) -> bool:
    if not value or value[0] in "\"'":
        return False
    if value.startswith(_SPECIAL_START):
        return True
    if value.startswith(("[", "{")):
        import yaml  # type: ignore[import-untyped,unused-ignore]

        try:
            yaml.safe_load(value)
        except (yaml.YAMLError, RecursionError):  # as model.text.frontmatter judges a value nested too deep
            return True
    return False


def _quoting_edits(text: str, fm: Frontmatter, start: int) -> list[tuple[int, int, str]]:
    edits: list[tuple[int, int, str]] = []
    offset = start
    for line in fm.raw.split("\n"):
        match = _ITEM.match(line)
        if match is not None and _needs_quotes(match.group(2)):
            value = match.group(2)
            quoted = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
            begin = offset + match.start(2)
            edits.append((begin, begin + len(value), quoted))
        offset += len(line) + 1
    if not edits:
        return []
    new = text
    for begin, end, replacement in reversed(edits):
        new = new[:begin] + replacement + new[end:]
    fixed = parse_frontmatter(new)
    if fixed is None or fixed.error is not None or not fixed.data:
        return []
    return edits


def check(ctx: RuleContext) -> Iterator[Finding]:
    for path, doc in rule_files(ctx):
        fm = doc.frontmatter
        if fm is not None and fm.error is None:
            continue  # most rule files: nothing to say, and no text to read again on a large run
        text = doc.text
        where = show(ctx, path)
        if fm is None:
            if text.startswith("---") and "\n" in text:
                second = text.split("\n", 2)[1]
                if _KEY_LINE.match(second):
                    yield Finding(
                        path,
                        1,
                        f"Claude Code reads no frontmatter in `{where}`: the `---` block is never closed, so its "
                        "keys stay in the text the model reads and the rule loads at every start; close it with `---`",
                    )
            continue
        line = _error_line(fm)
        message = (
            f"Claude Code ignores the frontmatter of `{where}`: its YAML does not parse ({fm.error}, line {line}), "
            "so `paths:` and every other key are dropped and the rule loads at every start"
        )
        start = yaml_start(text, fm)
        fix = None
        if start is not None:
            edits = _quoting_edits(text, fm, start)
            if edits:
                fix = Fix(
                    "Double-quote the values YAML misreads",
                    Applicability.UNSAFE,
                    tuple(Edit(path, b, e, r) for b, e, r in edits),
                )
        yield Finding(path, line, message, fix=fix)
