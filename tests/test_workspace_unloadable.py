"""`Workspace.unloadable` answers as the document's own problem (when nothing of the file can be
read) whether or not the file was read before: it only stats a file not read yet."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memlint.model.loading.workspace import Workspace
from memlint.model.source.files import MAX_FILE_BYTES
from memlint.model.text.document import Document


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("unloadable")
    (root / "text.md").write_text("# Notes\n", encoding="utf-8")
    (root / "empty.md").write_bytes(b"")
    (root / "binary.md").write_bytes(b"a\x00b")
    (root / "latin.md").write_bytes(b"caf\xe9\n")
    (root / "big.md").write_bytes(b"x" * (MAX_FILE_BYTES + 1))
    (root / "folder.md").mkdir()
    (root / "link-to-folder.md").symlink_to("folder.md")
    (root / "link-to-text.md").symlink_to("text.md")
    (root / "broken.md").symlink_to("nowhere.md")
    (root / "loop.md").symlink_to("loop.md")
    os.mkfifo(root / "fifo.md")
    return root


NAMES = ["text.md", "empty.md", "binary.md", "latin.md", "big.md", "folder.md", "link-to-folder.md",
         "link-to-text.md", "broken.md", "loop.md", "fifo.md", "missing.md", "folder.md/inside.md", "text.md/x.md"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("read_first", [False, True])
def test_unloadable_is_the_documents_problem_when_nothing_can_be_read(tree: Path, name: str, read_first: bool) -> None:
    path = tree / name
    problem = Document.read(path).problem
    expected = problem if problem is not None and problem.reason in {"not-found", "not-a-file", "too-large"} else None
    workspace = Workspace()
    if read_first:
        workspace.document(path)
    assert workspace.unloadable(path) == expected
    assert workspace.unloadable(str(path)) == expected


def test_a_file_not_read_yet_is_not_read(tree: Path) -> None:
    workspace = Workspace()
    assert workspace.unloadable(tree / "text.md") is None
    assert str(tree / "text.md") not in workspace._documents
