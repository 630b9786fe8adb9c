"""The memory savings of the model keep every answer: each compact form against the long way."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from hypothesis import given, settings
from hypothesis import strategies as st

from memlint.model.document import Document
from memlint.model.workspace import Workspace

_PART = st.sampled_from(["a", "b", ".", "..", "", "CLAUDE.md", ".claude", "x y"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_PART, min_size=1, max_size=6), st.booleans(), st.booleans())
def test_document_by_any_spelling_is_the_one_by_abspath(parts: list[str], absolute: bool, as_path: bool) -> None:
    """`Workspace.document` without its table by the caller's path: any spelling of a path (relative,
    with `.`, `..`, doubled slashes, a str or a Path) finds the document of its `abspath`, whose path
    is `Path(abspath)` as it always was."""
    workspace = Workspace()
    written = "/".join(parts)
    if absolute:
        written = "/tmp/" + written
    given_path: Path | str = Path(written) if as_path else written
    key = os.path.abspath(written)
    doc = workspace.document(given_path)
    assert str(doc.path) == key and doc.path == Path(key)
    assert workspace.document(key) is doc
    assert workspace.document(Path(key)) is doc
    assert workspace.document(given_path) is doc
    assert len(workspace) == 1
