"""`Workspace.resolved` answers as `os.path.realpath` for every path: existing or not, through
symbolic links to folders and files, broken links, link loops and `..`; `Workspace.realpath` answers
the same from a run's walk listings as from the disk."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from memlint.model.loading.workspace import Workspace, walk

NAMES = st.sampled_from(["a", "b", "c", "l", "m"])
# each entry: (folder path, name, what it is: a folder, a file, or a link to a relative target)
ENTRY = st.tuples(st.lists(NAMES, max_size=2), NAMES,
                  st.one_of(st.just("dir"), st.just("file"), st.lists(st.sampled_from(["a", "b", "l", "..", "x"]),
                                                                     min_size=1, max_size=3).map("/".join)))
QUERY = st.lists(st.sampled_from(["a", "b", "c", "l", "m", "..", ".", "missing"]), max_size=4)


def _build(root: Path, entries: list[tuple[list[str], str, str]]) -> None:
    for folder, name, kind in entries:
        parent = root.joinpath(*folder)
        try:
            parent.mkdir(parents=True, exist_ok=True)
            target = parent / name
            if os.path.lexists(target):
                continue
            if kind == "dir":
                target.mkdir()
            elif kind == "file":
                target.write_text("x\n", encoding="utf-8")
            else:
                target.symlink_to(kind)
        except OSError:
            continue  # a folder path that runs through a file or a link: that entry is left out


@settings(max_examples=150, deadline=None)
@given(st.lists(ENTRY, max_size=10), st.lists(QUERY, min_size=1, max_size=6))
def test_resolved_is_realpath(entries: list[tuple[list[str], str, str]], queries: list[list[str]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(os.path.realpath(tmp))
        _build(root, entries)
        workspace = Workspace()
        for _ in range(2):  # asked again: the cached answer
            for parts in queries:
                text = os.path.join(str(root), *parts)
                assert workspace.resolved(text) == os.path.realpath(text), text
                assert workspace.resolved(Path(text)) == os.path.realpath(Path(text)), text


@settings(max_examples=150, deadline=None)
@given(st.lists(ENTRY, max_size=10), st.lists(QUERY, min_size=1, max_size=6))
def test_realpath_from_the_listings_is_realpath_from_the_disk(entries: list[tuple[list[str], str, str]],
                                                              queries: list[list[str]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(os.path.realpath(tmp))
        _build(root, entries)
        listed, alone = Workspace(), Workspace()
        for _ in walk(root, listed.walked):
            pass
        assert str(root) in listed.walked
        for parts in queries:
            text = os.path.join(str(root), *parts)
            assert listed.realpath(text) == alone.realpath(text), text
