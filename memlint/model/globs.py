"""The two glob dialects of Claude Code's loader.

- `claudeMdExcludes` use picomatch (`dot: true`) against the absolute path with `/` separators
  (`memlint.model.picoglob`, as picomatch 4.0.7, which matches the library bundled in Claude Code);
- rules' `paths:` use gitignore semantics (the matcher bundled in Claude Code, ported in
  `memlint.model.gitignore`), against the path relative to the folder that holds `.claude/`.
"""

from __future__ import annotations

import bisect

from memlint.model.gitignore import ignores, ignores_any
from memlint.model.picoglob import compile_glob


def picomatch(path: str, patterns: tuple[str, ...]) -> bool:
    """Whether `path` (absolute, `/` separators) matches any pattern, as picomatch with dot files."""
    return any(compile_glob(p)(path) for p in patterns if p)


def rule_matches(patterns: tuple[str, ...], relative_path: str) -> bool:
    """Whether Claude Code loads a conditional rule when a file at `relative_path` is read."""
    return ignores(patterns, relative_path)


_GLOB_CHARS = "*?[]{}\\"


def _required_text(pattern: str) -> str | None:
    """Text that every path a (non-negated) pattern matches must contain, lower-cased: what follows
    its last glob character (`src/**/*.ts` -> `.ts`). A path matched through one of its folders
    contains that folder's text too. None when nothing is required (`src/**`, `*`)."""
    text = pattern.rstrip()
    if "\\" in text:
        return None  # escapes are read in ways a substring cannot follow (`a\\b.md` matches `a.md`)
    cut = max(text.rfind(ch) for ch in _GLOB_CHARS)
    tail = text[cut + 1 :].lstrip("/").lower()
    if not tail or "./" in tail:
        return None
    return tail


class PathIndex:
    """A project's relative paths, lower-cased and joined once, to find the paths that contain a
    text with `str.find` over one string instead of a test per path."""

    def __init__(self, paths: tuple[str, ...]) -> None:
        self.paths = paths
        self.lowered = [p.lower() for p in paths]
        self.joined = "\n".join(self.lowered)
        self.starts: list[int] = []
        offset = 0
        for low in self.lowered:
            self.starts.append(offset)
            offset += len(low) + 1
        self._found: dict[str, tuple[int, ...]] = {}  # text -> the indexes of the paths holding it

    def containing(self, texts: list[str]) -> tuple[str, ...]:
        """The paths (in order) whose lower-cased form contains one of `texts` (lower-case). Each
        text is searched once per index: the many rules of a folder often require the same one."""
        hits: set[int] = set()
        for text in texts:
            if "\n" in text:
                return tuple(p for p, low in zip(self.paths, self.lowered) if any(t in low for t in texts))
            found = self._found.get(text)
            if found is None:
                found = self._found[text] = self._search(text)
            hits.update(found)
        return tuple(self.paths[i] for i in sorted(hits))

    def _search(self, text: str) -> tuple[int, ...]:
        hits: dict[int, None] = {}
        at = self.joined.find(text)
        while at != -1:
            index = bisect.bisect_right(self.starts, at) - 1
            if text in self.lowered[index]:  # not a match across two joined paths
                hits[index] = None
            at = self.joined.find(text, at + 1)
        return tuple(hits)


def any_matches(patterns: tuple[str, ...], relative_paths: tuple[str, ...], index: PathIndex | None = None) -> bool:
    """Whether a conditional rule matches any of `relative_paths` (each folder tested once). Only the
    paths that hold some positive pattern's required text are handed to the matcher (negations only
    take matches away), so a rule is tested against the few files it could match. `index`, when
    given, is `PathIndex(relative_paths)`, shared by the rules of one folder."""
    required = [_required_text(p) for p in patterns if p and not p.startswith(("!", "#"))]
    if required and all(r is not None for r in required):
        texts = [r for r in required if r is not None]
        relative_paths = (index or PathIndex(relative_paths)).containing(texts)
    return ignores_any(patterns, relative_paths)
