"""Files memlint creates for itself (its run cache, its tables of compiled code and tokenizer ranks):
created new, never through a symbolic link and never over a file already there. Their names are
predictable and a project's cache folder may be a repository's; imports nothing heavy (a replayed
run starts here)."""

from __future__ import annotations

import os
from typing import BinaryIO


def open_new(path: str, mode: int = 0o666) -> BinaryIO:
    """`path` created for writing (`mode` less the umask); FileExistsError when anything, a link
    included, has that name already."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    return os.fdopen(os.open(path, flags, mode), "wb")
