"""YAML frontmatter exactly as Claude Code finds and parses it.

Claude Code matches `^---\\s*\\n([\\s\\S]*?)---\\s*\\n?` at the very first byte (a BOM or a blank
line defeats it), so the block ends at the next `---` wherever it stands. The YAML is parsed; when
that fails it is retried once with every simple `key: value` line whose value holds a YAML special
character wrapped in double quotes. When that fails too the frontmatter counts as empty, but the
block is still cut from the loaded text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from memlint.model.jstext import JS_WS_CLASS

_FRONTMATTER = re.compile(rf"---[{JS_WS_CLASS}]*\n([\s\S]*?)---[{JS_WS_CLASS}]*\n?")
_SIMPLE_LINE = re.compile(rf"([a-zA-Z_-]+):[{JS_WS_CLASS}]+([^\n\r\u2028\u2029]+)")
_NEEDS_QUOTES = re.compile(r"[{}\[\]*&#!|>%@`]|: ")
_LEADING_TABS = re.compile(r"^\t+", re.MULTILINE)

try:  # the C loader is much faster where PyYAML was built with it
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader


@dataclass(frozen=True)
class Frontmatter:
    """A frontmatter block: where it ends, its YAML text, and what it parsed to."""

    raw: str
    end_offset: int  # index in the text where the body starts
    data: dict[str, Any] = field(default_factory=dict)
    error: str | None = None  # set when the YAML did not parse even after the retry
    retried: bool = False  # the first parse failed; the quoting retry succeeded


def _yaml_load(text: str) -> Any:
    return yaml.load(text, Loader=_Loader)


def _quote_simple_values(raw: str) -> str:
    """Claude Code's retry: double-quote `key: value` lines whose value YAML would misread."""
    out = []
    for line in raw.split("\n"):
        match = _SIMPLE_LINE.fullmatch(line)
        if match:
            key, value = match.group(1), match.group(2)
            quoted = (value.startswith('"') and value.endswith('"')) or (
                value.startswith("'") and value.endswith("'")
            )
            if quoted:
                out.append(line)
                continue
            if value.startswith("[") and value.endswith("]"):
                try:
                    if isinstance(_yaml_load(value), list):
                        out.append(line)
                        continue
                except yaml.YAMLError:
                    pass
            if _NEEDS_QUOTES.search(value):
                escaped = value.replace("\\", "\\\\").replace('"', '\\"')
                out.append(f'{key}: "{escaped}"')
                continue
        out.append(line)
    return "\n".join(out)


def _as_mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def parse_frontmatter(text: str) -> Frontmatter | None:
    """The frontmatter of `text` as Claude Code sees it, or None when there is none."""
    if not text.startswith("---"):
        return None
    match = _FRONTMATTER.match(text)
    if match is None:
        return None
    raw = match.group(1) or ""
    try:
        return Frontmatter(raw, match.end(), _as_mapping(_yaml_load(raw)))
    except (yaml.YAMLError, ValueError, RecursionError):
        pass
    retry = _LEADING_TABS.sub(lambda m: "  " * len(m.group(0)), _quote_simple_values(raw))
    try:
        return Frontmatter(raw, match.end(), _as_mapping(_yaml_load(retry)), retried=True)
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return Frontmatter(raw, match.end(), {}, error=message)


def _split_patterns(value: Any) -> list[str]:
    """Claude Code's splitting of `paths`: lists flatten, strings split on commas outside `{}`."""
    if isinstance(value, list):
        return [p for item in value for p in _split_patterns(item)]
    if not isinstance(value, str):
        return []
    parts: list[str] = []
    current = ""
    depth = 0
    for ch in value:
        if ch == "{":
            depth += 1
            current += ch
        elif ch == "}":
            depth -= 1
            current += ch
        elif ch == "," and depth == 0:
            if current.strip():
                parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return [expanded for part in parts for expanded in expand_braces(part)]


_BRACES = re.compile(r"([^{]*)\{([^}]+)\}([\s\S]*)")


def expand_braces(pattern: str) -> list[str]:
    """Expand the first `{a,b}` group, recursively (`src/{a,b}/*.ts` -> two patterns)."""
    match = _BRACES.fullmatch(pattern)
    if match is None:
        return [pattern]
    head, options, tail = match.groups()
    out: list[str] = []
    for option in options.split(","):
        out.extend(expand_braces(head + option.strip() + tail))
    return out


def rule_paths(data: dict[str, Any]) -> list[str] | None:
    """The globs that make a rule conditional, or None when it loads always."""
    value = data.get("paths")
    if not value:
        return None
    patterns = [p.removesuffix("/**") for p in _split_patterns(value)]
    patterns = [p for p in patterns if p]
    if not patterns or all(p == "**" for p in patterns):
        return None
    return patterns
