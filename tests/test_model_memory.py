"""The memory savings of the model keep every answer: each compact form against the long way."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memlint.model.loading.workspace import Workspace
from memlint.model.text.frontmatter import parse_frontmatter

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


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a.md", "A.md", "a.MD", "b", "B", "Readme", "README", "readme", "x"]),
                unique=True, max_size=8),
       st.sampled_from(["a.md", "b", "readme", "X", "none"]))
def test_names_by_case_is_the_listing_filtered(names: list[str], name: str) -> None:
    """The compact per-folder table (a name, or a list only when names collide) answers as the
    listing filtered by lower-cased name, in listing order."""
    import tempfile
    from types import SimpleNamespace

    from memlint.model.run.include_problems import _names_by_case, _same_but_case

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for entry in names:
            (folder / entry).write_text("", encoding="utf-8")
        listing = os.listdir(folder)
        memo: dict[object, object] = {}
        ctx = SimpleNamespace(once=lambda key, compute: memo.setdefault(key, compute()))
        table = _names_by_case(ctx, folder)  # type: ignore[arg-type]
        assert _same_but_case(table, name) == [n for n in listing if n.lower() == name.lower()]


_ABS_PART = st.sampled_from(["a", "b", ".", "..", "", "...", "..x", "x..", "é"])


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(["", "/", "//", "///"]), st.lists(_ABS_PART, max_size=5), st.booleans())
def test_absolute_is_abspath(lead: str, parts: list[str], as_path: bool) -> None:
    """`Workspace.absolute` gives a Path's own text only where `abspath` would give that text."""
    written = lead + "/".join(parts)
    given_path: Path | str = Path(written) if as_path else written
    assert Workspace.absolute(given_path) == os.path.abspath(written)


@settings(max_examples=300, deadline=None)
@example("\ufeff---\n---\n")  # frontmatter after a BOM
@given(st.lists(st.sampled_from(["---\n", "paths: src/**\n", "name: x\n", "\r\n", "\r", "text\n", "\xff", "é", "\ufeff"]),
                max_size=8).map("".join))
def test_a_documents_lazy_slots_answer_as_the_long_way(written: str) -> None:
    """`Document` keeps its lazily worked out answers in slots (no `__dict__`): each is what the
    long way computes, asked once or twice."""
    import re
    from array import array
    from dataclasses import replace

    from memlint.model.release import DEFAULT
    from memlint.model.text.document import Document, detect_newline
    from memlint.model.text.frontmatter import parse_frontmatter, rule_paths

    data = written.encode("utf-8", errors="surrogateescape").replace("\xc3\xbf".encode("latin-1"), b"\xff")
    doc = Document(Path("/x/CLAUDE.md"), data.decode("utf-8") if b"\xff" not in data else data)
    assert not hasattr(doc, "__dict__")
    text = data.decode("utf-8", errors="replace")
    for _ in range(2):
        assert doc.text == text
        assert doc.newline == detect_newline(text)
        if DEFAULT.frontmatter_after_bom and text.startswith("\ufeff"):  # C09: one leading BOM skipped
            after = parse_frontmatter(text[1:])
            fm = None if after is None else replace(after, end_offset=after.end_offset + 1)
        else:
            fm = parse_frontmatter(text)
        assert doc.frontmatter == fm
        globs = rule_paths(fm.data) if fm is not None else None
        assert doc.rule_globs == (tuple(globs) if globs else None)
        assert doc.line_starts == array("q", [0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", text))])


@given(st.lists(st.sampled_from(["---", "\n", "\r\n", "a: b", " ", "\t", "----", "x", "\u2028", "---\n", "k: [1, 2]",
                                 "#c", "\ufeff"]), min_size=1, max_size=14).map("".join))
def test_frontmatter_keeps_the_line_of_its_closing_fence(text: str) -> None:
    """`closing_line` is where the last `---` before the body stands, worked out while the text is
    at hand (ML317 asks for it after a large run has let the text go)."""
    fm = parse_frontmatter(text)
    if fm is not None:
        assert fm.closing_line == text.count("\n", 0, text.rfind("---", 0, fm.end_offset)) + 1
