"""How Claude Code matches a conditional rule's `paths:` against a file: its gitignore matcher.

Claude Code 2.1.332 asks `<ignore>().add(globs).ignores(relativePath)` (case-insensitive, the
library's default). The library bundled in the CLI has no version string and is not the code of any
npm `ignore` release (ignore 7.0.16 disagrees on 113 of the 4,914 triples of
tests/fidelity/ignore_table.json), so this is a port of the bundled matcher itself:
- each glob becomes a JavaScript regex (`_source`, line for line the bundle's function);
- a path is tested together with each folder above it (`a/`, `a/b/`): a path below an ignored folder
  is ignored; rules run in order, a `!` rule can only re-include, a plain rule only exclude;
- a glob whose regex does not compile is dropped, as Claude Code drops it.
Brace sets, extglobs and POSIX classes have no meaning here (`*.{js,ts}` is literal).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.jsregex import JSRegexError
from memlint.model.cli_js.jstext import JS_WHITESPACE
from memlint.model.cli_js.linearmatch import compile_linear
from memlint.records import dataclass

# The bundle's tokenizer: a run of stars before a character, or backslashes then `/**` (at a
# segment end), a word, or one character (or nothing, at the end).
_TOKEN = compile_lazily(r"(\*+(?=[^\n\r\u2028\u2029]))|(\\*)(/\*\*(?![^/])|[A-Za-z0-9_]+|[\s\S]?)")
_LEAD = compile_lazily(r"/?(\*\*/)?")
_RANGE = compile_lazily(r"[0-z]-[0-z]")
_JS_SPACE = compile_lazily(f"[{re.escape(JS_WHITESPACE)}]")
MAX_GLOB = 1024


def _source(glob: str) -> str:
    """The JavaScript regex source Claude Code builds for one glob (bundle function `Ti`)."""
    n = glob.removeprefix("\ufeff")
    o = n.rstrip(JS_WHITESPACE)
    if not o:
        return ""
    lead = _LEAD.match(o)
    assert lead is not None
    g, h = lead.group(0), lead.group(1)
    y = "^(?:.*\\/)?" if h else "^" if g or "/" in n[:-1] else "(?:^|\\/)"
    o = o[len(g) :] + (" " if o != n and o.endswith("\\") else "")
    k = c = ""
    x: str | None = None
    for m in _TOKEN.finditer(o):
        d, star, i, w = m.group(0), m.group(1), m.group(2) or "", m.group(3) or ""
        at_end = m.end() == len(o)
        even = i[len(i) % 2 :]
        if k and (w == "]" or not d[len(i) :]):
            if c:
                y = f"{k}[{y}{even}{w}"
            elif w and even == i:
                y = k + "[" + _RANGE.sub(lambda r: "" if r.group(0)[0] > r.group(0)[2] else r.group(0), y) + i + "]"
            else:
                y = k + "[]"
            k = ""
        elif not k and w == "[":
            k, c, y = y + i, i, ""
        elif star or w == "?" or w[:1] == "/":
            if w == "/**" and not at_end:
                tail = f"{i[1:] or i}(?:\\/[^\\/]+)*"
            else:
                tail = i + ("[^\\/]*" if star else "[^\\/]" if w == "?" else "\\/" if w == "/" else "\\/.+")
            y = (f"{k}[" if k else "") + y + tail
            k = ""
        elif w == "*" and at_end:
            y += f"{i[1:]}[^/]{'+' if x == '/' and len(i) < 2 else '*'}"
        elif i and _JS_SPACE.search(w):
            y += i if at_end and even == i else f"{even} "
        else:
            y += (i or ("\\" if w and w in ".$()+^{|*" else "")) + w
        x = w
    return y + ("$" if o.endswith("/") else "(?=$|\\/$)")


@dataclass(frozen=True)
class _Rule:
    """One line of an ignore file: whether it negates, and its test."""

    negative: bool
    test: Callable[[str], bool]


def _keep(line: str) -> bool:
    """Lines the library takes: not a comment, not blank, not ending in a lone backslash."""
    return (not line.startswith("#") and _JS_SPACE.sub("", line) != ""
            and (line.endswith("\\\\") or not line.endswith("\\")))


@lru_cache(maxsize=1024)
def _rules(globs: tuple[str, ...]) -> tuple[_Rule, ...]:
    out = []
    for glob in globs:
        if len(glob) > MAX_GLOB or not _keep(glob):
            continue
        body = re.sub(r"^!?(\\(?=[!#]))?", "", glob, count=1)
        try:
            out.append(_Rule(glob.startswith("!"), compile_linear(_source(body), True)))
        except JSRegexError:
            continue  # Claude Code drops a glob that does not compile
    return tuple(out)


def _verdict(rules: tuple[_Rule, ...], path: str) -> bool:
    ignored = False
    for rule in rules:
        if (ignored if rule.negative else not ignored) and rule.test(path):
            ignored = not rule.negative
    return ignored


def ignores(globs: tuple[str, ...], path: str) -> bool:
    """`<ignore>().add(globs).ignores(path)` for a relative path with `/` separators."""
    return ignores_any(globs, (path,))


def ignores_any(globs: tuple[str, ...], paths: tuple[str, ...]) -> bool:
    """Whether `ignores(globs, path)` holds for any of `paths`; each folder above them is tested
    once, however many of the paths it holds."""
    rules: tuple[_Rule, ...] | None = None
    folders: dict[str, bool] = {}
    for path in paths:
        if not path or path.startswith("/") or re.match(r"\.\.?(/|$)", path):
            continue
        if rules is None:
            rules = _rules(globs)
        if not rules:
            return False
        collapsed = re.sub("/+", "/", path) if "//" in path else path
        parents = [collapsed[: m.start() + 1] for m in re.finditer("/", collapsed[:-1]) if m.start() > 0]
        for folder in parents:
            verdict = folders.get(folder)
            if verdict is None:
                verdict = folders[folder] = _verdict(rules, folder)
            if verdict:
                return True
        if _verdict(rules, path):
            return True
    return False
