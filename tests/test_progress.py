"""Progress on stderr: only on a terminal, only for text output, cleared when the run ends."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

from memlint import progress
from memlint.commands import run


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_the_counts_then_clears_its_line() -> None:
    stream = Terminal()
    progress.COUNTS.files_read = 12
    with progress.shown(stream, after=0.0, every=0.01):
        time.sleep(0.1)
    text = stream.getvalue()
    assert "memlint: 12 files read" in text
    assert text.endswith("\r") and text.rstrip("\r").endswith(" ")


def test_a_quick_run_shows_nothing() -> None:
    stream = Terminal()
    with progress.shown(stream, after=5.0):
        pass
    assert stream.getvalue() == ""


@pytest.mark.parametrize(("fmt", "tty", "shown"), [
    ("text", True, True), ("json", True, False), ("sarif", True, False), ("github", True, False),
    ("text", False, False),
])
def test_progress_only_for_text_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, fmt: str, tty: bool, shown: bool
) -> None:
    stream = Terminal() if tty else io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    context = run._progress(fmt)
    assert (type(context).__name__ != "nullcontext") is shown


def test_counts_follow_a_check(tmp_path: Path) -> None:
    from memlint import api
    from memlint.config import load_config

    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    before = progress.COUNTS.files_read
    api.check([tmp_path], load_config(tmp_path))
    assert progress.COUNTS.files_read > before
    assert progress.COUNTS.starts_done <= progress.COUNTS.starts_total
