"""An `@include` names a file that does not exist, so Claude Code silently loads nothing.

## What it does
Reports every `@path` that Claude Code accepts as an include but whose target does not exist
(resolved against the folder of the including file, `~/` against HOME), when the path plainly
names a file: it has a file extension or starts with `./`, `../`, `~/` or `/` (an npm package such
as `@scope/name` or a handle such as `@octocat` is not reported). When the file exists relative to
the project root instead, the message says how to write the path. The missing includes of one
file are one finding, on the first, naming the first few with their lines and the count. Targets that exist under
another letter case (ML109) or without a trailing punctuation mark (ML102) are reported there.
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
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterator
from pathlib import Path

from memlint.engine import RuleContext
from memlint.model.include_problems import IncludeProblem, include_problems, looks_like_a_file
from memlint.rules import RuleMeta
from memlint.rules._paths import show
from memlint.rules.includes._suspects import code_text
from memlint.violations import Finding

META = RuleMeta(
    code="ML101",
    slug="include-target-missing",
    severity="error",
    summary="An @include names a file that does not exist",
)


_SHOWN = 5


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
        if len(items) == 1:
            yield Finding(first.origin.path, first.origin.line,
                          f"Claude Code loads nothing for `@{ref.written}`: `{show(ctx, first.target)}` does not exist"
                          + _hint(ctx, first), column=ref.column)
            continue
        # one cause, one finding: the file's missing includes together, the first few named
        better = [_better(ctx, item) for item in items]
        listed = []
        for item, found in list(zip(items, better))[:_SHOWN]:
            note = f" (write `@{found[1]}`)" if found else ""
            listed.append(f"line {item.origin.line} `@{item.origin.ref.written}`{note}")
        more = f", … ({len(items):,} in all)" if len(items) > _SHOWN else ""
        why = ("; includes resolve from the including file's folder, not from the project root"
               if any(better) else "")
        yield Finding(first.origin.path, first.origin.line,
                      f"Claude Code loads nothing for {len(items):,} includes whose files do not exist: "
                      f"{', '.join(listed)}{more}{why}", column=ref.column)




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


def _hint(ctx: RuleContext, item: IncludeProblem) -> str:
    """Where the file is when the path was written relative to the project root instead."""
    found = _better(ctx, item)
    if found is None:
        return ""
    return f"; includes resolve from the including file's folder, so for `{found[0]}` write `@{found[1]}`"


def _better(ctx: RuleContext, item: IncludeProblem) -> tuple[str, str] | None:
    """(the file as shown, the include that loads it) when the path names a file from the project root."""
    written = item.origin.ref.path
    if written.startswith(("/", "~/")):
        return None
    includer = os.path.realpath(item.origin.path)
    for root in ctx.roots:
        real_root = os.path.realpath(root)
        if not includer.startswith(real_root.rstrip("/") + "/"):
            continue  # another project of the run: its files say nothing about this one
        candidate = posixpath.normpath(posixpath.join(real_root, written))
        if os.path.isfile(candidate) and candidate != str(item.target):
            relative = posixpath.relpath(candidate, posixpath.dirname(os.path.realpath(item.origin.path)))
            return show(ctx, candidate), relative
    return None
