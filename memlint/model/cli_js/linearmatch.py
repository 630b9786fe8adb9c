"""Run the regexes Claude Code's glob matchers build without backtracking.

The regex a glob becomes is a prefix (`^`, `(?:^|\\/)` or `^(?:.*\\/)?`), then single-character
atoms (a literal, an escape, a class, `.`), each maybe repeated (`*`, `+`, `?`), and the folder
repeat `(?:\\/[^\\/]+)*`, then an end (`$` or `(?=$|\\/$)`). `LinearRegex` runs that shape as a set
of reachable positions, in time linear in the pattern and quadratic at worst in the path, where a
backtracking engine is exponential in the number of stars (`*a*a*a*a*a*a*a*b` takes Python's `re`
minutes). `parse` returns None for any other shape; the caller then uses `re` with a small bound.
"""

from __future__ import annotations

from collections.abc import Callable

from memlint.model.cli_js.jsregex import compile_js
from memlint.records import dataclass

_PREFIXES = (("^(?:.*\\/)?", "any-folder"), ("(?:^|\\/)", "segment"), ("^", "start"))
_SUFFIXES = (("(?=$|\\/$)", "end-or-slash"), ("$", "end"))
_FOLDERS = "(?:\\/[^\\/]+)*"
_LINE_END = "\n\r\u2028\u2029"


@dataclass(frozen=True)
class _Atom:
    """One atom of a pattern: a single character's source and how it repeats."""

    source: str  # the JavaScript source of one character (for the predicate)
    repeat: str  # "", "*", "+" or "?"; "folders" for the folder repeat


def _single(source: str, i: int) -> int | None:
    """The end of the one-character atom at source[i], or None when it is not one."""
    ch = source[i]
    if ch == "\\":
        if i + 1 >= len(source) or source[i + 1] in "bB123456789cxu":
            return None  # boundaries, back-references and code escapes: leave them to `re`
        return i + 2
    if ch == "[":
        j = i + 1
        if source[j : j + 1] == "^":
            j += 1
        while j < len(source) and source[j] != "]":
            j += 2 if source[j] == "\\" else 1
        return j + 1 if j < len(source) else None
    if ch in "()|*+?{^$":
        return None
    return i + 1


def parse(source: str) -> tuple[str, tuple[_Atom, ...], str] | None:
    """(prefix kind, atoms, end kind) of a glob regex of the usual shape, else None."""
    prefix = next(((text, kind) for text, kind in _PREFIXES if source.startswith(text)), None)
    suffix = next(((text, kind) for text, kind in _SUFFIXES if source.endswith(text)), None)
    if prefix is None or suffix is None or len(source) < len(prefix[0]) + len(suffix[0]):
        return None
    body = source[len(prefix[0]) : len(source) - len(suffix[0])]
    atoms: list[_Atom] = []
    i = 0
    while i < len(body):
        if body.startswith(_FOLDERS, i):
            atoms.append(_Atom("", "folders"))
            i += len(_FOLDERS)
            continue
        end = _single(body, i)
        if end is None:
            return None
        repeat = body[end] if end < len(body) and body[end] in "*+?" else ""
        atoms.append(_Atom(body[i:end], repeat))
        i = end + len(repeat)
        if i < len(body) and body[i] in "*+?{":
            return None  # a repeated repeat (`a**`, lazy `*?`) or a counted one
    return prefix[1], tuple(atoms), suffix[1]


class LinearRegex:
    """`regex.test(path)` of a parsed glob regex, by reachable positions."""

    def __init__(self, parsed: tuple[str, tuple[_Atom, ...], str], ignore_case: bool) -> None:
        self.prefix, atoms, self.suffix = parsed
        self.atoms = tuple((atom, self._predicate(atom, ignore_case)) for atom in atoms)

    @staticmethod
    def _predicate(atom: _Atom, ignore_case: bool) -> Callable[[str], bool]:
        if atom.repeat == "folders":
            return lambda ch: ch != "/"
        if atom.source == ".":
            return lambda ch: ch not in _LINE_END
        pattern = compile_js(atom.source, ignore_case)  # JSRegexError for a bad class
        return lambda ch: pattern.fullmatch(ch) is not None

    def _starts(self, path: str) -> set[int]:
        after_slash = {i + 1 for i, ch in enumerate(path) if ch == "/"}
        if self.prefix == "start":
            return {0}
        if self.prefix == "segment":
            return {0} | after_slash
        return {0} | {p for p in after_slash if not any(ch in _LINE_END for ch in path[:p])}

    def test(self, path: str) -> bool:
        n = len(path)
        reach = self._starts(path)
        for atom, pred in self.atoms:
            if not reach:
                return False
            if atom.repeat == "folders":
                reach = self._folders(path, reach)
                continue
            step = {p + 1 for p in reach if p < n and pred(path[p])}
            if atom.repeat == "":
                reach = step
            elif atom.repeat == "?":
                reach = reach | step
            else:
                reach = self._run(path, reach if atom.repeat == "*" else step, pred)
        if self.suffix == "end":
            return n in reach
        return n in reach or (n - 1 in reach and path.endswith("/"))

    @staticmethod
    def _run(path: str, reach: set[int], pred: Callable[[str], bool]) -> set[int]:
        out: set[int] = set()
        for p in sorted(reach):
            if p in out:
                continue
            out.add(p)
            while p < len(path) and pred(path[p]):
                p += 1
                if p in out:
                    break
                out.add(p)
        return out

    @staticmethod
    def _folders(path: str, reach: set[int]) -> set[int]:
        out = set(reach)
        todo = sorted(reach)
        while todo:
            p = todo.pop()
            if p < len(path) and path[p] == "/":
                q = p + 1
                while q < len(path) and path[q] != "/":
                    q += 1
                    if q not in out:
                        out.add(q)
                        todo.append(q)
        return out


def compile_linear(source: str, ignore_case: bool) -> Callable[[str], bool]:
    """`regex.test`: linear when the source has the usual shape, else `re`
    (bounded by `jsregex.MAX_STARS`). Raises JSRegexError when JavaScript would reject the source."""
    compile_js(source, ignore_case, bounded=False)  # validates exactly as JavaScript would
    parsed = parse(source)
    if parsed is None:
        pattern = compile_js(source, ignore_case)
        return lambda path: pattern.search(path) is not None
    return LinearRegex(parsed, ignore_case).test
