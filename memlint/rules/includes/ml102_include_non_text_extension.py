"""An `@include` names a file Claude Code will not read because of its extension: `.markdown`, binary.

## What it does
Reports includes that Claude Code skips because of the target's extension. Claude Code reads only
files whose lower-cased extension is on its text allowlist (`.md`, `.txt`, `.json`, source files...;
a file without extension is fine). Two cases are common:

- `.markdown` is not on the allowlist;
- images, PDFs and other binary formats are never read.

Punctuation glued to the path (`@docs/api.md.`) is ML110's. A token holding a backtick is code read
through a list item's code span, and is left alone.

## Why is this bad?
Claude Code skips such an include silently: the file the author pointed at never reaches the model.

## Example
```md CLAUDE.md
# Project
The style guide is @docs/style.markdown
```
```md docs/style.markdown
Use sentence case in headings.
```

Use instead:
```md CLAUDE.md
# Project
The style guide is @docs/style.md
```
```md docs/style.md
Use sentence case in headings.
```
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.include_problems import IncludeProblem, include_problems
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.includes._suspects import code_text
from memlint.violations import Finding

META = RuleMeta(
    code="ML102",
    slug="include-non-text-extension",
    severity="error",
    summary="An @include names a file Claude Code does not read because of its extension",
    fix=None,
)

_BINARY = frozenset(
    [".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".ico", ".bmp", ".tiff", ".pdf", ".zip", ".gz", ".tar", ".tgz", ".jar", ".exe", ".dll", ".so", ".dylib", ".woff", ".woff2", ".ttf", ".otf", ".mp3", ".mp4", ".mov", ".wav", ".docx", ".xlsx", ".pptx", ".sqlite", ".db", ".bin", ".wasm"]
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for item in include_problems(ctx):
        if item.problem == "extension" and not code_text(item.origin.ref.written):
            yield _extension(ctx, item)


def _extension(ctx: RuleContext, item: IncludeProblem) -> Finding:
    ref = item.origin.ref
    extension = item.detail
    target = show(ctx, item.target)
    if extension == ".markdown":
        advice = "rename the file to `.md` and include that"
    elif extension in _BINARY:
        advice = "it is not a text file; include a text or markdown summary instead"
    else:
        advice = "rename it to a text extension such as `.md` or `.txt`"
    message = (
        f"Claude Code skips `@{ref.written}`: it reads only text extensions and `{extension}` of "
        f"`{target}` is not one of them; {advice}"
    )
    return Finding(item.origin.path, item.origin.line, message, column=ref.column)
