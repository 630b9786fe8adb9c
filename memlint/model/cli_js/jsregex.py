"""JavaScript regular expressions (non-Unicode mode, as `new RegExp(source, "i")`) run with Python's `re`.

Claude Code's glob matchers build JavaScript regex source from a pattern. To get their answers exactly,
memlint builds the same source and translates it: `$` is the end of input only, `.` excludes the four
JavaScript line terminators, `\\d \\w \\s \\b` have JavaScript's meaning, an escaped ordinary character
is the character itself, `[]` never matches and `[^]` matches anything. A source JavaScript rejects
(an out-of-order range, a quantifier with nothing to repeat, an unbalanced group) raises `JSRegexError`.

Bounded: `compile_js` refuses a source with more than `MAX_STARS` unbounded repeats (JSRegexError)
instead of risking exponential backtracking; `memlint.model.cli_js.linearmatch` runs the usual glob shapes
without backtracking, so only odd hostile sources are refused (treated as not compiling).
"""

from __future__ import annotations

import re
from functools import lru_cache

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.jstext import JS_WS_CLASS

MAX_SOURCE = 4096
MAX_STARS = 4  # with more, a backtracking engine can take seconds on a failing 60-character path


class JSRegexError(ValueError):
    """The source is not a regex JavaScript accepts (or is too costly to run)."""


