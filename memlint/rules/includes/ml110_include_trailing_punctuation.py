"""An `@include` has punctuation glued to its path, so Claude Code looks for another file.

## What it does
Reports an include whose path ends in punctuation that Claude Code takes into the path: `See
@docs/api.md.` asks for `docs/api.md.` (extension `.`, not on Claude Code's text allowlist, and a
file that does not exist), `@a.md,` for `a.md,`. Reported when the file without the punctuation
exists (whether or not the punctuated name does). Left alone: a punctuated include whose file loads
anyway (it is the including file itself, or another include already loads it: `Keep @AGENTS.md as
the source ... edit @AGENTS.md.`), and a token holding a backtick, code read through a list item's
code span.

## Why is this bad?
Claude Code skips the include silently: the file the author pointed at never reaches the model.

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
The fix puts a space between the path and the punctuation, so Claude Code loads the file; it is
unsafe because the model then reads the included file, which it did not before.
"""

from __future__ import annotations

from collections.abc import Iterator

from memlint.model.run.include_problems import IncludeProblem, at_offset, include_problems
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.includes._suspects import code_text
from memlint.violations import Applicability, Edit, Finding, Fix

META = RuleMeta(
    code="ML110",
    slug="include-trailing-punctuation",
    severity="error",
    summary="An @include has punctuation glued to its path, so Claude Code looks for another file",
    fix="unsafe",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for item in include_problems(ctx):
        if item.problem == "punctuation" and not code_text(item.origin.ref.written) and not _loads_anyway(ctx, item):
            yield _punctuation(ctx, item)


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
