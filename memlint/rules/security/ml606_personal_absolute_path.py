"""A memory file points Claude at an absolute path in one person's home folder (`/Users/alice/...`).

## What it does
Reports, once per file Claude Code loads or may load, absolute paths into a user's home folder,
`/Users/<name>/...`, `/home/<name>/...` and `C:\\Users\\<name>\\...`, that do not exist on the
machine memlint runs on. `C:/Users/<name>/...` counts once, not again as `/Users/<name>/...`.
It is a warning: the path may be right on one machine. memlint reads no words: the user names
and files left alone are told by their shape and place.

User names left alone:
- stand-ins by their shape: `<name>`, `{user}`, `$USER`, `%USERNAME%`, `...`, one character
  repeated (`xxx`), capitals (`USERNAME`, `YOUR_NAME`); a name that is a word for "you" or "user"
  in some language (`/Users/you/...`) is reported unless the `placeholder-names` option lists it;
- accounts that software makes: `root`, `runner`, `ubuntu`, `vscode`, `node`, `ec2-user`,
  Windows' `Public` and `Default`;
- a server's service account, whose name the file also gives to a system folder (`/etc/NAME`,
  `/var/lib/NAME`, `/opt/NAME`, `/srv/NAME`) or uses to log in to a host (`NAME@203.0.113.7`):
  its home is a deploy path everyone who works on that server shares.

Paths that exist here are left alone (in your own home folder: memlint looks up no other user's
folder, which could trigger an automount). So are files where such paths belong: CLAUDE.local.md,
`.claude/agent-memory-local/`, auto memory (a MEMORY.md and its topic files are Claude's notes for
one person's machine, also when a repository keeps a copy of them), a folder laid out as a
`~/.claude` (a CLAUDE.md with a `rules/` folder beside it that it does not include, or two of
`settings.json`, `agents/`, `commands/`, `skills/`, `hooks/`, `projects/`: a dotfiles or config
repository's copy of one person's user memory, loaded on that person's machine only), a
user-scope subagent memory outside a `.claude` folder, and files outside the checked folders
(your `~/.claude` memory). ML605 reports a personal file that git shares. A project's subagent
memory in `.claude/agent-memory/` is shared and is checked. A file whose whole text is one path
is a symbolic link checked out as text, reported once by ML525.

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

## Options
- `placeholder-names` (default `[]`): user names your memory files use as stand-ins for any
  user, compared without case (`["you", "username", "ich"]`): paths with them are left alone.
"""

from __future__ import annotations

import heapq
import itertools
import os
import re
from collections.abc import Iterator
from pathlib import Path

from memlint.lazy_regex import compile_lazily
from memlint.model.run.rule_context import RuleContext
from memlint.rules import RuleMeta
from memlint.rules._homecopy import in_home_copy
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
    options={"placeholder-names": []},
)

_POSIX = compile_lazily(r"(/(?:Users|home)/([A-Za-z0-9._-]+)/[^\s`'\")\]>,;*|]+)")  # literal first: fast
_WINDOWS = compile_lazily(r"(?<![\w\\])([A-Za-z]:[\\/]+Users[\\/]+([^\\/\s`'\"<>|:*?]+)[\\/][^\s`'\")\]>,;*|]+)",
                      re.IGNORECASE)
_POSIX_HINT = compile_lazily("/(?:Users|home)/")
_WINDOWS_HINT = compile_lazily(r":[\\/]+users[\\/]", re.IGNORECASE)
# A user name that stands for any user, by its shape: a fill-in (`<name>`, `{user}`, `$USER`,
# `%USERNAME%`, `*`), an ellipsis, one character repeated (`xxx`, `___`), or capitals (`USERNAME`,
# `YOUR_NAME`: real account names are rarely written so). No words: memory is written in every language.
_STAND_IN = compile_lazily(r"[<>{}$%*]|\.\.\.|…|^(.)\1+$|^[A-Z][A-Z_-]+$")
# Accounts and folders that software makes, named the same in every language: CI runners, cloud and
# container images (`runner`, `ubuntu`, `vscode`, `node`, `ec2-user`, ...), Windows' own profile
# folders (`Public`, `Default`, `All Users`), and folders below a `home` that is not `/home`
# (`/app/home/...` is cut off before this; `/home/node_modules` is not a person).
_SYSTEM = frozenset({
    "root", "runner", "ubuntu", "vscode", "node", "app", "apps", "admin", "administrator", "user", "ec2-user", "pi",
    "codespace", "gitpod", "coder", "jovyan", "debian", "centos", "fedora", "alpine", "circleci", "travis", "jenkins",
    "builder", "build", "public", "default", "default user", "all users", "node_modules", "dist", "src", "lib",
    "bin", "share", "www", "git", "docker", "workspace", "workspaces",
})
_SERVICE = r"(?:/etc|/var(?:/lib|/log|/www|/cache|/run)?|/opt|/srv|/usr/local|/usr/share)/{user}(?![\w.-])"
_LOGIN = r"(?<![\w.-]){user}@(?:\d{{1,3}}(?:\.\d{{1,3}}){{3}}|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)"
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
        if not stand_in(user):
            yield match.start(1), match.group(1).rstrip(".:"), user


def stand_in(user: str, extra: frozenset[str] = frozenset()) -> bool:
    """A user name that stands for anyone (its shape), an account that software makes, or one the
    `placeholder-names` option lists."""
    return _STAND_IN.search(user) is not None or user.lower() in _SYSTEM or user.lower() in extra


def service_accounts(text: str, users: set[str]) -> set[str]:
    """The user names of `users` that the text also uses as a server's service account: a system
    folder named after it (`/etc/NAME`, `/var/lib/NAME`, `/opt/NAME`) or a login to a host
    (`NAME@203.0.113.7`, `NAME@build.example.org`). Its home is a deploy path on that server, the
    same for everyone who works there, not one person's disk."""
    found = set()
    for user in users:
        name = re.escape(user)
        if (user in text and (re.search(_SERVICE.format(user=name), text)
                              or re.search(_LOGIN.format(user=name), text))):
            found.add(user)
    return found


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
    if named:
        extra = frozenset(str(n).lower() for n in ctx.options.get("placeholder-names", ()))
        served = service_accounts(doc.text, {user for _, _, user in named})
        named = [n for n in named if n[2] not in served and not (extra and stand_in(n[2], extra))]
    if not named or not _shared(ctx, item.path, item.memory_index or item.topic) or link_text(doc) is not None:
        return  # (a file that is only a path is a symbolic link checked out as text: ML525's one finding)
    if in_home_copy(ctx, item.path):
        return  # a copy of one person's ~/.claude: its paths are right on the one machine that loads it
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
        f"{'s' if len(found) > 1 else ''} in one person's home folder that "
        f"{'do' if len(found) > 1 or over else 'does'} not exist here: "
        f"{', '.join(listed)}{more}; Claude is told to use files nobody else has: "
        "use a project-relative path or move the line to CLAUDE.local.md",
        column=column,
    )
