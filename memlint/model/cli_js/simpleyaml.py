"""The common shapes of frontmatter read without PyYAML, giving exactly what `bunyaml.load` gives.

Most frontmatter is a few `key: value` lines (`name: x`, `description: y`, `type: project`) or a
`paths:` list of double-quoted globs. `simple_load` reads only those shapes, and answers None for
anything else (the caller then runs the full loader). tests/test_simpleyaml.py checks, with
hypothesis, that whenever it answers, the answer equals `bunyaml.load` (types and key order too).

Why each shape reads the same as the loader:
- a key is a letters-first name, a value a plain scalar that starts with no YAML indicator and
  holds none of `#`, `:`, `[`, `]`, `{`, `}`, no tab, no line break YAML knows (`\\r`, `\\x85`,
  `\\u2028`, `\\u2029`), no BOM and no non-ASCII space, and does not end in a space: YAML reads such
  a line as one key and one plain scalar, kept as written;
- a plain scalar becomes something other than a string only through an implicit resolver
  (`bunyaml._BunLoader`: booleans, nulls, numbers, the merge key, the empty value), and those
  resolvers' patterns (`_RESOLVED`, shared with bunyaml) are tried here: a match falls back, but
  for the six spellings of a boolean the bool resolver takes (`true`, `True`, `TRUE`, `false`, ...),
  read as the boolean it makes (`alwaysApply: false` heads most rules written for other tools);
- a double-quoted scalar without `\\` or `"` inside is its text, and stays a string;
- a block list (`key:` then `- "glob"` lines, all at one indent) or a flow list
  (`key: ["a", "b"]`) of such scalars is a list of those strings;
- a repeated key keeps its last value in the first key's place (the loader's dict assignment).
"""

from __future__ import annotations

import re
import sys
from functools import cache
from typing import Any

from memlint.compiled import regex

# The implicit resolvers of bunyaml._BunLoader: tag -> (pattern, the first characters it applies to).
CORE_RESOLVERS: dict[str, tuple[str, str | list[str]]] = {
    "tag:yaml.org,2002:bool": (r"true|True|TRUE|false|False|FALSE", "tTfF"),
    "tag:yaml.org,2002:null": (r"~|null|Null|NULL|", ["~", "n", "N", ""]),
    "tag:yaml.org,2002:int": (r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+", "-+0123456789"),
    "tag:yaml.org,2002:float": (
        r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",
        "-+0123456789.",
    ),
}
# Every pattern a plain scalar is resolved against (bunyaml adds the merge key and the empty value).
_RESOLVED = "|".join(f"(?:{regex})" for regex, _ in CORE_RESOLVERS.values()) + "|<<"

# Characters a plain scalar may hold here: printable ASCII but space, `#`, `:`, `[`, `]`, `{`, `}`;
# and non-ASCII letters and marks (no NEL, no BOM, no line or paragraph separator, no space), that is
# !"$-9;-Z\\^-z|~ and \u00a1-\u167f \u1681-\u1fff \u200b-\u2027 \u202a-\u202e \u2030-\u205e
# \u2060-\u2fff \u3001-\ud7ff \ue000-\ufefe \uff00-\ufffd. Written as the complement (what a
# scalar may NOT hold besides the space and the controls below it): `re` compiles a class of wide
# ranges point by point, and the set spelled out cost 12 ms at every start (_SAFE_SPEC in
# tests/test_simpleyaml.py checks both spellings match the same characters).
_UNSAFE = (
    r"#:\[\]{}\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ud800-\udfff\ufeff\ufffe\uffff"
    r"\U00010000-\U0010ffff"
)
_SAFE_CHAR = rf"[^\x00-\x20{_UNSAFE}]"
_SAFE_OR_SPACE = rf"[^\x00-\x1f{_UNSAFE}]"
# A plain scalar's first character is no indicator: not one of -?,&*!|>'"%@ and the backquote.
_PLAIN = rf"(?![-?,&*!|>'\"%@`]){_SAFE_CHAR}(?:{_SAFE_OR_SPACE}*{_SAFE_CHAR})?"
_QUOTED = r'"[ !#-\[\]-~]*"'  # printable ASCII without `"` and `\`
_KEY = r"[A-Za-z][A-Za-z0-9_-]{0,127}"



@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    """The resolvers' pattern, then the line shapes: compiled at the first frontmatter read, not at
    start (a run of a few files often reads none)."""
    return (
        regex(_RESOLVED),
        regex(rf"({_KEY}): ({_PLAIN}|{_QUOTED})"),
        regex(rf"({_KEY}): \[({_QUOTED}(?:, {_QUOTED})*)\]"),
        regex(rf"({_KEY}):"),
        regex(rf"( *)- ({_QUOTED})"),
        regex(_QUOTED),
    )


# The plain scalars the bool resolver of CORE_RESOLVERS takes, and what the loader makes of them.
_BOOLEANS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}


