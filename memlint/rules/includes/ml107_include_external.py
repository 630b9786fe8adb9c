"""An `@include` points outside the folder Claude Code starts in, so it is not followed there.

## What it does
Claude Code follows includes of project and local memory files only to targets inside the folder
it was started in (unless the user approved external includes). This rule reports:

- includes that work from the project root but not when Claude starts in a subfolder that has
  its own `CLAUDE.md` (a root `CLAUDE.md` that says `@docs/guide.md` loads nothing about the guide
  when Claude starts in `packages/api/`);
- includes outside the checked repository altogether (`@../shared/rules.md`, `@~/notes.md` from a
  project file), which load only after the user approves external includes.

Includes in user memory (`~/.claude/CLAUDE.md`) are always followed and never reported, and a
start folder where the target loads anyway (an unconditional rule in an ancestor's
`.claude/rules/`, which loads from every folder below) is left out: nothing is lost there.

## Why is this bad?
People starting Claude in a package, and everyone who has not approved external includes, get
less than the author intended, silently.

## Example
```md CLAUDE.md
# Monorepo
@docs/guide.md
```
```md docs/guide.md
Use pnpm.
```
```md packages/api/CLAUDE.md
# API
```

Use instead:
```md CLAUDE.md
# Monorepo
Use pnpm.
```
```md packages/api/CLAUDE.md
# API
```
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from memlint.model.run.include_problems import include_problems
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.violations import Finding

META = RuleMeta(
    code="ML107",
    slug="include-external",
    severity="warning",
    summary="An @include points outside the folder Claude Code starts in",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    roots = [os.path.realpath(r) for r in ctx.roots]
    loaded: dict[str, set[str]] | None = None
    for item in include_problems(ctx):
        if item.problem != "external":
            continue
        ref = item.origin.ref
        target = ctx.workspace.resolved(item.target)
        if loaded is None:
            loaded = {str(c.start): {ctx.workspace.resolved(f.path) for f in c.files} for c in ctx.loads.values()}
        lost = [s for s in item.starts if target not in loaded.get(str(s), set())]
        if item.starts and not lost:
            continue  # it loads there anyway (an ancestor's unconditional rule): nothing is lost
        inside = any(target == r or target.startswith(r.rstrip("/") + "/") for r in roots)
        if inside:
            starts = sorted(show(ctx, s) + "/" for s in lost)
            shown = ", ".join(f"`{s}`" for s in starts[:3]) + (f" and {len(starts) - 3} more" if len(starts) > 3 else "")
            message = (
                f"Claude Code does not follow `@{ref.written}` when started in {shown}: "
                f"`{show(ctx, item.target)}` is outside that folder (it loads only from a start folder that "
                "contains it); repeat what that folder needs in its own CLAUDE.md"
            )
        else:
            message = (
                f"Claude Code does not follow `@{ref.written}`: `{show(ctx, item.target)}` is outside the "
                "repository, and includes outside the start folder load only after the user approves "
                "external includes; move the file into the repository or into ~/.claude/CLAUDE.md"
            )
        yield Finding(item.origin.path, item.origin.line, message, column=ref.column)
