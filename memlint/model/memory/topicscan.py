"""Claude Code's memory scan of an auto-memory folder (2.1.197): every `*.md` file but MEMORY.md,
newest first by modification time, only the first 200 kept; of each, the first 30 lines are read
for the frontmatter. A recalled topic file is read up to 200 lines and 4,096 bytes."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

SCAN_FILES = 200  # files listed in the memory scan, newest first
SCAN_LINES = 30  # lines of each file read to find its frontmatter
RECALL_LINES = 200  # a recalled memory is cut after this many lines...
RECALL_BYTES = 4096  # ...or this many bytes


def newest_first(paths: Iterable[Path]) -> list[Path]:
    """`paths` by modification time, newest first (ties by name); a file that cannot be
    stat-ed (not yet written) counts as newest."""

    def key(path: Path) -> tuple[float, str]:
        try:
            return (-os.stat(path).st_mtime, path.name)
        except OSError:
            return (float("-inf"), path.name)

    return sorted(paths, key=key)
