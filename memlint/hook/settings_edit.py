"""Adding memlint's hook to a Claude Code settings.json and removing it, by editing the JSON text
where it must change and nowhere else: every other key, every other hook, their order, spacing
and comments-free formatting stay byte for byte. Installing inserts one span of text; removing
deletes spans (the hook, then a `PostToolUse` list or `hooks` object left empty by that)."""

from __future__ import annotations

import json
import re
from json import JSONDecoder

from memlint.errors import MemlintError
from memlint.lazy_regex import compile_lazily
from memlint.records import dataclass

MATCHER = "Write|Edit|MultiEdit"
COMMAND = "memlint hook"
_DECODER = JSONDecoder()
_WS = " \t\n\r"
_OURS = compile_lazily(r"(?:^|[/\\\s])memlint(?:\.exe)?\s+hook\s*$")


@dataclass(frozen=True)
class Member:
    key: str
    start: int  # the key's opening quote
    value: int  # where its value starts
    end: int  # where its value ends


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _end(text: str, i: int) -> int:
    try:
        return _DECODER.raw_decode(text, i)[1]
    except ValueError as exc:
        raise MemlintError(f"the settings file is not valid JSON ({exc}); fix it, or edit it by hand") from None


def members(text: str, at: int) -> list[Member]:
    """The members of the object whose `{` is at `at`."""
    out: list[Member] = []
    i = _skip(text, at + 1)
    while i < len(text) and text[i] != "}":
        key_end = _end(text, i)
        key = json.loads(text[i:key_end])
        colon = _skip(text, key_end)
        value = _skip(text, colon + 1)
        end = _end(text, value)
        out.append(Member(key, i, value, end))
        i = _skip(text, end)
        if i < len(text) and text[i] == ",":
            i = _skip(text, i + 1)
    return out


def elements(text: str, at: int) -> list[tuple[int, int]]:
    """(start, end) of each element of the array whose `[` is at `at`."""
    out: list[tuple[int, int]] = []
    i = _skip(text, at + 1)
    while i < len(text) and text[i] != "]":
        end = _end(text, i)
        out.append((i, end))
        i = _skip(text, end)
        if i < len(text) and text[i] == ",":
            i = _skip(text, i + 1)
    return out


def _close(text: str, at: int) -> int:
    """The index of the `}` or `]` closing the value at `at`."""
    return _end(text, at) - 1


def _line_indent(text: str, i: int) -> str:
    start = text.rfind("\n", 0, i) + 1
    line = text[start:]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _unit(text: str) -> str:
    """The file's indent step (two spaces when it shows none)."""
    found = re.search(r"\n([ \t]+)\S", text)
    return found.group(1) if found else "  "


def _space(text: str) -> str:
    """What follows a comma in a one-line file: a space unless its commas have none."""
    return "" if "," in text and ", " not in text else " "


def _render(value: object, indent: str, unit: str) -> str:
    text = json.dumps(value, indent=len(unit) if unit.strip(" ") == "" else unit, ensure_ascii=False)
    return text.replace("\n", "\n" + indent)


def entry(command: str = COMMAND) -> dict[str, object]:
    return {"matcher": MATCHER, "hooks": [{"type": "command", "command": command}]}


def _root(text: str) -> int:
    at = _skip(text, 0)
    if at >= len(text) or text[at] != "{":
        raise MemlintError("the settings file does not hold a JSON object; fix it, or edit it by hand")
    _end(text, at)  # the whole file parses
    if _skip(text, _end(text, at)) != len(text):
        raise MemlintError("the settings file has text after its JSON object; fix it, or edit it by hand")
    return at


def _last(found: list[Member], key: str) -> Member | None:
    hits = [m for m in found if m.key == key]  # Claude Code (JSON.parse) keeps the last duplicate
    return hits[-1] if hits else None


def _insert_member(text: str, obj: int, key: str, value: object) -> str:
    found, unit = members(text, obj), _unit(text)
    if found:
        last = found[-1]
        gap = text[text.rfind(",", 0, last.start) + 1 if len(found) > 1 else obj + 1 : last.start] or _space(text)
        rendered = _render(value, _line_indent(text, last.start), unit) if "\n" in gap else json.dumps(value)
        piece = f",{gap}{json.dumps(key)}: {rendered}"
        return text[: last.end] + piece + text[last.end :]
    close = _close(text, obj)
    outer = _line_indent(text, obj)
    inner = outer + unit
    piece = f"\n{inner}{json.dumps(key)}: {_render(value, inner, unit)}\n{outer}"
    return text[: obj + 1] + piece + text[close:]


