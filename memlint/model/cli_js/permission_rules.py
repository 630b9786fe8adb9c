"""How Claude Code reads one string of `permissions.deny` (its permission-rule parser and the checks
that drop a rule, as in 2.1.290-2.1.332, the releases whose Read deny rules withhold memory files).

- The string is taken as written: `" Read"` and `"Read(./x.md) "` name no tool Claude Code has.
- `Tool` is the whole tool. `Tool(content)` must end at its last unescaped `)`, opened by the first
  unescaped `(`, with no parenthesis in the tool's name; anything else is malformed and dropped.
  `Tool()` is dropped ("Empty parentheses"); `Tool(*)` is the whole tool.
- The content is unescaped once: `\\(` and `\\)` become `(` and `)`, then `\\\\` becomes `\\`. A
  content with an escaped parenthesis beside an unbalanced unescaped one is dropped.
- A tool name must start with a capital letter unless it holds `_`; `*` in it is a wildcard, which a
  deny rule may use: `*`, `Rea*` or `R*d` deny the whole Read tool. A wildcard name with a content
  (`*(./CLAUDE.md)`) matches no file of memory.

Seen with the real CLI (tests/differential: `m47_read_deny_rule_forms_dropped`, `m47b`, `m47c`)."""

from __future__ import annotations

from typing import NamedTuple

from memlint.lazy_regex import compile_lazily


class PermissionRule(NamedTuple):
    """One valid rule: the tool name as written (maybe with `*`), and its content (None: the whole tool)."""

    tool: str
    content: str | None


def _escaped(text: str, at: int) -> bool:
    """Whether the character at `at` follows an odd run of backslashes."""
    count = 0
    at -= 1
    while at >= 0 and text[at] == "\\":
        count += 1
        at -= 1
    return count % 2 == 1


def _first(text: str, char: str) -> int:
    return next((i for i, c in enumerate(text) if c == char and not _escaped(text, i)), -1)


def _last(text: str, char: str) -> int:
    return next((i for i in range(len(text) - 1, -1, -1) if text[i] == char and not _escaped(text, i)), -1)


def _unescaped_count(text: str, char: str) -> int:
    return sum(1 for i, c in enumerate(text) if c == char and not _escaped(text, i))


_ESCAPED_PARENTHESIS = compile_lazily(r"(?:^|[^\\])\\[()]")


def parse_rule(text: str) -> PermissionRule | None:
    """The rule `text` stands for, or None when Claude Code drops it as invalid."""
    if not text.strip():
        return None
    if "(" not in text and ")" not in text:
        tool, raw = text, None
    else:
        opened, closed = _first(text, "("), _last(text, ")")
        if opened == -1 and closed == -1:
            tool, raw = text, None
        else:
            tool = text[:opened]
            if opened == -1 or closed <= opened or closed != len(text) - 1 or "(" in tool or ")" in tool:
                return None  # "Malformed Tool(content) rule"
            raw = text[opened + 1 : closed]
            if raw == "":
                return None  # "Empty parentheses"
    if not tool:
        return None
    if "_" not in tool and tool[0] != tool[0].upper():
        return None  # "Tool names must start with uppercase"
    if raw is not None and _ESCAPED_PARENTHESIS.search(raw) and _unescaped_count(raw, "(") != _unescaped_count(raw, ")"):
        return None  # an escaped parenthesis beside an unbalanced one
    if raw is None or raw == "*":
        return PermissionRule(tool, None)
    return PermissionRule(tool, raw.replace("\\(", "(").replace("\\)", ")").replace("\\\\", "\\"))


def tool_matches(pattern: str, tool: str) -> bool:
    """Whether a rule's tool name, where each `*` stands for any run of characters, names `tool`."""
    if "*" not in pattern:
        return pattern == tool
    parts = pattern.split("*")
    head, tail, middle = parts[0], parts[-1], [p for p in parts[1:-1] if p]
    if len(tool) - len(tail) < len(head) or not tool.startswith(head) or not tool.endswith(tail):
        return False
    at, end = len(head), len(tool) - len(tail)
    for part in middle:  # each in order, as early as it can be
        found = tool.find(part, at, end)
        if found < 0:
            return False
        at = found + len(part)
    return True
