"""An `@include` names a file that does not exist, so Claude Code silently loads nothing.

## What it does
Reports every `@path` that Claude Code accepts as an include but whose target does not exist
(resolved against the folder of the including file, `~/` against HOME), when the path plainly
names a file: it has a file extension or starts with `./`, `../`, `~/` or `/` (an npm package such
as `@scope/name` or a handle such as `@octocat` is not reported). When the file exists relative to
the project root instead, the message says how to write the path. The missing includes of one
file are one finding, on the first, naming the first few with their lines and the count. Targets that exist under
another letter case (ML109) or without a trailing punctuation mark (ML110) are reported there.
An `@~/.claude/<path>` whose `<path>` exists under the checked root is not reported either: the
repository is a copy of a `~/.claude` folder (dotfiles, a config repository), and the include
resolves where that copy is installed. A token that holds a backtick is code Claude Code read through a list item's code span
(``- keys use `@default(uuid()) @db.Uuid`.``): nothing was meant to load, so it is not reported.

## Why is this bad?
Claude Code ignores a missing include without a word: the instructions the author meant to share
never reach the model, and nobody notices until the agent ignores them.

## Example
```md CLAUDE.md
# Project
Coding standards: @docs/standards.md
```

Use instead:
```md CLAUDE.md
# Project
Coding standards: @docs/standards.md
```
```md docs/standards.md
Use four spaces.
```

## Fix safety
When the path was written relative to the project root and the file exists there, the fix
rewrites the include relative to the including file's folder (`@.claude/conventions.md` in
`.claude/CLAUDE.md` becomes `@conventions.md`). It is safe: the file it names is the one the
message names, which the author plainly meant, and the fix is offered only when every session
that loads the including file then loads that file (it lies inside each start folder, is a text
file Claude Code reads, and is not loaded there already). Other missing includes have no fix.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterator
from pathlib import Path

from memlint.model.cli_js.jstext import node_extname
from memlint.model.loading.loader import TEXT_EXTENSIONS
from memlint.model.run.include_problems import IncludeProblem, at_offset, include_problems, looks_like_a_file
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.markdown import accepted_include
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.includes._suspects import code_text
from memlint.violations import Applicability, Edit, Finding, Fix

META = RuleMeta(
    code="ML101",
    slug="include-target-missing",
    severity="error",
    summary="An @include names a file that does not exist",
    fix="safe",
)


_SHOWN = 4


def check(ctx: RuleContext) -> Iterator[Finding]:
    by_file: dict[str, list[IncludeProblem]] = {}
    for item in include_problems(ctx):
        if item.problem != "missing" or not looks_like_a_file(item.origin.ref.path) \
                or code_text(item.origin.ref.written) or _in_home_copy(ctx, item):
            continue
        by_file.setdefault(str(item.origin.path), []).append(item)
    for items in by_file.values():
        first = items[0]
        ref = first.origin.ref
        meant = [_meant(ctx, item) for item in items]
        fixes = [_fix(ctx, item, *found) if found is not None else None for item, found in zip(items, meant)]
        fix = _combined(fixes)
        if len(items) == 1:
            hint = "" if meant[0] is None else (
                f"; includes resolve from the including file's folder, so for `{show(ctx, meant[0][0])}` "
                f"write `@{meant[0][1]}`")
            yield Finding(first.origin.path, first.origin.line,
                          f"Claude Code loads nothing for `@{ref.written}`: `{show(ctx, first.target)}` does not exist"
                          + hint, column=ref.column, fix=fix)
            continue
        # one cause, one finding: the file's missing includes together, the first few named
        listed = []
        for item, found in list(zip(items, meant))[:_SHOWN]:
            note = f" (write `@{found[1]}`)" if found else ""
            listed.append(f"line {item.origin.line} `@{item.origin.ref.written}`{note}")
        more = f", \u2026 ({len(items):,} in all)" if len(items) > _SHOWN else ""
        why = ("; includes resolve from the including file's folder, not from the project root"
               if any(meant) else "")
        yield Finding(first.origin.path, first.origin.line,
                      f"Claude Code loads nothing for {len(items):,} includes whose files do not exist: "
                      f"{', '.join(listed)}{more}{why}", column=ref.column, fix=fix)


def _combined(fixes: list[Fix | None]) -> Fix | None:
    """One fix for a file's missing includes: every rewrite that is safe (an include with no file
    to point at stays, and stays reported)."""
    made = [f for f in fixes if f is not None]
    if len(made) <= 1:
        return made[0] if made else None
    edits = tuple(edit for f in made for edit in f.edits)
    return Fix(f"{made[0].title.split(':', 1)[0]}: rewrite {len(made)} includes to the paths that load the files "
               "meant", Applicability.SAFE, edits)


def _in_home_copy(ctx: RuleContext, item: IncludeProblem) -> bool:
    """`@~/.claude/rules/a.md` in a repository that holds `rules/a.md` at its root: the repository is
    the `~/.claude` folder (installed by a symlink or a dotfiles tool), and there the file exists."""
    written = item.origin.ref.path
    if not written.startswith("~/.claude/"):
        return False
    rest = written[len("~/.claude/"):]
    includer = os.path.realpath(item.origin.path)
    for root in ctx.roots:
        real_root = os.path.realpath(root)
        if includer.startswith(real_root.rstrip("/") + "/"):
            found = ctx.document(Path(real_root) / rest).problem
            if found is None or found.reason not in ("not-found", "not-a-file"):
                return True
    return False


def _meant(ctx: RuleContext, item: IncludeProblem) -> tuple[str, str] | None:
    """(the file, the path to write) when the path was written relative to the project root instead."""
    written = item.origin.ref.path
    if written.startswith(("/", "~/")):
        return None
    includer = os.path.realpath(item.origin.path)
    for root in ctx.roots:
        real_root = os.path.realpath(root)
        if not includer.startswith(real_root.rstrip("/") + "/"):
            continue  # another project of the run: its files say nothing about this one
        candidate = posixpath.normpath(posixpath.join(real_root, written))
        if os.path.isfile(candidate) and candidate != str(item.target) and _text_file(candidate):
            relative = posixpath.relpath(candidate, posixpath.dirname(includer))
            return candidate, relative if accepted_include(relative) else "./" + relative  # `日本.md`: `./日本.md`
    return None


def _text_file(path: str) -> bool:
    """Claude Code reads a file of this extension (ML102 reports the others)."""
    extension = node_extname(path).lower()
    return not extension or extension in TEXT_EXTENSIONS


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _fix(ctx: RuleContext, item: IncludeProblem, candidate: str, path: str) -> Fix | None:
    """Write `path` (relative to the including file) when it loads that very file in every session
    that loads the including file and changes nothing else (see ## Fix safety)."""
    ref = item.origin.ref
    if (not ref.written.startswith(ref.path) or any(c.isspace() or c == "\\" for c in path)
            or not accepted_include(path) or ctx.document(item.origin.path).problem is not None):
        return None
    if ctx.workspace.unloadable(candidate) is not None:
        return None
    real = ctx.workspace.resolved(candidate)
    includer = item.origin.path
    meant = {Path(candidate), Path(real)}
    for loaded in ctx.loads.values():
        paths = {f.path for f in loaded.files}
        if includer not in paths and all(d.path != includer for d in loaded.deferred):
            continue
        start = str(loaded.start)
        if not (_inside(candidate, start) and _inside(real, start)):
            return None
        # loaded already: only through this very file (an earlier include of the same path, fixed
        # in an earlier pass), else the include would be a duplicate or close a cycle
        if any(f.path in meant and f.parent != includer for f in loaded.files):
            return None
    offset = at_offset(ctx, item.origin)
    if offset is None:
        return None
    begin = offset + 1
    return Fix(f"Write `@{path}`", Applicability.SAFE, (Edit(includer, begin, begin + len(ref.path), path),))
