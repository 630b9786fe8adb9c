"""How Claude Code matches `claudeMdExcludes`: picomatch with `{dot: true}` against the absolute path.

The glob library bundled in Claude Code 2.1.332 has no version string; npm picomatch 4.0.7 agrees with
it on every triple of tests/fidelity/picomatch_table.json, so this follows picomatch 4.0.7's regexes
(`picomatch.makeRe(glob, {dot: true})`), piece by piece:
- a leading `!` (not `!(`) negates the glob; `**` as a whole segment spans folders (not `.`/`..`);
- `*` and `?` stay inside a segment; a glob ending in a star or a class also takes a trailing `/`;
- `{a,b}` is an alternation, `{1..3}` / `{a..c}` the class of its sorted ends (`{01..3}` is `[01-3]`);
- `[...]` is a class (`[^a]` never matches `/`; `[!a]` is the class of `!` and `a`, or the literal text,
  as picomatch has it), with POSIX names (`[[:alpha:]]`); a class JavaScript rejects (`[z-a]`) never
  matches; extglobs `@(a|b)`, `!(a)`, `+(a)`, `*(a)`, `?(a)`; `(`, `)` and `|` are regex syntax.
Bounded: a glob with more than `MAX_STARS` stars, `MAX_GROUPS` braces and parentheses, or longer than
`MAX_GLOB` never matches (picomatch's
regexes backtrack; a hostile pattern must not hang memlint).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.jsregex import JSRegexError, compile_js

MAX_GLOB = 1024
MAX_STARS = 8
MAX_GROUPS = 64

_NODOT = "(?!\\.{1,2}(?:\\/|$))"
_NODOTS = "(?!(?:^|\\/)\\.{1,2}(?:\\/|$))"
_ANY = f"(?:(?:{_NODOTS}.)*?)"
_LEADING = f"(?:^|\\/|{_ANY}\\/)"
_POSIX = {
    "alnum": "a-zA-Z0-9", "alpha": "a-zA-Z", "ascii": "\\x00-\\x7F", "blank": " \\t", "cntrl": "\\x00-\\x1F\\x7F",
    "digit": "0-9", "graph": "\\x21-\\x7E", "lower": "a-z", "print": "\\x20-\\x7E ",
    "punct": "\\-!\"#$%&'()\\*+,.\\/:;<=>?@[\\]^_`{|}~", "space": " \\t\\r\\n\\v\\f", "upper": "A-Z",
    "word": "A-Za-z0-9_", "xdigit": "A-Fa-f0-9",
}
_SPECIAL = compile_lazily(r"[$()*+\-.?[\]^{|}]")
_RANGE = compile_lazily(r"(.+?)\.\.(.+?)(?:\.\.(.+))?")


def _escape(text: str) -> str:
    return re.sub(r"[$()*+\-.?[\]^{|}/\\]", lambda m: "\\" + m.group(0), text)


def _closing(glob: str, i: int, open_ch: str, close_ch: str) -> int:
    """The index of the bracket closing the one at glob[i], or -1."""
    depth = 0
    j = i
    while j < len(glob):
        ch = glob[j]
        if ch == "\\":
            j += 2
            continue
        if ch == open_ch:
            depth += 1
        elif ch == close_ch:
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return -1


def _split_top(text: str, sep: str) -> list[str]:
    parts, depth, current, i = [], 0, "", 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            current += text[i : i + 2]
            i += 2
            continue
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
        i += 1
    parts.append(current)
    return parts


def _bracket(glob: str, i: int) -> tuple[str, int] | None:
    """A `[...]` at glob[i] as JavaScript regex source, and the index after it (None: no class)."""
    j = i + 1
    if glob[j : j + 1] in ("^", "!"):
        j += 1
    if glob[j : j + 1] == "]":
        j += 1
    while j < len(glob) and glob[j] != "]":
        named_end = glob.find(":]", j + 2) if glob.startswith("[:", j) else -1
        j = named_end + 2 if named_end > 0 else j + (2 if glob[j] == "\\" else 1)
    if j >= len(glob):
        return None
    body = glob[i + 1 : j]
    posix = False

    def named(m: re.Match[str]) -> str:
        nonlocal posix
        posix = True
        return _POSIX.get(m.group(1), m.group(0))

    body = re.sub(r"\[:(\w+):\]", named, body)
    if body.startswith("]"):
        body = "\\]" + body[1:]
    elif body.startswith(("^]", "!]")) and glob[i + 2 : i + 3] == "]":
        body = body[0]  # `[!]` then `a]`: picomatch closes at the first `]`
        j = i + 2
    cls = "[" + body.replace("[", "\\[") + "]" if not posix else "[" + body + "]"
    if body.startswith("^") and not posix and "/" not in body:
        cls = cls[:-1] + "/]"
    if not _SPECIAL.search(body):
        cls = f"(?:{_escape('[' + body + ']')}|{cls})"
    return cls, j + 1


def _brace(inner: str) -> str:
    alternatives = _split_top(inner, ",")
    if len(alternatives) > 1:
        return "(" + "|".join(_body(a, False)[0] for a in alternatives) + ")"
    match = _RANGE.fullmatch(inner)
    if match is not None:
        ends = sorted(g for g in match.groups() if g is not None)
        return "[" + "-".join(ends) + "]"
    return "\\{" + _body(inner, False)[0] + "\\}"


def _body(glob: str, whole: bool) -> tuple[str, str]:
    """JavaScript regex source for a glob fragment, and the kind of its last token."""
    out: list[str] = []
    last = "text"
    i = 0
    n = len(glob)
    while i < n:
        ch = glob[i]
        seg_start = i == 0 or glob[i - 1] == "/"
        if ch == "\\":
            out.append(_escape(glob[i + 1]) if i + 1 < n else "\\\\")
            i += 2
            last = "text"
        elif ch == "*" and glob.startswith("**", i) and seg_start and (i + 2 == n or glob[i + 2] == "/") and not whole:
            out.append(_ANY)  # a globstar inside an extglob or a brace
            i += 2
            last = "globstar"
        elif ch == "*" and glob.startswith("**", i) and seg_start and (i + 2 == n or glob[i + 2] == "/") and whole:
            if i == 0 and i + 2 == n:
                out.append(_NODOTS + _ANY)
                last = "globstar"
                i += 2
            elif i == 0:
                out.append(_LEADING)
                i += 3
                while glob.startswith("**/", i):
                    i += 3
                last = "slash"
            else:
                out.pop()  # the "/" before
                after_star = last == "star-seg"
                if i + 2 == n:
                    out.append(f"\\/{_NODOT}{_ANY}" if after_star else f"(?:\\/{_NODOT}{_ANY}|$)")
                    i += 2
                    last = "globstar"
                else:
                    i += 3
                    while glob.startswith("**/", i):
                        i += 3
                    # from the root (`/**/x`) at least `//`; elsewhere `a/x`, `a/b/x`, ...
                    out.append(f"\\/{_NODOT}{_ANY}\\/" if not out else f"(?:\\/{_NODOT}{_ANY}\\/|\\/|$)")
                    last = "slash"
        elif ch in "@!+*?" and glob[i + 1 : i + 2] == "(" and _closing(glob, i + 1, "(", ")") > 0:
            end = _closing(glob, i + 1, "(", ")")
            inner = "|".join(_body(a, False)[0] for a in _split_top(glob[i + 2 : end], "|"))
            if ch == "@":
                out.append(f"({inner})")
            elif ch == "!":
                at_end = end + 1 == n and whole
                rest = _ANY if "/" in glob[i + 2 : end] else "[^/]*?"
                out.append(f"(?:(?!(?:{inner})$)){rest}" if at_end else f"(?:(?!(?:{inner}))[^/]*?)")
                if i == 0 and whole:
                    out.insert(len(out) - 1, "(?=.)")
            else:
                out.append(f"(?:{inner}){'+' if ch == '+' else '*' if ch == '*' else '?'}")
            i = end + 1
            last = "text"
        elif ch == "*":
            run = len(glob[i:]) - len(glob[i:].lstrip("*"))
            if seg_start:
                dot_guard = "(?!\\.{0,1}(?:\\/|$))" if i > 0 and glob[i - 1] == "." else _NODOT
                out.append(dot_guard + ("(?=.)" if run == 1 else "") + "[^/]*?")
                last = "star-seg"
            else:
                out.append("[^/]*?")
                last = "star"
            i += run
        elif ch == "?":
            out.append("[^/]")
            i += 1
            last = "text"
        elif ch == "[":
            got = _bracket(glob, i)
            if got is None:
                out.append("\\[")
                i += 1
                last = "text"
            else:
                out.append(got[0])
                i = got[1]
                last = "bracket"
        elif ch == "{" and _closing(glob, i, "{", "}") > 0:
            end = _closing(glob, i, "{", "}")
            out.append(_brace(glob[i + 1 : end]))
            i = end + 1
            last = "text"
        elif ch in "()|":
            out.append(ch)
            i += 1
            last = "text"
        elif ch == "/":
            out.append("\\/")
            i += 1
            last = "slash"
        else:
            out.append(_escape(ch))
            i += 1
            last = "text"
    return "".join(out), last


@lru_cache(maxsize=1024)
def compile_glob(glob: str) -> Callable[[str], bool]:
    """The matcher picomatch(glob, {dot: true}) returns (never matching for a glob it rejects)."""
    negated = False
    while glob.startswith("!") and not glob.startswith("!("):
        negated = not negated
        glob = glob[1:]
    lone_backslash = glob.endswith("\\") and not glob.endswith("\\\\")
    nesting = glob.count("(") + glob.count("{")
    if not glob or len(glob) > MAX_GLOB or glob.count("*") > MAX_STARS or nesting > MAX_GROUPS or lone_backslash:
        return lambda path: False
    body, last = _body(glob, True)
    if last in ("star", "star-seg", "bracket"):
        body += "\\/?"
    try:
        regex = compile_js(f"^(?:{body})$", False, bounded=False)
    except JSRegexError:
        return lambda path: False
    if negated:
        return lambda path: regex.search(path) is None
    return lambda path: regex.search(path) is not None