_WORD = "A-Za-z0-9_"
_CLASS_ESCAPES = {
    "d": ("0-9", False), "D": ("0-9", True), "w": (_WORD, False), "W": (_WORD, True),
    "s": (JS_WS_CLASS, False), "S": (JS_WS_CLASS, True),
}
_SIMPLE = {"f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "0": "\0"}
_HEX2 = compile_lazily(r"[0-9A-Fa-f]{2}")
_HEX4 = compile_lazily(r"[0-9A-Fa-f]{4}")
_QUANT = compile_lazily(r"\{\d+(?:,\d*)?\}")


def _escape_char(source: str, i: int, in_class: bool) -> tuple[str | None, str | None, int]:
    """The escape at source[i] (a backslash): (literal character or None, class text or None, next i)."""
    if i + 1 >= len(source):
        raise JSRegexError("\\ at end of pattern")
    c = source[i + 1]
    if c in _CLASS_ESCAPES:
        body, negated = _CLASS_ESCAPES[c]
        return None, ("^" if negated else "") + body, i + 2
    if c in _SIMPLE and not (c == "0" and source[i + 2 : i + 3].isdigit()):
        return _SIMPLE[c], None, i + 2
    if c == "b" and in_class:
        return "\b", None, i + 2
    if c == "x" and _HEX2.match(source, i + 2):
        return chr(int(source[i + 2 : i + 4], 16)), None, i + 4
    if c == "u" and _HEX4.match(source, i + 2):
        return chr(int(source[i + 2 : i + 6], 16)), None, i + 6
    if c == "c" and i + 2 < len(source) and source[i + 2].isascii() and source[i + 2].isalpha():
        return chr(ord(source[i + 2]) % 32), None, i + 3
    if c.isdigit():
        end = i + 1
        while end < len(source) and end < i + 4 and source[end] in "01234567":
            end += 1
        if end == i + 1:  # \8 \9: the digit itself
            return c, None, i + 2
        return chr(int(source[i + 1 : end], 8) & 0xFF), None, end
    return c, None, i + 2


def _class(source: str, i: int) -> tuple[str, int]:
    """A `[...]` starting at source[i]; returns Python regex text and the index after `]`."""
    i += 1
    negated = source[i : i + 1] == "^"
    if negated:
        i += 1
    items: list[tuple[str | None, str | None]] = []  # (character, class text)
    while True:
        if i >= len(source):
            raise JSRegexError("unterminated character class")
        ch = source[i]
        if ch == "]":
            i += 1
            break
        if ch == "\\":
            lit, cls, i = _escape_char(source, i, True)
            items.append((lit, cls))
        else:
            items.append((ch, None))
            i += 1
    if not items:
        return ("[\\s\\S]" if negated else "(?!)"), i
    parts: list[str] = []
    k = 0
    while k < len(items):
        lit, cls = items[k]
        if (lit is not None and k + 2 < len(items) and items[k + 1] == ("-", None)
                and items[k + 2][0] is not None):
            high = items[k + 2][0]
            assert high is not None
            if ord(lit) > ord(high):
                raise JSRegexError("range out of order in character class")
            parts.append(f"{_in_class(lit)}-{_in_class(high)}")
            k += 3
            continue
        parts.append(cls if cls is not None and not cls.startswith("^") else _negated_set(cls) if cls else
                     _in_class(lit or ""))
        k += 1
    return ("[^" if negated else "[") + "".join(parts) + "]", i


def _negated_set(cls: str) -> str:
    # a negated escape (\D, \W, \S) inside a class: every character outside it
    body = cls[1:]
    if body == "0-9":
        return "\\x00-/:-\\U0010ffff"
    if body == _WORD:
        return "\\x00-/:-@\\[-\\^`{-\\U0010ffff"
    return _ws_complement()


@lru_cache(maxsize=1)
def _ws_complement() -> str:
    ws = sorted({ord(c) for c in "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff"}
                | set(range(0x2000, 0x200B)))
    out, low = [], 0
    for p in ws:
        if p > low:
            out.append(f"\\U{low:08x}-\\U{p - 1:08x}")
        low = p + 1
    out.append(f"\\U{low:08x}-\\U0010ffff")
    return "".join(out)


def _in_class(ch: str) -> str:
    return "\\" + ch if ch in "\\]^-[" else ch


def translate(source: str, max_stars: int | None = MAX_STARS) -> str:
    """Python regex text for a JavaScript regex source (non-Unicode mode); more than `max_stars`
    unbounded repeats raise JSRegexError (None: no bound, for a source that is only compiled)."""
    if len(source) > MAX_SOURCE:
        raise JSRegexError("pattern too long")
    out: list[str] = []
    i = 0
    stars = 0
    while i < len(source):
        ch = source[i]
        if source.startswith(("\\b", "\\B"), i):
            edge = f"(?<=[{_WORD}])(?![{_WORD}])|(?<![{_WORD}])(?=[{_WORD}])"
            inside = f"(?<=[{_WORD}])(?=[{_WORD}])|(?<![{_WORD}])(?![{_WORD}])"
            out.append(f"(?:{edge if source[i + 1] == 'b' else inside})")
            i += 2
        elif ch == "\\":
            lit, cls, i = _escape_char(source, i, False)
            if cls is not None:
                out.append(f"[{cls}]")
            else:
                out.append(re.escape(lit or ""))
        elif ch == "[":
            text, i = _class(source, i)
            out.append(text)
        elif ch == ".":
            out.append("[^\\n\\r\\u2028\\u2029]")
            i += 1
        elif ch == "$":
            out.append("\\Z")  # JavaScript's $ (no m flag): the end of input only
            i += 1
        elif ch == "{":
            quant = _QUANT.match(source, i)
            if quant is not None:
                out.append(quant.group(0))
                i = quant.end()
            else:
                out.append("\\{")
                i += 1
        elif ch in "}]":
            out.append("\\" + ch)
            i += 1
        else:
            if ch in "*+":
                stars += 1
            out.append(ch)
            i += 1
    if max_stars is not None and stars > max_stars:
        raise JSRegexError(f"more than {max_stars} repeats: refused to avoid runaway backtracking")
    return "".join(out)


@lru_cache(maxsize=4096)
def compile_js(source: str, ignore_case: bool, bounded: bool = True) -> re.Pattern[str]:
    """`new RegExp(source, ignore_case ? "i" : "")`, or JSRegexError when JavaScript rejects it (or,
    when `bounded`, when it has too many repeats to run safely with backtracking)."""
    try:
        return re.compile(translate(source, MAX_STARS if bounded else None), re.IGNORECASE if ignore_case else 0)
    except re.error as exc:
        raise JSRegexError(str(exc)) from exc
