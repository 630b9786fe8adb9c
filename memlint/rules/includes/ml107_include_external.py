"""An `@include` points outside the folder Claude Code starts in, so it is not followed there.

## What it does
Claude Code follows includes of project and local memory files only to targets inside the folder
it was started in (unless the user approved external includes). This rule reports:

- includes that work from the project root but not when Claude starts in a subfolder that has
  its own `CLAUDE.md` (a root `CLAUDE.md` that says `@docs/guide.md` loads nothing about the guide
  when Claude starts in `packages/api/`);
- includes outside the checked repository altogether (`@../shared/rules.md`, `@~/notes.md` from a
  project file), which load only after the user approves external includes.

Includes in user memory (`~/.claude/CLAUDE.md`) are always followed and never reported. Start
folders where nothing is lost, or where no Claude session starts, are left out:

- the target loads there anyway (an unconditional rule in an ancestor's `.claude/rules/`, which
  loads from every folder below);
- the folder loads its own copy of the target: a file of the same name whose code spans and
  paths are largely the target's (a translated or copied template, `i18n/de/AGENTS.md` beside
  `AGENTS.md`), told without reading its words;
- the folder has no CLAUDE.md or CLAUDE.local.md of its own, only an AGENTS.md, below a CLAUDE.md:
  that AGENTS.md is kept for other agents (as ML510 and ML512 take it), not a place to start Claude.

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
from pathlib import Path

from memlint.lazy_regex import compile_lazily
from memlint.model.loading.loader import LoadedContext
from memlint.model.run.include_problems import include_problems
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.markdown import without_comments
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.layout._agents import stoppers  # the CLAUDE.md files of a loading, as ML510-ML512 see them
from memlint.violations import Finding

_CODE_SPAN = compile_lazily(r"`([^`\n]{1,200})`")
_PATHISH = compile_lazily(r"[A-Za-z0-9_./-]*[./][A-Za-z0-9_./-]+")
_COPY = 0.3  # the share of code spans and paths two files have in common, past which one is a copy

META = RuleMeta(
    code="ML107",
    slug="include-external",
    severity="warning",
    summary="An @include points outside the folder Claude Code starts in",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    roots = [os.path.realpath(r) for r in ctx.roots]
    starts: dict[Path, _Start] | None = None
    for item in include_problems(ctx):
        if item.problem != "external":
            continue
        ref = item.origin.ref
        target = ctx.workspace.resolved(item.target)
        if starts is None:
            starts = {start: _Start(ctx, context) for start, context in ctx.loads.items()}
        known = [(s, starts.get(s)) for s in item.starts]
        lost = [(s, start) for s, start in known if start is None or target not in start.loaded]
        if item.starts and not lost:
            continue  # it loads there anyway (an ancestor's unconditional rule): nothing is lost
        name = item.target.name
        lost = [(s, start) for s, start in lost
                if start is None or (start.claude_starts_here and not _loads_copy(ctx, start, item.target, name))]
        if item.starts and not lost:
            continue  # only folders kept for other agents, or folders with their own copy
        inside = any(target == r or target.startswith(r.rstrip("/") + "/") for r in roots)
        if inside:
            where = sorted(show(ctx, s) + "/" for s, _ in lost)
            shown = ", ".join(f"`{s}`" for s in where[:3]) + (f" and {len(where) - 3} more" if len(where) > 3 else "")
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


class _Start:
    """What ML107 asks of a start folder, worked out once per run: the real paths of the files
    loaded there, those files by name, and whether a Claude session may start there."""

    def __init__(self, ctx: RuleContext, context: LoadedContext) -> None:
        resolved = ctx.workspace.resolved
        self.loaded = {resolved(f.path) for f in context.files}
        self.by_name: dict[str, list[Path]] = {}
        for f in context.files:
            self.by_name.setdefault(f.path.name, []).append(f.path)
        self.claude_starts_here = _claude_starts_here(ctx, context)


def _claude_starts_here(ctx: RuleContext, context: LoadedContext) -> bool:
    """A Claude session may start here: the folder is a checked root, has a CLAUDE.md,
    .claude/CLAUDE.md or CLAUDE.local.md of its own, or loads none from above (a repository that
    keeps AGENTS.md only). A folder that is a start folder only by its AGENTS.md, below a CLAUDE.md,
    is kept for other agents."""
    start = context.start
    if start in ctx.roots:
        return True
    own = (start, start / ".claude")
    claude = stoppers(context)
    return not claude or any(f.path.parent in own for f in claude)


def _loads_copy(ctx: RuleContext, start: _Start, target: Path, name: str) -> bool:
    """A file loaded in `start` shares most of the target's code spans and paths: a copy or a
    translation of it (words differ from language to language; code and paths do not)."""
    others = [p for p in start.by_name.get(name, ()) if p != target]
    if not others:
        return False
    mine = _marks(ctx, target)
    if len(mine) < 5:
        return False
    for path in others:
        theirs = _marks(ctx, path)
        if len(mine & theirs) >= _COPY * len(mine | theirs):
            return True
    return False


def _marks(ctx: RuleContext, path: Path) -> frozenset[str]:
    """The code spans and path-like tokens of a file, outside HTML comments (once per file and run)."""
    def read() -> frozenset[str]:
        doc = ctx.document(path)
        if doc.problem is not None:
            return frozenset()
        text = without_comments(doc.text) if "<!--" in doc.text else doc.text
        return frozenset(_CODE_SPAN.findall(text)) | frozenset(_PATHISH.findall(text))

    return ctx.once(("ml107.marks", str(path)), read)
