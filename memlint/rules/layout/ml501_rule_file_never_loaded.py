"""A file under `.claude/rules/` is not named `*.md` (`.MD`, `.mdc`, `.txt`...), so Claude Code never loads it.

## What it does
Reports every text file under a `.claude/rules/` folder whose name does not end in lower-case
`.md`: `style.MD`, `style.Md`, Cursor's `style.mdc`, `style.markdown`, `style.mdx`, `style.txt`,
`style` with no extension. A file whose text is also in a `.md` file of the same name beside it is
left alone (that copy is loaded), and so is a file that a loaded file includes (`@style.txt`): it
is loaded as an include. Dotfiles (`.gitkeep`), binary files and `README.txt`-like files are not
rules.

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

from memlint.model.run.rule_context import RuleContext
from memlint.model.text.document import Document
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._common import rename
from memlint.violations import Finding

META = RuleMeta(
    code="ML501",
    slug="rule-file-never-loaded",
    severity="error",
    summary="A file in .claude/rules not named *.md (.MD, .mdc, .txt, ...) is never loaded",
    fix="unsafe",
)

_MARKDOWN_SUFFIXES = (".md", ".mdc", ".markdown", ".mdx", ".mdown", ".mkd")
_FOR_PEOPLE = frozenset({"readme", "license", "changelog", "owners", "codeowners"})  # not meant as rules
_PLAIN_TEXT_SUFFIXES = (".txt", ".text", "")  # renamed to `.md` by the fix, like the markdown ones



def _body(doc: Document) -> str:
    return doc.body.strip()


def check(ctx: RuleContext) -> Iterator[Finding]:
    included = {f.path for loaded in ctx.loads.values() for f in loaded.files if f.origin is not None}
    for item in ctx.by_role("rule"):
        path = item.path
        name = path.name
        lower = name.lower()
        if name.endswith(".md") or name.startswith(".") or path in included:
            continue
        stem = name[: name.rfind(".")] if "." in name else name
        if stem.lower() in _FOR_PEOPLE and not lower.endswith(_MARKDOWN_SUFFIXES):
            continue
        suffix = lower[len(stem) :]
        better = path.with_name(stem + ".md")
        doc = ctx.document(path)
        if doc.problem is not None:
            continue  # binary, unreadable: not a rule anyone wrote
        if not lower.endswith(_MARKDOWN_SUFFIXES) and suffix not in _PLAIN_TEXT_SUFFIXES:
            yield Finding(path, 1, f"Claude Code never loads `{show(ctx, path)}`: it reads only files named `*.md` "
                          "from `.claude/rules/`, and no loaded file includes this one; if it is a rule, rename it "
                          f"to `{better.name}`, else move it out of the rules folder")
            continue
        extension = name[len(stem) :]
        twin = ctx.document(better)
        if twin.problem is None or twin.problem.reason != "not-found":
            if twin.problem is None and _body(twin) == _body(doc):
                continue
            advice = f"`{better.name}` beside it holds other text: merge what is missing into it"
            fix = None
        else:
            advice, fix = rename(ctx, path, better, doc.text)
        why = (
            "the extension is compared case-sensitively"
            if lower.endswith(".md")
            else f"only names ending in lower-case `.md` are read, not `{extension}`"
            if extension
            else "only names ending in lower-case `.md` are read, and this one has no extension"
        )
        if lower.endswith(".mdc") and doc.frontmatter is not None and "globs" in doc.frontmatter.data:
            advice += " and write its `globs:` as `paths:`"
        yield Finding(path, 1, f"Claude Code never loads `{show(ctx, path)}`: {why}; {advice}", fix=fix)
