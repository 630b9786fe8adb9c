"""Text from a repository (file content, file and folder names, configuration keys) made safe to
print: it never reaches a terminal or a CI log raw.

- `for_terminal`: control characters (C0, DEL, C1: ANSI escapes, carriage returns, newlines that
  would forge a finding line) become visible `\\x1b`-style escapes; bytes of a file name that are
  not UTF-8 (Python's surrogate escapes) become `\\xNN`.
- `github_message` / `github_property`: GitHub's own escaping of workflow commands (`%`, CR, LF; plus
  `:` and `,` in properties), then `for_terminal` for the other control characters, so a file cannot forge `::error` or
  `::add-mask::` lines.
- `for_json`: JSON and SARIF strings that encode as UTF-8 whatever the file name's bytes;
  `json_safe` applies it to every string of a value (`memlint context --format json`).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any
from urllib.parse import quote

from memlint.compiled import regex
from memlint.lazy_regex import compile_lazily

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNSAFE = "[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff]"
_DIFF_UNSAFE = "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]"
_UNSAFE_WITH_TAB = "[\x00-\x1f\x7f-\x9f\ud800-\udfff]"


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    # Compiled at first use: `re` builds a class holding the surrogate range point by point (half a
    # millisecond each), and most runs print no finding and no diff.
    return regex(pattern)


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    if 0xDC80 <= code <= 0xDCFF:  # a byte of a non-UTF-8 file name (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if code >= 0xD800:
        return f"\\u{code:04x}"
    return f"\\x{code:02x}"


def for_terminal(text: str, keep_tab: bool = True) -> str:
    """`text` with every control character and undecodable byte shown as an escape."""
    pattern = _compiled(_UNSAFE if keep_tab else _UNSAFE_WITH_TAB)
    return pattern.sub(_visible, text) if pattern.search(text) else text


def styled_for_terminal(line: str) -> str:
    """`for_terminal` for a line memlint styled itself (click.style): the one-number colour and
    weight codes (`ESC[1m`, `ESC[31m`, `ESC[0m`) stay; every other escape, cursor movement, screen
    clear or title change from file content is shown escaped."""
    return _STYLE.sub(lambda m: "\x1b[" + m.group(1) + "m", for_terminal(line))


def diff_safe(diff: str) -> str:
    """A unified diff of file text with its line structure kept (LF, CR, tab) and every other control
    character escaped: a diff stays a diff, an ANSI escape in a file cannot drive the terminal."""
    pattern = _compiled(_DIFF_UNSAFE)
    return pattern.sub(_visible, diff) if pattern.search(diff) else diff


def github_message(text: str) -> str:
    """The message part of a workflow command (after `::`), escaped as GitHub documents."""
    return for_terminal(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def github_property(text: str) -> str:
    """A property value of a workflow command (`file=`, `title=`), escaped as GitHub documents."""
    return github_message(text).replace(":", "%3A").replace(",", "%2C")


def for_json(text: str) -> str:
    """`text` that JSON can carry as UTF-8: undecodable file-name bytes become `\\xNN`."""
    return _SURROGATE.sub(_visible, text) if _SURROGATE.search(text) else text


def json_safe(value: Any) -> Any:
    """`value` with `for_json` applied to every string in it (dict keys too), for `json.dumps`."""
    if isinstance(value, str):
        return for_json(value)
    if isinstance(value, dict):
        return {json_safe(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


def uri_reference(path: str) -> str:
    """A relative or absolute path as a URI reference (SARIF `artifactLocation.uri`): the path's
    bytes percent-encoded where a URI needs it."""
    return quote(path.encode("utf-8", "surrogateescape"), safe="/~")


_SURROGATE = compile_lazily("[\ud800-\udfff]")
_STYLE = compile_lazily(r"\\x1b\[(\d{1,2})m")
