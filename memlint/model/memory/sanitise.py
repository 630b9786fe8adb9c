"""Claude Code's sanitising of the auto-memory text (C08, 2.1.284+).

After MEMORY.md is cut and its WARNING line appended, Claude Code rewrites the text before the model
sees it (CLAUDE.md, rules and includes are not touched):
- `\\r\\n`, a lone `\\r`, U+2028 and U+2029 become `\\n`;
- C0/C1 controls (but TAB and LF), DEL, and every code point of the general categories Cf, Co, Cn, Cs
  or with the property Default_Ignorable_Code_Point are removed, except ZWNJ, ZWJ, VS15 and VS16;
- openers and closers of the harness's own tags (`<system-reminder>`, `</function_results>`, a
  fullwidth `＜` too, any case) are defused as `<\\tag` and `<\\/tag`.

`changes` lists what was removed or rewritten, with line numbers, for the rule that reports it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from memlint.lazy_regex import compile_lazily
from memlint.records import dataclass

# Default_Ignorable_Code_Point, from Unicode's DerivedCoreProperties.txt (unchanged since Unicode 9:
# the property is defined by fixed ranges; Python's unicodedata does not expose it).
# tests/fidelity/gen_sanitise.js checks it against node's /\p{Default_Ignorable_Code_Point}/u.
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
KEPT = frozenset("\u200c\u200d\ufe0e\ufe0f")  # ZWNJ, ZWJ, VS15, VS16 survive
_REMOVED_CATEGORIES = frozenset({"Cf", "Co", "Cn", "Cs"})

# The tags Claude Code's harness uses itself (read from the 2.1.332 bundle). `channel` counts only
# with a `source=` attribute, and then only its opener; any `antml:` name counts.
HARNESS_TAGS: tuple[str, ...] = (
    "bash-input", "bash-stdout", "bash-stderr", "bash-exit-code", "local-command-stdout",
    "local-command-stderr", "local-command-caveat", "command-name", "command-message", "command-args",
    "task-notification", "agent-message", "teammate-message", "cross-session-message", "remote-review",
    "slack-ping", "slack-tag-message", "tick", "fetched-web-content", "untrusted-widget-state",
    "coordinator-relay", "artifact-type-instructions", "cowritten-artifact-html", "artifact-file-content",
    "artifact-origin-notes", "artifact-stored-declaration", "system-reminder", "system_reminder",
    "function_results", "tool_use_error", "sandbox_violations", "persisted-output", "total_tokens",
    "user-prompt-submit-hook",
)
_NAMES = "|".join(sorted((re.escape(t) for t in HARNESS_TAGS), key=len, reverse=True))
_TAG = compile_lazily(
    rf"[<\uff1c](/?)((?:{_NAMES}|antml:[\w-]+)(?![\w:-])|channel(?=\s+source=))",
    re.IGNORECASE,
)
_NEWLINES = compile_lazily("\r\n|[\r\u2028\u2029]")


@lru_cache(maxsize=4096)
def is_removed(ch: str) -> bool:
    """Whether the sanitiser removes this code point."""
    if ch in KEPT or ch in "\t\n\r":  # CR is turned into a line break first
        return False
    point = ord(ch)
    if point < 0x20 or 0x7F <= point <= 0x9F:
        return True
    if unicodedata.category(ch) in _REMOVED_CATEGORIES:
        return True
    return any(low <= point <= high for low, high in DEFAULT_IGNORABLE)


_FAST_SAFE = compile_lazily(r"[\t\n\x20-\x7e]*\Z")
_UNUSUAL = compile_lazily(r"[^\t\n\x20-\x7e]")  # printable ASCII, tab and LF are never removed


def sanitise(text: str) -> str:
    """The text Claude Code gives the model for this auto-memory text."""
    if _FAST_SAFE.match(text) and "<" not in text:
        return text
    text = _NEWLINES.sub("\n", text)
    removed = {ord(ch): None for ch in set(_UNUSUAL.findall(text)) if is_removed(ch)}
    if removed:
        text = text.translate(removed)
    return _TAG.sub(lambda m: "<\\" + m.group(1) + m.group(2), text)


@dataclass(frozen=True)
class Change:
    """One thing the sanitiser changes on a line of the text it gets (1-based line)."""

    line: int
    what: str  # e.g. "U+200B ZERO WIDTH SPACE removed", "<system-reminder> defused as <\\system-reminder>"


def _name(ch: str) -> str:
    point = ord(ch)
    name = unicodedata.name(ch, "") if not 0xD800 <= point <= 0xDFFF else ""
    kinds = {"Cc": "control character", "Co": "private use", "Cn": "unassigned", "Cs": "lone surrogate"}
    return f"U+{point:04X} " + (name or kinds.get(unicodedata.category(ch), unicodedata.category(ch)))


def changes(text: str) -> list[Change]:
    """What `sanitise` removes or rewrites in `text`, line by line (lines split on `\\n` only, as
    Claude Code counted them for the cut)."""
    out: list[Change] = []
    for number, line in enumerate(text.split("\n"), 1):
        if _FAST_SAFE.match(line) and "<" not in line:
            continue
        breaks = _NEWLINES.findall(line.removesuffix("\r"))
        if breaks:
            shown = sorted({"CR" if b == "\r" else _name(b) for b in breaks})
            out.append(Change(number, f"{', '.join(shown)} turned into a line break (counted as one line "
                                      "for the 200-line limit, read by the model as several)"))
        seen: dict[str, int] = {}
        for ch in line:
            if is_removed(ch):
                seen[ch] = seen.get(ch, 0) + 1
        for ch, n in seen.items():
            out.append(Change(number, f"{_name(ch)} removed" + (f" ({n}\u00d7)" if n > 1 else "")))
        for m in _TAG.finditer(line):
            out.append(Change(number, f"`{m.group(0)}` defused as `<\\{m.group(1)}{m.group(2)}`"))
    return out