def _append(text: str, arr: int, value: object) -> str:
    found, unit = elements(text, arr), _unit(text)
    if found:
        start, end = found[-1]
        gap = text[text.rfind(",", 0, start) + 1 if len(found) > 1 else arr + 1 : start] or _space(text)
        rendered = _render(value, _line_indent(text, start), unit) if "\n" in gap else json.dumps(value)
        return text[:end] + f",{gap}{rendered}" + text[end:]
    close = _close(text, arr)
    outer = _line_indent(text, arr)
    inner = outer + unit
    return text[: arr + 1] + f"\n{inner}{_render(value, inner, unit)}\n{outer}" + text[close:]


def is_ours(hook: object) -> bool:
    command = hook.get("command") if isinstance(hook, dict) else None
    return isinstance(command, str) and bool(_OURS.search(command))


def installed(text: str) -> bool:
    data = json.loads(text) if text.strip() else {}
    post = data.get("hooks", {}).get("PostToolUse", []) if isinstance(data.get("hooks"), dict) else []
    return any(is_ours(h) for e in post if isinstance(e, dict) and isinstance(e.get("hooks"), list)
               for h in e["hooks"])


def install(text: str, command: str = COMMAND) -> str:
    """`text` with memlint's PostToolUse hook added (unchanged when one is there already)."""
    if not text.strip():
        return json.dumps({"hooks": {"PostToolUse": [entry(command)]}}, indent=2) + "\n"
    root = _root(text)
    if installed(text):
        return text
    hooks = _last(members(text, root), "hooks")
    if hooks is None:
        return _insert_member(text, root, "hooks", {"PostToolUse": [entry(command)]})
    if text[hooks.value] != "{":
        raise MemlintError("`hooks` in the settings file is not an object; fix it, or edit it by hand")
    post = _last(members(text, hooks.value), "PostToolUse")
    if post is None:
        return _insert_member(text, hooks.value, "PostToolUse", [entry(command)])
    if text[post.value] != "[":
        raise MemlintError("`hooks.PostToolUse` in the settings file is not a list; fix it, or edit it by hand")
    return _append(text, post.value, entry(command))


def _cut(text: str, spans: list[tuple[int, int]], i: int, open_at: int) -> str:
    """`text` without item `i` of a container's `spans` (and one separating comma)."""
    start, end = spans[i]
    if len(spans) == 1:
        return text[: open_at + 1] + text[_close(text, open_at) :]
    if i > 0:
        return text[: spans[i - 1][1]] + text[end:]
    return text[:start] + text[spans[1][0] :]


def uninstall(text: str) -> str:
    """`text` without memlint's hooks, and without a `PostToolUse` list or `hooks` object that held
    only them (unchanged when none is there)."""
    if not text.strip():
        return text
    while True:
        changed = _remove_one(text)
        if changed is None:
            return text
        text = changed


def _remove_one(text: str) -> str | None:
    root = _root(text)
    top = members(text, root)
    for h_i, hooks in enumerate(top):
        if hooks.key != "hooks" or text[hooks.value] != "{":
            continue
        events = members(text, hooks.value)
        for p_i, post in enumerate(events):
            if post.key != "PostToolUse" or text[post.value] != "[":
                continue
            entries = elements(text, post.value)
            for e_i, (start, _end_at) in enumerate(entries):
                if text[start] != "{":
                    continue
                inner = _last(members(text, start), "hooks")
                if inner is None or text[inner.value] != "[":
                    continue
                items = elements(text, inner.value)
                ours = [k for k, (s, e) in enumerate(items) if is_ours(json.loads(text[s:e]))]
                if not ours:
                    continue
                if len(ours) < len(items):
                    return _cut(text, items, ours[0], inner.value)
                if len(entries) > 1:
                    return _cut(text, entries, e_i, post.value)
                spans = [(m.start, m.end) for m in events]
                if len(events) > 1:
                    return _cut(text, spans, p_i, hooks.value)
                return _cut(text, [(m.start, m.end) for m in top], h_i, root)
    return None
