"""`node_extname`'s shortcut for a path without a trailing slash gives what Node's scan gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memlint.model.cli_js.jstext import _node_extname_scan, node_extname

_paths = st.lists(st.sampled_from(["/", ".", "..", "a", "md", "B", " ", "\u00e9"]), max_size=10).map("".join)


@settings(max_examples=2000, deadline=None)
@given(_paths)
def test_shortcut_matches_the_scan(path: str) -> None:
    assert node_extname(path) == _node_extname_scan(path)


def test_known_extensions() -> None:
    cases = {"a.md": ".md", ".env": "", "a.md.": ".", "..md": ".md", "..": "", "/x/..": "", "a/b": "",
             "a/.b.c": ".c", "dir.d/": ".d", "": "", "/": "", "x.tar.gz": ".gz"}
    for path, expected in cases.items():
        assert node_extname(path) == expected == _node_extname_scan(path), path
