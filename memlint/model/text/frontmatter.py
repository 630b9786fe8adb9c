"""YAML frontmatter exactly as Claude Code finds and parses it.

Claude Code matches `^---\\s*\\n([\\s\\S]*?)---\\s*\\n?` at the very first byte (a BOM or a blank
line defeats it), so the block ends at the next `---` wherever it stands. The YAML is parsed; when
that fails it is retried once with every simple `key: value` line whose value holds a YAML special
character wrapped in double quotes. When that fails too the frontmatter counts as empty, but the
block is still cut from the loaded text.
"""

from __future__ import annotations

import re
from dataclasses import field
from typing import Any

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.jstext import JS_WS_CLASS
from memlint.model.cli_js.simpleyaml import never_loads, simple_load
from memlint.records import dataclass

_FRONTMATTER = compile_lazily(rf"---[{JS_WS_CLASS}]*\n([\s\S]*?)---[{JS_WS_CLASS}]*\n?")
_SIMPLE_LINE = compile_lazily(rf"([a-zA-Z_-]+):[{JS_WS_CLASS}]+([^\n\r\u2028\u2029]+)")
_NEEDS_QUOTES = compile_lazily(r"[{}\[\]*&#!|>%@`]|: ")
_LEADING_TABS = compile_lazily(r"^\t+", re.MULTILINE)



@dataclass(frozen=True, slots=True)
class Frontmatter:
    """A frontmatter block: where it ends, its YAML text, and what it parsed to."""

    raw: str
    end_offset: int  # index in the text where the body starts
    data: dict[str, Any] = field(default_factory=dict)
    error: str | None = None  # set when the YAML did not parse even after the retry
    retried: bool = False  # the first parse failed; the quoting retry succeeded
    closing_line: int = 0  # the 1-based line of the closing `---` (kept: a text let go need not be read for it)


def _yaml_load(text: str) -> Any:
    from memlint.model.cli_js.bunyaml import load  # PyYAML is imported only for a file that has frontmatter

    return load(text)


def _yaml_error() -> type[Exception]:
    import yaml

    error: type[Exception] = yaml.YAMLError
    return error


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
                except _yaml_error():
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
    closing = text.count("\n", 0, match.end(1)) + 1
    simple = simple_load(raw)  # the common shapes, read without PyYAML (exactly as it reads them)
    if simple is not None:
        return Frontmatter(raw, match.end(), simple, closing_line=closing)
    if not never_loads(raw):  # (a flow list never closed fails, PyYAML unasked)
        try:
            return Frontmatter(raw, match.end(), _as_mapping(_yaml_load(raw)), closing_line=closing)
        except (_yaml_error(), ValueError, RecursionError):
            pass
    retry = _LEADING_TABS.sub(lambda m: "  " * len(m.group(0)), _quote_simple_values(raw))
    simple = simple_load(retry)
    if simple is not None:
        return Frontmatter(raw, match.end(), simple, retried=True, closing_line=closing)
    try:
        return Frontmatter(raw, match.end(), _as_mapping(_yaml_load(retry)), retried=True, closing_line=closing)
    except (_yaml_error(), ValueError, RecursionError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return Frontmatter(raw, match.end(), {}, error=message, closing_line=closing)


MAX_PATTERNS = 1000  # aliases can make a short `paths:` list enormous (or cyclic): stop there


def _split_patterns(value: Any, depth: int = 0, budget: list[int] | None = None) -> list[str]:
    """Claude Code's splitting of `paths`: lists flatten, strings split on commas outside `{}`.
    Bounded: nesting deeper than 32 and anything past `MAX_PATTERNS` strings is not followed."""
    budget = [MAX_PATTERNS] if budget is None else budget
    if isinstance(value, list):
        out: list[str] = []
        for item in value:
            if depth >= 32 or budget[0] <= 0:
                break
            out.extend(_split_patterns(item, depth + 1, budget))
        return out
    if not isinstance(value, str) or budget[0] <= 0:
        return []
    budget[0] -= 1
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


_BRACES = compile_lazily(r"([^{]*)\{([^}]+)\}([\s\S]*)")


MAX_BRACE_PATTERNS = 1_000  # `{a,b}` repeated 22 times would be 4 million patterns


def expand_braces(pattern: str) -> list[str]:
    """Expand the first `{a,b}` group, again and again (`src/{a,b}/*.ts` -> two patterns), depth
    first. A pattern that would expand past MAX_BRACE_PATTERNS is kept as written (hostile input;
    bounded work). A stack, not recursion: `{a: {a: ...}}` 3,000 deep is one group per level."""
    out: list[str] = []
    stack = [pattern]
    while stack and len(out) <= MAX_BRACE_PATTERNS:
        text = stack.pop()
        match = _BRACES.fullmatch(text)
        if match is None:
            out.append(text)
            continue
        head, options, tail = match.groups()
        stack.extend(head + option.strip() + tail for option in reversed(options.split(",")))
    return out if len(out) <= MAX_BRACE_PATTERNS else [pattern]


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
