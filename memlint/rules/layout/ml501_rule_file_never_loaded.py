"""A file under `.claude/rules/` is named `.MD`, `.mdc` or `.markdown`, so Claude Code never loads it.

## What it does
Reports every markdown-looking file under a `.claude/rules/` folder whose name does not end in
lower-case `.md`: `style.MD`, `style.Md`, Cursor's `style.mdc`, `style.markdown`, `style.mdx`.
A file whose text is also in a `.md` file of the same name beside it is left alone (that copy is
loaded).

## Why is this bad?
Claude Code reads only rule files whose name ends in lower-case `.md`; every other file in the
folder is skipped without a word. A rule copied from Cursor (`.mdc`) or saved with an upper-case
extension never reaches the model, however carefully it is written.

## Example
```md .claude/rules/style.mdc
---
paths: src/**/*.ts
---
Prefer `type` over `interface`.
```

Use instead:
```md .claude/rules/style.md
---
paths: src/**/*.ts
---
Prefer `type` over `interface`.
```

## Fix safety
The fix renames the file to the same name ending in `.md` when nothing has that name yet (never
overwriting a file), keeping its bytes. It is unsafe because Claude Code then starts loading the
rule. When a `.md` file of that name exists, a person must merge the two: no fix is offered.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.engine import RuleContext
from memlint.model.document import Document
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._common import rename_fix
from memlint.violations import Finding

META = RuleMeta(
    code="ML501",
    slug="rule-file-never-loaded",
    severity="error",
    summary="A rules file named .MD, .mdc or .markdown is never loaded",
    fix="unsafe",
)

_MARKDOWN_SUFFIXES = (".md", ".mdc", ".markdown", ".mdx", ".mdown", ".mkd")


def _body(doc: Document) -> str:
    return doc.body.strip()


def check(ctx: RuleContext) -> Iterator[Finding]:
    for item in ctx.by_role("rule"):
        path = item.path
        name = path.name
        lower = name.lower()
        if name.endswith(".md") or not lower.endswith(_MARKDOWN_SUFFIXES):
            continue
        stem = name[: name.rfind(".")]
        if not stem:
            continue
        better = path.with_name(stem + ".md")
        doc = ctx.document(path)
        if doc.problem is not None:
            continue
        extension = name[len(stem) :]
        twin = ctx.document(better)
        if twin.problem is None or twin.problem.reason != "not-found":
            if twin.problem is None and _body(twin) == _body(doc):
                continue
            advice = f"`{better.name}` beside it holds other text: merge what is missing into it"
            fix = None
        else:
            advice = f"rename it to `{better.name}`"
            fix = rename_fix(path, better, doc.text)
        why = (
            "the extension is compared case-sensitively"
            if lower.endswith(".md")
            else f"only names ending in lower-case `.md` are read, not `{extension}`"
        )
        if lower.endswith(".mdc") and doc.frontmatter is not None and "globs" in doc.frontmatter.data:
            advice += " and write its `globs:` as `paths:`"
        yield Finding(path, 1, f"Claude Code never loads `{show(ctx, path)}`: {why}; {advice}", fix=fix)
