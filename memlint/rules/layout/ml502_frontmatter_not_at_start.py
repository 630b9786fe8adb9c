"""A frontmatter block comes after a BOM or a blank line, so Claude Code does not see it as frontmatter.

## What it does
Reports a memory file (CLAUDE.md, CLAUDE.local.md, a rule or an auto-memory topic file) whose text
starts with white space (or, for Claude Code releases before 2.1.239, a byte-order mark) and then a
`---` block of YAML keys, closed by `---`.

## Why is this bad?
Claude Code recognises frontmatter only when `---` is the very first thing in the file (from
2.1.239 on, after skipping one byte-order mark). Anything else before it (an empty line, white
space, a BOM on older releases) defeats it: the block stays in the text the model reads, and its
keys mean nothing. In a rule, `paths:` is ignored and the rule loads at every start instead of only
when a matching file is read.

## Example
```md .claude/rules/api.md

---
paths: src/api/**
---
Validate every request body.
```

Use instead:
```md .claude/rules/api.md
---
paths: src/api/**
---
Validate every request body.
```

## Fix safety
The fix removes the white space before the first `---`, and the BOM too for releases before
2.1.239, which do not skip it (from 2.1.239 the BOM is kept: Claude Code skips it). It is unsafe:
the block then counts as frontmatter, so it leaves the loaded text, and a rule's `paths:` starts to
apply.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.jstext import JS_WS_CLASS
from memlint.model.loading.discovery import MemoryFile, Role
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.frontmatter import parse_frontmatter, rule_paths
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.violations import Applicability, Edit, Finding, Fix

META = RuleMeta(
    code="ML502",
    slug="frontmatter-not-at-start",
    severity="warning",
    summary="Frontmatter after a BOM or a blank line is not frontmatter to Claude Code",
    fix="unsafe",
)

_LEAD = compile_lazily(rf"\ufeff?[{JS_WS_CLASS}]*")
_ROLES: tuple[Role, ...] = ("claude-md", "local", "rule", "topic")


def _memory_files(ctx: RuleContext) -> list[MemoryFile]:
    return ctx.by_role(*_ROLES)


FILES = _memory_files


def check_file(ctx: RuleContext, item: MemoryFile) -> Iterator[Finding]:
    if item.role == "rule" and not item.path.name.endswith(".md"):
        return
    doc = ctx.document(item.path)
    if doc.problem is not None or not doc.leads_with_space:
        return  # (most files start with no white space: answered without reading a text let go again)
    text = doc.text
    lead = _LEAD.match(text)
    end = lead.end() if lead is not None else 0
    if end == 0 or not text.startswith("---", end):
        return
    if doc.frontmatter is not None:  # the release skips the BOM (C09, frontmatter_after_bom)
        return
    fm = parse_frontmatter(text[end:])
    if fm is None or fm.error is not None or not fm.data:
        return
    bom, blank = text.startswith("\ufeff"), "\n" in text[:end]
    # a release that skips one leading BOM (C09) is kept from the frontmatter by the white space
    # alone: the fix keeps the BOM (a fix never changes a file's encoding mark it does not have to)
    keep_bom = bom and ctx.release.frontmatter_after_bom
    start = 1 if keep_bom else 0
    count = text.count("\n", 0, end)
    spacing = "white space comes" if not blank else "a blank line comes" if count == 1 else "blank lines come"
    if keep_bom:
        what = f"{spacing} after the byte-order mark (which Claude Code skips)"
    elif bom and blank:
        what = "a byte-order mark and blank lines come"
    elif bom:
        what = "a byte-order mark comes" if end == 1 else "a byte-order mark and white space come"
    else:
        what = spacing
    where = show(ctx, item.path)
    consequence = "the block stays in the text the model reads"
    paths = rule_paths(fm.data)
    if item.role == "rule" and paths:
        consequence += f", and `paths:` is ignored, so the rule loads at every start instead of only for {', '.join(paths)}"
    elif item.role == "topic" and {"name", "description"} & set(fm.data):
        consequence += ", and the memory's `name`/`description` are not read"
    message = f"Claude Code does not see the frontmatter of `{where}`: {what} before `---`; {consequence}"
    removed = what.split(" come", 1)[0]
    title = f"Remove {removed} before the frontmatter"
    fix = Fix(title, Applicability.UNSAFE, (Edit(item.path, start, end, ""),))
    yield Finding(item.path, doc.line_of_offset(end), message, fix=fix)
