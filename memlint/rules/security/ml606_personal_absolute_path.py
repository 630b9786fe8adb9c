"""A memory file points Claude at an absolute path in one person's home folder (`/Users/alice/...`).

## What it does
Reports, once per file Claude Code loads or may load, absolute paths into a user's home folder,
`/Users/<name>/...`, `/home/<name>/...` and `C:\\Users\\<name>\\...`, that do not exist on the
machine memlint runs on. Placeholder names (`<name>`, `you`, `username`, `$USER`, `me`, `xxx`,
`example`, `alice`...) and paths that exist here (in your own home folder: memlint looks up no
other user's folder, which could trigger an automount) are left alone. Personal files
are left alone too: CLAUDE.local.md, `.claude/agent-memory-local/`, auto memory (a MEMORY.md and
its topic files are Claude's notes for one person's machine, also when a repository keeps a copy
of them, as dotfiles or an exported `~/.claude` do), a user-scope subagent memory outside a
`.claude` folder, and files outside the checked folders (your `~/.claude` memory) are where such
paths belong (ML605 reports a personal file that git shares). A project's subagent memory in
`.claude/agent-memory/` is shared and is checked. `C:/Users/<name>/...` counts once, not again as
`/Users/<name>/...`. A file whose whole text is one path is a symbolic link checked out as text,
reported once by ML525. It is a warning: the path may be right on one machine.

## Why is this bad?
Claude is told to read, run or write files that exist on one person's machine only. Everyone
else's sessions fail on them or, worse, Claude guesses a replacement. The path also leaks a user
name and the layout of someone's disk into a shared file.

## Example
```md CLAUDE.md
Read the API notes in /Users/mkowalski/work/notes/api.md before changing the client.
```

Use instead:
```md CLAUDE.md
Read the API notes in docs/api.md before changing the client.
```

Use a path relative to the project (or `~/` for something every user has), move the file into
the repository, or move the line into your CLAUDE.local.md or `~/.claude/CLAUDE.md`.
"""

from __future__ import annotations

import heapq
import itertools
import os
import re
from collections.abc import Iterator
from pathlib import Path

from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._linktext import link_text
from memlint.rules._paths import show
from memlint.rules.security._exposure import ExposedFile, exposed_files, line_col, where
from memlint.rules.security._suppress import unsuppressed
from memlint.rules.security._text import MAX_PER_FILE, and_more, capped, how_many
from memlint.violations import Finding

META = RuleMeta(
    code="ML606",
    slug="personal-absolute-path",
    severity="warning",
    summary="A memory file names an absolute path in one person's home folder",
)

_POSIX = re.compile(r"(/(?:Users|home)/([A-Za-z0-9._-]+)/[^\s`'\")\]>,;*|]+)")  # literal first: fast
_WINDOWS = re.compile(r"(?<![\w\\])([A-Za-z]:[\\/]+Users[\\/]+([^\\/\s`'\"<>|:*?]+)[\\/][^\s`'\")\]>,;*|]+)",
                      re.IGNORECASE)
_POSIX_HINT = re.compile("/(?:Users|home)/")
_WINDOWS_HINT = re.compile(r":[\\/]+users[\\/]", re.IGNORECASE)
_PLACEHOLDER = re.compile(
    r"^(?:you|your.*|user\d*|test\d*|myself|him|her|them|username|user_?name|users?|me|name|myname|my-?user|xxx+|example|somebody|someone|"
    r"dev|developer|runner|ubuntu|vscode|node|root|app|\.\.\.|…|foo|bar|john|jane|jdoe|johndoe|alice|bob|"
    r"admin|default|public|shared|all users|node_modules|dist|build|src|lib|bin|share|projects|workspace|data|www|"
    r"git|docker|apps?)$|[<>{}$%*]",
    re.IGNORECASE,
)
_SHOWN = 5


def paths(text: str) -> Iterator[tuple[int, str, str]]:
    """(offset, path, user name) of every home-folder path with a real-looking user name, in order."""
    patterns = []
    if _POSIX_HINT.search(text) is not None:  # the pattern's own literal text, found by a fast search for `/`
        patterns.append(_POSIX)
    if _WINDOWS_HINT.search(text) is not None:
        patterns.append(_WINDOWS)
    if len(patterns) == 1:
        return _paths(text, patterns[0])  # most files with a path: nothing to merge
    return heapq.merge(*(_paths(text, pattern) for pattern in patterns))


def _paths(text: str, pattern: re.Pattern[str]) -> Iterator[tuple[int, str, str]]:
    for match in pattern.finditer(text):
        before = text[match.start() - 1 : match.start()]
        if pattern is _POSIX and before and (before.isalnum() or before in "_./~$-:\\"):
            continue  # part of a longer path, a URL (`https://x.dev/home/...`) or `C:/Users/...`
        user = match.group(2)
        if not _PLACEHOLDER.search(user):
            yield match.start(1), match.group(1).rstrip(".:"), user


def _shared(ctx: RuleContext, path: Path, memory: bool = False) -> bool:
    """A file of the checked project that is not personal by design (`memory`: a MEMORY.md or a
    topic file; only a project's subagent memory, `.claude/agent-memory/`, is shared among those)."""
    if path.name == "CLAUDE.local.md" or "agent-memory-local" in path.parts:
        return False
    parts = path.parts
    if memory and not any(a == ".claude" and b == "agent-memory" for a, b in itertools.pairwise(parts)):
        return False
    return any(root == path or root in path.parents for root in ctx.roots)


def _exists_here(path: str) -> bool:
    """Whether the path exists on this machine. Only paths in the running user's own home are looked
    up: a lookup in another user's `/home/<name>` can trigger an automount (and stall on a network
    file system), and such a folder is not the reader's anyway."""
    home = os.path.expanduser("~").rstrip("/")
    if "\\" in path or ":" in path[:2] or not home or not path.startswith(home + "/"):
        return False
    return os.path.lexists(path)


FILES = exposed_files


def check_file(ctx: RuleContext, entry: ExposedFile) -> Iterator[Finding]:
    item, doc = entry.item, entry.document()
    if doc is None:
        return
    named = list(paths(doc.text))
    if not named or not _shared(ctx, item.path, item.memory_index or item.topic) or link_text(doc) is not None:
        return  # (a file that is only a path is a symbolic link checked out as text: ML525's one finding)
    missing: dict[str, bool] = {}
    for _, path, _ in named:
        if path not in missing and len(missing) <= MAX_PER_FILE:
            missing[path] = not _exists_here(path)
    found, over = capped((offset, path) for offset, path, _ in named if missing.get(path, True))
    found, dropped = unsuppressed(ctx, item.path, doc, META, found, lambda f: f[0])
    yield from dropped  # the engine drops these: the comment covers that occurrence only
    if not found:
        return
    once: dict[tuple[int, str], tuple[int, str]] = {}
    for offset, path in found:  # the same path twice on a line counts once
        once.setdefault((line_col(doc.text, offset)[0], path), (offset, path))
    found = list(once.values())
    listed = [f"`{path[:80]}` (line {line})" for (line, path) in list(once)[:_SHOWN]]
    more = and_more(len(found), _SHOWN, over)
    line, column = line_col(doc.text, found[0][0])
    yield Finding(
        item.path,
        line,
        f"`{show(ctx, item.path)}` ({where(ctx, item)}) names {how_many(found, over)} path"
        f"{'s' if len(found) > 1 else ''} in one person's home folder that do not exist here: "
        f"{', '.join(listed)}{more}; Claude is told to use files nobody else has: "
        "use a project-relative path or move the line to CLAUDE.local.md",
        column=column,
    )
