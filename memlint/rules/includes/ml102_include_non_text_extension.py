"""An `@include` names a file Claude Code will not read: trailing punctuation, `.markdown`, binary.

## What it does
Reports includes that Claude Code skips because of the target's extension. Claude Code reads only
files whose lower-cased extension is on its text allowlist (`.md`, `.txt`, `.json`, source files...;
a file without extension is fine). Three cases are common:

- punctuation after the path is taken into it: `See @docs/api.md.` asks for `docs/api.md.`
  (extension `.`), `@a.md,` for extension `.md,`; reported when the file without the punctuation
  exists (whether or not the punctuated name does);
- `.markdown` is not on the allowlist;
- images, PDFs and other binary formats are never read.

Left alone: a punctuated include whose file loads anyway (it is the including file itself, or
another include already loads it: `Keep @AGENTS.md as the source ... edit @AGENTS.md.`), and a
token holding a backtick, code read through a list item's code span.

## Why is this bad?
Claude Code skips such an include silently: the file the author pointed at never reaches the model.

## Example
```md CLAUDE.md
# Project
API conventions are in @docs/api.md.
```
```md docs/api.md
Return JSON errors.
```

Use instead:
```md CLAUDE.md
# Project
API conventions are in @docs/api.md .
```
```md docs/api.md
Return JSON errors.
```

## Fix safety
For trailing punctuation the fix puts a space between the path and the punctuation, so Claude Code
loads the file; it is unsafe because the model then reads the included file, which it did not
before. A `.markdown` or binary target is not fixed: renaming or converting the file is a person's
choice.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.engine import RuleContext
from memlint.model.include_problems import IncludeProblem, at_offset, include_problems
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.includes._suspects import code_text
from memlint.violations import Applicability, Edit, Finding, Fix

META = RuleMeta(
    code="ML102",
    slug="include-non-text-extension",
    severity="error",
    summary="An @include names a file Claude Code does not read because of its extension",
    fix="unsafe",
)

_BINARY = frozenset(
    [".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".ico", ".bmp", ".tiff", ".pdf", ".zip", ".gz", ".tar", ".tgz", ".jar", ".exe", ".dll", ".so", ".dylib", ".woff", ".woff2", ".ttf", ".otf", ".mp3", ".mp4", ".mov", ".wav", ".docx", ".xlsx", ".pptx", ".sqlite", ".db", ".bin", ".wasm"]
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for item in include_problems(ctx):
        if code_text(item.origin.ref.written):
            continue
        if item.problem == "punctuation":
            if _loads_anyway(ctx, item):
                continue
            yield _punctuation(ctx, item)
        elif item.problem == "extension":
            yield _extension(ctx, item)


def _loads_anyway(ctx: RuleContext, item: IncludeProblem) -> bool:
    """Whether the file meant loads wherever the including file does (it is that file, or another
    include loads it): then nothing is lost, and the advice would only add a duplicate or a cycle."""
    assert item.better is not None
    meant = ctx.workspace.resolved(item.better)
    includer = ctx.workspace.resolved(item.origin.path)
    contexts = [{ctx.workspace.resolved(e.path) for e in c.files} for c in ctx.loads.values()]
    holding = [files for files in contexts if includer in files]
    return bool(holding) and all(meant in files for files in holding)


def _punctuation(ctx: RuleContext, item: IncludeProblem) -> Finding:
    ref = item.origin.ref
    assert item.better is not None
    cut = len(str(item.target)) - len(str(item.better))
    meant = ref.written[: len(ref.written) - cut]
    punctuation = ref.written[len(ref.written) - cut :]
    why = f"(extension `{item.detail}`)" if item.detail else f"and `{show(ctx, item.target)}` does not exist"
    message = (
        f"Claude Code never loads `{show(ctx, item.better)}`: the trailing `{punctuation}` is taken into the "
        f"path {why}; write `@{meant}` and put the punctuation after a space"
    )
    fix = None
    offset = at_offset(ctx, item.origin)
    if offset is not None and ctx.document(item.origin.path).problem is None:
        at = offset + 1 + len(meant)
        fix = Fix(f"Put a space between `@{meant}` and `{punctuation}`", Applicability.UNSAFE,
                  (Edit(item.origin.path, at, at, " "),))
    return Finding(item.origin.path, item.origin.line, message, column=ref.column, fix=fix)


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
