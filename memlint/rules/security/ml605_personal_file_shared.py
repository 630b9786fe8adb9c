"""A CLAUDE.local.md or `.claude/settings.local.json` is tracked by git, or no `.gitignore` covers it.

## What it does
Reports, once per file, a personal Claude Code file that git shares or is ready to share:
`CLAUDE.local.md` anywhere, `.claude/settings.local.json` beside a checked folder or start folder,
and files in `.claude/agent-memory-local/`. It is an error when the file is in the git index
(tracked: every clone has it), and also when it is not tracked but no `.gitignore` (nor
`.git/info/exclude`) ignores it, so the next `git add .` commits it. Where the file is loaded is
named: Claude Code loads CLAUDE.local.md at start as "the user's private project instructions, not
checked in". One missing ignore pattern is one cause: the untracked files of one repository that
no `.gitignore` covers are reported together, on the first, naming the others. A tracked file
that a `.gitignore` does list (it was added with `--force`) is told so. An empty file holds
nothing personal and is left alone.

memlint never runs git: `git ls-files` reads the repository's configuration, and settings like
`core.fsmonitor` run commands. It parses `.git/index` itself (formats 2-4) and matches the
`.gitignore` files with gitignore rules (pathspec). A global ignore file (`core.excludesFile`) is
not read: it protects only your own clone.

## Why is this bad?
These files are meant for one person: their notes, local paths, preferences, permissions. Once
committed, every clone loads one person's private instructions into every session, and their
permission allowances apply to everyone.

## Example
```md CLAUDE.local.md
My sandbox is at /srv/dev-alice; run the slow tests there.
```

Use instead:
```md .gitignore
CLAUDE.local.md
.claude/settings.local.json
```
```md CLAUDE.local.md
My sandbox is at /srv/dev-alice; run the slow tests there.
```

Add the file to `.gitignore`; if it is tracked, also `git rm --cached <file>` so the repository
stops sharing it (your own copy stays), and check its history for anything private.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.security._exposure import exposed, where
from memlint.rules.security._git import find_repository, ignored_by, tracked
from memlint.violations import Finding

META = RuleMeta(
    code="ML605",
    slug="personal-file-shared",
    severity="error",
    summary="A personal file (CLAUDE.local.md, settings.local.json) is tracked by git or not ignored",
)


def _personal(ctx: RuleContext) -> list[Path]:
    found: dict[Path, None] = {}
    for item in ctx.files:
        parts = item.path.parts
        if item.role == "local" or "agent-memory-local" in parts and ".claude" in parts:
            found[item.path] = None
    for folder in (*(r for r in ctx.roots if r.is_dir()), *ctx.loads):  # a file named on the command line holds none
        settings = folder / ".claude" / "settings.local.json"
        problem = ctx.document(settings).problem
        if problem is None or problem.reason != "not-found":
            found[settings] = None
    return sorted(found)


_SHOWN = 3


def check(ctx: RuleContext) -> Iterator[Finding]:
    by_path = {str(item.path): item for item in exposed(ctx)}  # described only for the files reported
    uncovered: dict[tuple[str, str], list[tuple[Path, str]]] = {}  # (top, state) -> files, one cause
    for path in _personal(ctx):
        doc = ctx.document(path)
        if doc.problem is None and not doc.text.strip():
            continue  # an empty file shares nothing
        repo = find_repository(path, ctx.document)
        top = repo.root if repo is not None else _top(ctx, path)
        shown = show(ctx, path)
        item = by_path.get(str(path))
        loaded = f" ({where(ctx, item)})" if item is not None else ""
        is_tracked = tracked(repo, path, ctx.document) if repo is not None else None
        ignore = ignored_by(path, top, ctx.document, repo.git_dir if repo else None)
        if is_tracked:
            listed = (f"although `{show(ctx, ignore)}` lists it (it was added with `--force`)" if ignore is not None
                      else "")
            advice = "" if ignore is not None else " and add it to .gitignore"
            yield Finding(path, 1, f"`{shown}`{loaded} is tracked by git{' ' + listed if listed else ''}: every "
                          f"clone gets one person's private file and Claude Code loads it for everyone; run "
                          f"`git rm --cached {shown}`{advice}")
            continue
        if ignore is not None:
            continue
        if repo is None:
            state = "is in no git repository memlint can see"
        elif is_tracked is None:
            state = "may be tracked (memlint could not read .git/index)"
        else:
            state = "is not tracked yet"
        uncovered.setdefault((str(top), state), []).append((path, loaded))
    for (_, state), files in uncovered.items():
        path, loaded = files[0]
        if len(files) == 1:
            yield Finding(path, 1, f"`{show(ctx, path)}`{loaded} {state}, and no .gitignore covers it: once committed "
                          "(`git add .`), every clone loads one person's private file; add it to .gitignore")
            continue
        names = ", ".join(f"`{show(ctx, p)}`" for p, _ in files[1 : 1 + _SHOWN])
        more = f" and {len(files) - 1 - _SHOWN} more" if len(files) - 1 > _SHOWN else ""
        yield Finding(path, 1, f"`{show(ctx, path)}`{loaded} and {len(files) - 1} more personal file"
                      f"{'s' if len(files) > 2 else ''} ({names}{more}) {_plural(state)}, and no .gitignore covers "
                      "them: once committed (`git add .`), every clone loads one person's private files; add "
                      "`CLAUDE.local.md` and `.claude/settings.local.json` to .gitignore (a name without a folder "
                      "covers every copy)")


def _plural(state: str) -> str:
    return state.replace("is in no", "are in no").replace("is not tracked", "are not tracked")


def _top(ctx: RuleContext, path: Path) -> Path:
    """Without a repository: the checked root holding the file (where a .gitignore would be)."""
    for root in ctx.roots:
        if root == path or root in path.parents:
            return root if root.is_dir() else root.parent
    return path.parent
