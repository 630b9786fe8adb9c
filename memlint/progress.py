"""Progress of a long run, for people watching a terminal.

The engine and the workspace bump plain counters (no cost worth measuring); `shown()` starts a
thread that, once the run has taken `after` seconds, rewrites one stderr line with them until the
run ends, then clears it. The CLI uses it only for text output on a terminal: machine formats and
redirected stderr never see it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from memlint.records import dataclass


@dataclass
class Counts:
    """How far the run is: files read, start folders modelled, rules done."""

    files_read: int = 0
    starts_total: int = 0
    starts_done: int = 0
    rules_total: int = 0
    rules_done: int = 0

    def line(self) -> str:
        text = f"memlint: {self.files_read:,} files read"
        if self.starts_total:
            text += f", {self.starts_done:,}/{self.starts_total:,} start folders modelled"
        if self.rules_total:
            text += f", {self.rules_done}/{self.rules_total} rules run"
        return text


COUNTS = Counts()


@contextmanager
def shown(stream: TextIO, after: float = 2.0, every: float = 0.25) -> Iterator[None]:
    """Show COUNTS on `stream` (a terminal) from `after` seconds on, every `every` seconds."""
    stop = threading.Event()
    written = [0]

    def show() -> None:
        if stop.wait(after):
            return
        while True:
            line = COUNTS.line()
            stream.write("\r" + line.ljust(written[0]))
            stream.flush()
            written[0] = len(line)
            if stop.wait(every):
                return

    thread = threading.Thread(target=show, name="memlint-progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
        if written[0]:
            stream.write("\r" + " " * written[0] + "\r")
            stream.flush()
