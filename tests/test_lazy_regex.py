"""`compile_lazily`: a module-level pattern compiled at its first use, answering as `re.compile`'s."""

from __future__ import annotations

import re

import pytest

from memlint.lazy_regex import compile_lazily


def test_nothing_is_compiled_until_the_pattern_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    real = re.compile
    monkeypatch.setattr(re, "compile", lambda pattern, flags=0: made.append(pattern) or real(pattern, flags))
    lazy = compile_lazily(r"(?P<word>\w+)-(\d)", re.IGNORECASE)
    assert made == [] and lazy.pattern == r"(?P<word>\w+)-(\d)"
    assert lazy.search("x AB-7").group("word") == "AB"  # type: ignore[union-attr]
    assert lazy.findall("a-1 b-2") == [("a", "1"), ("b", "2")]
    assert made == [r"(?P<word>\w+)-(\d)"]  # once


@pytest.mark.parametrize("pattern, flags", [(r"(?P<word>\w+)-(\d)", re.IGNORECASE), (r"^\s*#", re.MULTILINE), ("é+", 0)])
def test_every_method_and_attribute_answers_as_the_compiled_pattern(pattern: str, flags: int) -> None:
    lazy, real = compile_lazily(pattern, flags), re.compile(pattern, flags)
    text = "Ab-1 cd-2\n  # é é-3\néé"
    assert (lazy.flags, lazy.groups, lazy.groupindex) == (real.flags, real.groups, real.groupindex)
    for method in ("search", "match", "fullmatch"):
        found, expected = getattr(lazy, method)(text), getattr(real, method)(text)
        assert (found and found.span()) == (expected and expected.span())
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in real.finditer(text)]
    assert lazy.findall(text) == real.findall(text) and lazy.split(text) == real.split(text)
    assert lazy.sub("<>", text) == real.sub("<>", text) and lazy.subn("", text, 1) == real.subn("", text, 1)


def test_a_bad_pattern_fails_where_it_is_first_used() -> None:
    lazy = compile_lazily("(unclosed")
    with pytest.raises(re.error):
        lazy.search("x")


def test_bytes_patterns_too() -> None:
    assert compile_lazily(rb"\x00+").sub(b"", b"a\x00\x00b") == b"ab"