def _scalar(text: str, resolved: re.Pattern[str]) -> str | bool | None:
    """The string (or boolean) a plain or simple double-quoted scalar reads as, or None when the
    loader might read it as something else."""
    if text.startswith('"'):
        return text[1:-1]
    if text in _BOOLEANS:
        return _BOOLEANS[text]
    return None if resolved.fullmatch(text) else text


def _key(text: str, resolved: re.Pattern[str]) -> str | None:
    """A key as the loader reads it (a string), or None when a resolver could make it a boolean
    or a null (`true: x`, `null: x`). Interned: thousands of files spell the same few keys, and a
    run keeps every file's frontmatter."""
    return None if resolved.fullmatch(text) else sys.intern(text)


def simple_load(text: str) -> dict[str, Any] | None:
    """What `bunyaml.load(text)` gives, when `text` has one of the simple shapes; else None."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline ending the last line
    if not lines:
        return None
    resolved, scalar_line, flow_list_line, list_key_line, item_line, quoted_item = _patterns()
    out: dict[str, Any] = {}
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        match = scalar_line.fullmatch(line)
        if match is not None:
            key, value = _key(match.group(1), resolved), _scalar(match.group(2), resolved)
            if key is None or value is None:
                return None
            out[key] = value
            continue
        match = flow_list_line.fullmatch(line)
        if match is not None:
            key = _key(match.group(1), resolved)
            if key is None:
                return None
            out[key] = [item[1:-1] for item in quoted_item.findall(match.group(2))]
            continue
        match = list_key_line.fullmatch(line)
        if match is None:
            return None
        key = _key(match.group(1), resolved)
        items: list[str] = []
        indent: str | None = None
        while index < len(lines):
            item = item_line.fullmatch(lines[index])
            if item is None:
                break
            if indent is not None and item.group(1) != indent:
                return None
            indent = item.group(1)
            items.append(item.group(2)[1:-1])
            index += 1
        if key is None or not items:
            return None  # `key:` with nothing under it is null: left to the loader
        out[key] = items
    return out


@cache
def _flow_start() -> re.Pattern[str]:
    return regex(rf"{_KEY}: +\[")


def never_loads(text: str) -> bool:
    """True when `bunyaml.load(text)` certainly fails without running it (False says nothing): the
    lines are, up to one `key: [`, simple entries as `simple_load` reads them, and no `]` follows
    that `[`. The `[` opens a flow list (no earlier line leaves a scalar or a collection open), and
    a flow list ends only at its `]` (a document end or the text's end inside it is an error).
    Of a rule's `paths: [src/**` with its `]` forgotten, Claude Code's quoting retry is then simple."""
    _, scalar_line, flow_list_line, _, _, _ = _patterns()
    offset = 0
    for line in text.split("\n"):
        if scalar_line.fullmatch(line) is None and flow_list_line.fullmatch(line) is None:
            start = _flow_start().match(line)
            return start is not None and "]" not in text[offset + start.end():]
        offset += len(line) + 1
    return False
