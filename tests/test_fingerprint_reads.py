"""A finding's fingerprint (baselines, SARIF, GitLab) reads the flagged line only from a regular
file: a finding on a FIFO or on a link to a device is fingerprinted with no line text instead of
blocking on it or reading forever."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from memlint.baseline import LineTexts


def test_a_fifo_is_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "notes.md"
    os.mkfifo(fifo)

    def writer() -> None:  # were the FIFO read, this would feed it a line
        with open(fifo, "w", encoding="utf-8") as handle:
            handle.write("fed through the pipe\n")

    threading.Thread(target=writer, daemon=True).start()
    assert LineTexts().line(fifo, 1) == ""


def test_a_regular_file_gives_its_lines(tmp_path: Path) -> None:
    path = tmp_path / "CLAUDE.md"
    path.write_bytes(b"first\r\nsecond\rthird\n\xff\n")
    texts = LineTexts()
    assert [texts.line(path, n) for n in range(1, 6)] == ["first", "second", "third", "\ufffd", ""]
