"""`expand_braces` gives what the recursive expansion gave (the same patterns, in the same order,
the same bound), and a brace nest thousands deep is expanded, not a RecursionError."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from memlint.model.text.frontmatter import MAX_BRACE_PATTERNS, expand_braces, rule_paths

_BRACES = re.compile(r"([^{]*)\{([^}]+)\}([\s\S]*)")


def _recursive(pattern: str) -> list[str]:
    """The expansion as it was written first (recursion per group)."""
    out: list[str] = []

    def expand(text: str) -> None:
        if len(out) > MAX_BRACE_PATTERNS:
            return
        match = _BRACES.fullmatch(text)
        if match is None:
            out.append(text)
            return
        head, options, tail = match.groups()
        for option in options.split(","):
            expand(head + option.strip() + tail)

    expand(pattern)
    return out if len(out) <= MAX_BRACE_PATTERNS else [pattern]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["{", "}", ",", "a", "b", " ", "*", "/", "{a,b}", "{x,y,z}", "src/"]), max_size=30)
       .map("".join))
def test_expansion_is_the_recursive_one(pattern: str) -> None:
    assert expand_braces(pattern) == _recursive(pattern)


def test_a_pattern_expanding_past_the_bound_is_kept_as_written() -> None:
    pattern = "{a,b}" * 12
    assert expand_braces(pattern) == _recursive(pattern) == [pattern]


def test_a_brace_nest_thousands_deep_is_expanded() -> None:
    deep = "{a: " * 3000 + "1" + "}" * 3000
    assert len(expand_braces(deep)) == 1
    assert rule_paths({"paths": deep}) is not None
