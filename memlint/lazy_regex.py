"""Regular expressions compiled at their first use, not at import.

memlint's modules define about 180 patterns at import. Python compiles each one in Python code
every time a process starts (there is no cache across runs), and a check of a tree that holds no
secret, no dangerous command and no instruction in some language uses most of them never: on
bigtree 145 of 230 patterns were never matched, 14 ms of a cold run spent compiling them. A
pattern made here is compiled by `re.compile` when a method or attribute other than `pattern` is
first asked for; what it hands out from then on is the compiled pattern's own (its
bound methods are kept on it, so a call costs what a compiled pattern's call costs). The compiled
program is kept once per user (memlint.compiled): a later run does not parse the pattern again.
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast

from memlint.compiled import regex

__all__ = ["compile_lazily"]


class _LazyPattern:
    """A stand-in for `re.compile(pattern, flags)` that compiles it when first used."""

    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:  # only for what this object does not hold yet
        if name.startswith("__"):
            raise AttributeError(name)
        compiled = regex(self.pattern, self._flags)
        found = getattr(compiled, name)
        for attribute in ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner",
                          "flags", "groups", "groupindex"):
            setattr(self, attribute, getattr(compiled, attribute))
        return found

    def __repr__(self) -> str:
        return f"compile_lazily({self.pattern!r}, {self._flags!r})"


def compile_lazily(pattern: AnyStr, flags: int | re.RegexFlag = 0) -> re.Pattern[AnyStr]:
    """`re.compile(pattern, flags)`, compiled at its first use. Use it for module-level patterns;
    it is not a `re.Pattern` for `isinstance` or for `re.sub(pattern, ...)`: call its methods."""
    return cast("re.Pattern[AnyStr]", _LazyPattern(pattern, int(flags)))
