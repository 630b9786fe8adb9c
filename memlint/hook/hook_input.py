"""Reading the hook input as Claude Code (a JavaScript program) means it.

- `loads`: `json.loads`, where JSON nested past Python's recursion limit is a `ValueError` like
  any text that is no JSON (one line on stderr, never an internal error). Claude Code never sends
  such input: it writes the hook input with `JSON.stringify`, which overflows its own stack first.
- `js_string`: a string field (`file_path`, `cwd`, `originalFile`) as the text it stands for. A
  JavaScript string may hold a lone surrogate (`"\\ud800"` in the JSON); Node writes it, to a file
  or a file name, as UTF-8 with U+FFFD in its place, so that is what was on disk.
"""

from __future__ import annotations

import json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class TooDeep(ValueError):
    """JSON nested deeper than Python's recursion limit."""


def loads(text: str) -> Any:
    """`json.loads(text)`; TooDeep for JSON nested past the recursion limit."""
    try:
        return json.loads(text)
    except RecursionError:
        raise TooDeep("nested too deep") from None


def js_string(text: str) -> str:
    """`text` with each lone surrogate replaced by U+FFFD, as Node encodes it (pairs kept)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text
