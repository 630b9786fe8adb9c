"""The two glob dialects of Claude Code's loader.

- `claudeMdExcludes` use picomatch (`dot: true`) against the absolute path with `/` separators
  (`memlint.model.cli_js.picoglob`, as picomatch 4.0.7, which matches the library bundled in Claude Code);
- rules' `paths:` use gitignore semantics (the matcher bundled in Claude Code, ported in
  `memlint.model.cli_js.gitignore`), against the path relative to the folder that holds `.claude/`.
"""

from __future__ import annotations

import bisect
from array import array

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.gitignore import ignores, ignores_any
from memlint.model.cli_js.picoglob import compile_glob


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
        # a path already in lower case (most) is its own lowered form: no copy of it; the offsets
        # and the sorted order are arrays (8 bytes each, no int object per path)
        self.lowered = [p if low == p else low for p, low in zip(paths, map(str.lower, paths))]
        self.joined = "\n".join(self.lowered)
        self.starts = array("q")
        offset = 0
        for low in self.lowered:
            self.starts.append(offset)
            offset += len(low) + 1
        self._found: dict[str, tuple[int, ...]] = {}  # text -> the indexes of the paths holding it
        self._sorted: list[str] | None = None  # the lowered paths, sorted (for `starting`)
        self._order = array("q")  # the index of each of them
        self._always: list[int] | None = None  # the paths not ASCII or holding `//` (`_odd`)

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

    def within(self, required: list[tuple[str | None, str | None]]) -> tuple[str, ...]:
        """The paths (in order) that may match one of some ASCII patterns, each given by its required
        text (lower-case, no line break; `_required_text`) and its prefix (`_anchored_prefix`), one
        of them at least: the paths that hold the text and start with the prefix. A path that is not
        ASCII or holds `//` (the matcher folds case beyond ASCII and collapses slashes) is kept
        whenever it holds the text, so these paths are the ones `containing` gives for the texts,
        less some that no pattern matches (and, of a pattern with a prefix but no text, such a path
        is always kept)."""
        hits: set[int] = set()
        for text, prefix in required:
            if prefix is not None:
                hits.update(i for i in self._starting(prefix) if text is None or text in self.lowered[i])
            elif text is not None:
                found = self._found.get(text)
                if found is None:
                    found = self._found[text] = self._search(text)
                hits.update(found)
        return tuple(self.paths[i] for i in sorted(hits))

    def _odd(self) -> list[int]:
        """The paths that are not ASCII or hold `//`."""
        if self._always is None:
            self._always = [i for i, p in enumerate(self.paths) if not p.isascii() or "//" in p]
        return self._always

    def _starting(self, prefix: str) -> list[int]:
        """The paths whose lower-cased form starts with `prefix` (ASCII), found in the sorted paths,
        and every path that is not ASCII or holds `//` (`_odd`)."""
        if self._sorted is None:
            self._order = array("q", sorted(range(len(self.paths)), key=self.lowered.__getitem__))
            self._sorted = [self.lowered[i] for i in self._order]
        out = list(self._odd())
        at = bisect.bisect_left(self._sorted, prefix)
        while at < len(self._sorted) and self._sorted[at].startswith(prefix):
            out.append(self._order[at])
            at += 1
        return out

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
    take matches away), so a rule is tested against the few files it could match; of an anchored
    pattern (`packages/app/**/*.ts`), only the paths that start with its literal folders. `index`,
    when given, is `PathIndex(relative_paths)`, shared by the rules of one folder."""
    positive = [p for p in patterns if p and not p.startswith(("!", "#"))]
    required = [_required_text(p) for p in positive]
    plain = all(p.isascii() for p in positive) and not any(r is not None and "\n" in r for r in required)
    prefixes = [_anchored_prefix(p) for p in positive] if plain else []
    if required and all(r is not None for r in required):
        index = index or PathIndex(relative_paths)
        if plain:
            relative_paths = index.within(list(zip(required, prefixes)))
        else:
            relative_paths = index.containing([r for r in required if r is not None])
    elif required and plain and all(r is not None or f is not None for r, f in zip(required, prefixes)):
        # some pattern requires no text, but each is anchored or requires one (`packages/app/**`)
        relative_paths = (index or PathIndex(relative_paths)).within(list(zip(required, prefixes)))
    return ignores_any(patterns, relative_paths)


_LEAD = compile_lazily(r"/?(\*\*/)?")  # as gitignore._source reads a glob's start


def _anchored_prefix(pattern: str) -> str | None:
    """The text (lower-case) that every path an ASCII, non-negated pattern matches starts with,
    when the pattern is anchored to the rule's folder: the literal text before its first glob
    character (`packages/app/**/*.ts` -> `packages/app/`), or all of it. None when the pattern
    matches in any folder (no slash but a trailing one, or a leading `**/`), has nothing literal
    before its first glob character, or holds what a literal cannot follow (a backslash, a line
    break)."""
    if "\\" in pattern or "\n" in pattern or "\r" in pattern:
        return None
    lead = _LEAD.match(pattern)
    assert lead is not None
    if lead.group(1) or not (lead.group(0) or "/" in pattern[:-1]):
        return None  # the matcher's `^(?:.*\/)?` or `(?:^|\/)`: any folder
    body = pattern[lead.end():]
    cut = min((at for at in map(body.find, "*?[") if at >= 0), default=-1)
    if cut < 0:  # all literal (`packages/app`, as `paths:` gives `packages/app/**`), less the white space the matcher cuts
        return body.rstrip(" \t\x0b\x0c").lower() or None
    return body[:cut].lower() or None
