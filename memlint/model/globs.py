"""The two glob dialects of Claude Code's loader.

- `claudeMdExcludes` use picomatch (`dot: true`) against the absolute path with `/` separators;
- rules' `paths:` use gitignore semantics (the matcher bundled in Claude Code, ported in
  `memlint.model.gitignore`), against the path relative to the folder that holds `.claude/`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memlint.model.gitignore import ignores


def _expand_all_braces(pattern: str) -> list[str]:
    """Every `{a,b}` group expanded (picomatch's brace expansion), innermost-safe."""
    depth = 0
    start = -1
    for index, ch in enumerate(pattern):
        if ch == "\\":
            continue
        if ch == "{":
            if depth == 0:
                start = index
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                inner = pattern[start + 1 : index]
                options = _split_top(inner)
                if len(options) < 2:
                    continue
                head, tail = pattern[:start], pattern[index + 1 :]
                return [e for opt in options for e in _expand_all_braces(head + opt + tail)]
    return [pattern]


def _split_top(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return parts


def _translate(pattern: str) -> str:
    out = []
    segments = pattern.split("/")
    for number, segment in enumerate(segments):
        last = number == len(segments) - 1
        if segment == "**":
            if last:
                out.append("(?:/.*)?" if number else ".*")
            else:
                out.append("(?:.*/)?" if number == 0 else "(?:/.*)?/")
            continue
        piece = []
        i = 0
        while i < len(segment):
            ch = segment[i]
            if ch == "*":
                while i + 1 < len(segment) and segment[i + 1] == "*":
                    i += 1
                piece.append("[^/]*")
            elif ch == "?":
                piece.append("[^/]")
            elif ch == "[":
                close = segment.find("]", i + 1)
                if close == -1:
                    piece.append(re.escape(ch))
                else:
                    body = segment[i + 1 : close]
                    if body.startswith("!"):
                        body = "^" + body[1:]
                    piece.append("[" + body.replace("\\", "\\\\") + "]")
                    i = close
            elif ch == "\\" and i + 1 < len(segment):
                i += 1
                piece.append(re.escape(segment[i]))
            else:
                piece.append(re.escape(ch))
            i += 1
        previous_globstar = number > 0 and segments[number - 1] == "**"
        separator = "" if number == 0 or previous_globstar else "/"
        out.append(separator + "".join(piece))
    return "".join(out)


@lru_cache(maxsize=256)
def _picomatch_regex(pattern: str) -> re.Pattern[str]:
    alternatives = [_translate(p) for p in _expand_all_braces(pattern)]
    return re.compile("(?:" + "|".join(alternatives) + r")\Z", re.DOTALL)


def picomatch(path: str, patterns: tuple[str, ...]) -> bool:
    """Whether `path` (absolute, `/` separators) matches any pattern, as picomatch with dot files."""
    return any(_picomatch_regex(p).match(path) for p in patterns if p)


def rule_matches(patterns: tuple[str, ...], relative_path: str) -> bool:
    """Whether Claude Code loads a conditional rule when a file at `relative_path` is read."""
    return ignores(patterns, relative_path)


def any_matches(patterns: tuple[str, ...], relative_paths: tuple[str, ...]) -> bool:
    """Whether a conditional rule matches any of `relative_paths`."""
    return any(ignores(patterns, p) for p in relative_paths)
