"""Whether a file Claude Code loads points Claude at a folder: a path in its text (a link, a code
span or a bare path) that names the folder or a file in it. ML325 asks it of a memory folder that
nothing loads: a loaded CLAUDE.md saying "read `.claude/memory/MEMORY.md` when ..." makes it a
memory kept by hand on purpose.

A path resolves from the project root (each checked root) or from the folder of the file that
writes it. A repository that is itself a copy of a `.claude` folder (or of `~/.claude`) has its
files at its root, while its text names them as they are in the project (`.claude/memory/x.md`,
`~/.claude/memory/x.md`): such a prefix is also tried without it, from the root."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from memlint.lazy_regex import compile_lazily
from memlint.model.run.rule_context import RuleContext

# A run of path characters holding at least one `/` (a bare word is no path); the characters of
# every script count (`\w`), as memory is written in every language.
_PATH = compile_lazily(r"(?<![\w@:/.~-])(?:~/|\./)?(?:[\w.*-]+/)+[\w.*-]*")
_GLOB = compile_lazily(r"[*?\[{]")
_CONFIG_PREFIXES = ("~/.claude/", ".claude/")


def pointer(ctx: RuleContext, folder: Path) -> tuple[Path, str] | None:
    """The first file Claude Code loads at start that names `folder` or a file in it by a path,
    with the path as written; None when no loaded file does."""
    target = os.path.normpath(str(folder))
    for file, path in ctx.once(("loaded-paths",), lambda: _loaded_paths(ctx)):
        for candidate in _candidates(ctx, os.path.dirname(str(file)), path):
            if candidate == target or candidate.startswith(target + os.sep):
                return file, path
    return None


def _loaded_paths(ctx: RuleContext) -> list[tuple[Path, str]]:
    """(the writing file, the path as written) for every path in a loaded file's text (as Claude
    sees it: HTML comments are gone), each pair once."""
    seen: dict[tuple[Path, str], None] = {}
    done: set[Path] = set()
    for loaded in ctx.loads.values():
        for file in loaded.files:
            if file.path in done:
                continue
            done.add(file.path)
            if not file.document.contains("/"):
                continue  # no path in it (answered without reading a text let go again)
            for written in _paths(file.content):
                seen.setdefault((file.path, written), None)
    return list(seen)


def _paths(text: str) -> Iterable[str]:
    for written in _path_matches(text):
        glob = _GLOB.search(written)
        if glob is not None:  # `memory/topics/*.md`: the folder before the pattern
            written = written[: glob.start()].rsplit("/", 1)[0] + "/" if "/" in written[: glob.start()] else ""
        written = written.rstrip(".")  # a full stop ending the sentence
        if written and "://" not in written:
            yield written


def _path_matches(text: str) -> Iterator[str]:
    """_PATH's matches, searched only on lines holding a `/`: a path never spans a line, and the
    regex tried at every character of a 4 MB file was most of ML325's time."""
    find, rfind, end = text.find, text.rfind, len(text)
    slash = find("/")
    while slash >= 0:
        line_end = find("\n", slash)
        line_end = end if line_end < 0 else line_end
        for match in _PATH.finditer(text, rfind("\n", 0, slash) + 1, line_end):
            yield match.group(0)
        slash = find("/", line_end)


def _candidates(ctx: RuleContext, base: str, written: str) -> Iterable[str]:
    roots = [str(root) for root in ctx.roots]
    if written.startswith("~/"):
        rest = [written[len(prefix):] for prefix in _CONFIG_PREFIXES if written.startswith(prefix)]
        for root in roots:
            for tail in rest:
                yield os.path.normpath(os.path.join(root, tail))
        return
    for root in (*roots, base):
        yield os.path.normpath(os.path.join(root, written))
    if written.startswith(".claude/"):
        for root in roots:
            yield os.path.normpath(os.path.join(root, written[len(".claude/"):]))
