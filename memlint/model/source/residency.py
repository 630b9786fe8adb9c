"""Which file texts a run keeps in memory.

A run reads each memory file once, but on a large tree holding every text until the end costs
more memory than everything else memlint builds: a tree of 30,000 memory files holds about
100 MiB of text. The workspace keeps the texts of the files read most recently up to a budget;
older texts are let go (`Document.release_text`) and read again from disk when something asks for
them. A text read again must be the one let go (the same hash): a file that changed while
memlint was checking it stops the run (`FileChanged`), since what memlint built from the first
read no longer describes the file.

Runs whose texts fit the budget (most) never let one go: they behave as before, byte for byte.
"""

from __future__ import annotations

import sys
from collections import deque
from typing import Protocol

from memlint.errors import MemlintError

# Bytes of text kept; past it the oldest texts are let go. At 16,000 files (83 MiB of text), the
# whole-run rules and then the per-file rules read the loaded contexts' texts (17 MiB) and the topic,
# rule and AGENTS files' in turn: with 24 MiB about 10,000 texts were read again, a tenth of the run
# (2.70 s against 2.33 s with 48 MiB, medians of 5); 48 MiB reads almost none again, for 9 MiB more
# at the peak (117 -> 127 MiB; agnix: 91 MiB); more saves nothing (64 and 128 MiB: the same time).
DEFAULT_TEXT_BUDGET = 48 * 1024 * 1024


class Releasable(Protocol):
    """What the budget holds: a document that can let its text go (`memlint.model.text.document.Document`,
    which imports this module: named by what it does, so that this module need not import it)."""

    def release_text(self) -> int: ...


class FileChanged(MemlintError):
    """A file memlint let go of changed before it was read again."""

    def __init__(self, path: object) -> None:
        super().__init__(f"{path}: the file changed while memlint was checking it; run memlint again")


class TextBudget:
    """The documents keeping their texts, oldest first. A document is let go only from the front,
    so it sits here at most once: read again, it joins at the end."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = DEFAULT_TEXT_BUDGET if limit is None else limit
        self.held = 0  # bytes of the texts kept
        self.released = 0  # texts let go so far (a figure for tests and benchmarks)
        self._queue: deque[Releasable] = deque()

    def hold(self, doc: Releasable, text: str) -> None:
        """`doc` keeps `text` from now on; older texts are let go while over the budget."""
        self.held += sys.getsizeof(text)
        self._queue.append(doc)
        while self.held > self.limit and len(self._queue) > 1:  # the newest always stays
            freed = self._queue.popleft().release_text()
            if freed:
                self.held -= freed
                self.released += 1

    def clear(self) -> None:
        """Hold no document any longer (the run is over): the documents keep their texts until
        they are freed themselves, which they and this budget no longer prevent by holding each other."""
        self._queue.clear()
        self.held = 0
