"""ML325's path search looks only at lines holding a `/`: it must find exactly what the regex finds
when run over the whole text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memlint.rules.automem._pointers import _PATH, _path_matches

_PIECES = st.sampled_from(["/", "~/", "./", "a", "é", "字", ".", "-", "*", "@", ":", " ", "\n", "\r\n", "x/y",
                           "`", "[", "]", "(", ")", "https://h/p", "~"])


@given(st.lists(_PIECES, max_size=40).map("".join))
def test_line_search_finds_what_the_whole_text_search_finds(text: str) -> None:
    assert list(_path_matches(text)) == [m.group(0) for m in _PATH.finditer(text)]


def test_paths_on_the_first_and_last_line_and_lines_without_a_slash() -> None:
    text = "a/b first\nno slash here\n\nmid ~/x/y. and ./z/\nlast/line"
    assert list(_path_matches(text)) == ["a/b", "~/x/y.", "./z/", "last/line"]
