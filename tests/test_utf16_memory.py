"""A CLAUDE.md saved as UTF-16 is loaded by Claude Code as UTF-8: recorded with the real CLI
(../shared/oracle/cc_oracle.py, 2.1.197 and 2.1.332 alike) on a tree whose CLAUDE.md is
"# Project\\n\\nAlways run make test.\\n" in UTF-16 LE with a byte-order mark; the model got the text
below. memlint models that text and ML903 says what it is, not "binary"."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.cli import main
from memlint.model.text.document import Document, utf16_kind

TEXT = "# Project\n\nAlways run make test.\n"
RECORDED = ("\ufffd\ufffd#\x00 \x00P\x00r\x00o\x00j\x00e\x00c\x00t\x00\n\x00\n\x00A\x00l\x00w\x00a\x00y\x00s\x00 \x00"
            "r\x00u\x00n\x00 \x00m\x00a\x00k\x00e\x00 \x00t\x00e\x00s\x00t\x00.\x00\n\x00")


def test_the_text_claude_code_loads_is_modelled(tmp_path: Path) -> None:
    path = tmp_path / "CLAUDE.md"
    path.write_bytes(TEXT.encode("utf-16"))
    doc = Document.read(path)
    assert doc.problem is not None and doc.problem.reason == "utf-16" and doc.readable
    assert doc.text == RECORDED


@pytest.mark.parametrize(("data", "kind"), [
    (TEXT.encode("utf-16-le"), "UTF-16 LE"),
    (TEXT.encode("utf-16-be"), "UTF-16 BE"),
    ("\ufeff".encode("utf-16-be") + TEXT.encode("utf-16-be"), "UTF-16 BE with a byte-order mark"),
    (b"DIRC\x00\x00\x00\x02\x00\x00\x00\x01" + b"\x00" * 40, None),  # a git index: binary, not text
    (b"PNG\x00\x00\x01" * 4, None),
    ("Über".encode("utf-16-le"), "UTF-16 LE"),
    ("日本".encode("utf-16-le") + b"\x00", None),  # odd length: not UTF-16 without a byte-order mark
])
def test_utf16_is_told_from_other_nul_bytes(data: bytes, kind: str | None) -> None:
    assert utf16_kind(data) == kind


def test_ml903_says_what_claude_code_does(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_bytes(TEXT.encode("utf-16"))
    result = CliRunner().invoke(main, ["check", str(tmp_path), "--no-home", "--select", "ML903"])
    assert result.exit_code == 1
    line = result.stdout.splitlines()[0]
    assert "binary" not in line
    assert "CLAUDE.md is UTF-16 LE with a byte-order mark: Claude Code reads it as UTF-8, so the model gets each " \
           "character followed by a NUL byte" in line and line.endswith("save it as UTF-8")
