"""JavaScript string semantics that Claude Code's loader relies on.

Claude Code is a JavaScript program: `String.prototype.trim`, the regex class `\\s`, `.length`
(UTF-16 code units) and Node's `path.extname` all differ in small ways from Python's. Every
comparison with the real CLI depends on getting these exactly right, so they live here once.
"""

from __future__ import annotations

import posixpath

# The characters JavaScript's trim() and the regex class \s treat as white space.
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
# The same set, ready to go inside a regex character class.
JS_WS_CLASS = (
    "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)


def js_trim(text: str) -> str:
    """`text.trim()` as JavaScript does it."""
    return text.strip(JS_WHITESPACE)


def js_trim_start(text: str) -> str:
    """`text.trimStart()` as JavaScript does it."""
    return text.lstrip(JS_WHITESPACE)


def utf16_len(text: str) -> int:
    """`text.length` in JavaScript: UTF-16 code units (a character outside the BMP counts 2)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def utf16_prefix(text: str, units: int) -> str:
    """`text.slice(0, units)` in JavaScript. A cut through a surrogate pair leaves a lone surrogate,
    which reaches the model as U+FFFD (it is replaced when the request is encoded as UTF-8)."""
    if text.isascii() or utf16_len(text) == len(text):
        return text[:units]
    count = 0
    for index, ch in enumerate(text):
        width = 2 if ord(ch) > 0xFFFF else 1
        if count + width > units:
            return text[:index] + ("\ufffd" if count < units else "")
        count += width
    return text


def utf16_last_newline(text: str, at_most: int) -> int:
    """`text.lastIndexOf("\\n", at_most)` in UTF-16 units, or -1."""
    if text.isascii() or utf16_len(text) == len(text):
        return text.rfind("\n", 0, at_most + 1)
    best = -1
    count = 0
    for ch in text:
        if count > at_most:
            break
        if ch == "\n":
            best = count
        count += 2 if ord(ch) > 0xFFFF else 1
    return best


def node_extname(path: str) -> str:
    """Node's `path.posix.extname` (`.env` has none, `a.md.` has `.`, `..md` has `.md`)."""
    if path and not path.endswith("/"):
        # Without a trailing slash Node's scan reads only the last segment: the extension runs
        # from its last dot, unless that dot opens the segment (`.env`) or the segment is `..`.
        base = path[path.rfind("/") + 1 :]
        dot = base.rfind(".")
        return "" if dot <= 0 or base == ".." else base[dot:]
    return _node_extname_scan(path)


def _node_extname_scan(path: str) -> str:
    """Node's `path.posix.extname`, its own backward scan (any path)."""
    start_dot = -1
    start_part = 0
    end = -1
    matched_slash = True
    pre_dot_state = 0
    for i in range(len(path) - 1, -1, -1):
        ch = path[i]
        if ch == "/":
            if not matched_slash:
                start_part = i + 1
                break
            continue
        if end == -1:
            matched_slash = False
            end = i + 1
        if ch == ".":
            if start_dot == -1:
                start_dot = i
            elif pre_dot_state != 1:
                pre_dot_state = 1
        elif start_dot != -1:
            pre_dot_state = -1
    if (
        start_dot == -1
        or end == -1
        or pre_dot_state == 0
        or (pre_dot_state == 1 and start_dot == end - 1 and start_dot == start_part + 1)
    ):
        return ""
    return path[start_dot:end]


def node_dirname(path: str) -> str:
    """Node's `path.posix.dirname`: trailing slashes are no part, and the slash that ends the folder
    stays when slashes are doubled before the last part (`/a//b` is `/a/`, `/a/b/` is `/a`)."""
    if not path:
        return "."
    end = -1
    matched_slash = True
    for i in range(len(path) - 1, 0, -1):
        if path[i] == "/":
            if not matched_slash:
                end = i
                break
        else:
            matched_slash = False
    if end == -1:
        return "/" if path[0] == "/" else "."
    if path[0] == "/" and end == 1:
        return "//"
    return path[:end]


def node_normalize(path: str) -> str:
    """Node's `path.posix.normalize`, but for a trailing slash (which every caller cuts): `//x` is `/x`,
    where Python's `normpath` keeps two leading slashes."""
    norm = posixpath.normpath(path)
    return norm[1:] if norm.startswith("//") and not norm.startswith("///") else norm


def tenths_half_up(number: int, scale: int) -> int:
    """`number / scale` in tenths, rounded half up (JavaScript's `toFixed(1)` and its compact number
    text on these exact quotients), in integers: `tenths_half_up(47_001, 1024)` is 459 (`45.9`)."""
    tenths, rest = divmod(number * 10, scale)
    return tenths + 1 if 2 * rest >= scale else tenths
