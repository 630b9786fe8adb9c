"""A memory file whose whole text is one path: a symbolic link checked out as text (ML525)."""

from __future__ import annotations

from memlint.lazy_regex import compile_lazily
from memlint.model.text.document import Document

# One path: no white space, no markdown or include marker first, a `/` or a file extension.
_PATH = compile_lazily(r"(?![@#>*+-]|\d+\.)[^\s<>|\"'`]+")
_EXTENSION = compile_lazily(r"\.[A-Za-z0-9]{1,10}$")


def link_text(doc: Document) -> str | None:
    """The path a file holds when that path is all it holds, else None."""
    if doc.problem is not None:
        return None
    text = doc.text.strip()
    if not text or len(text) > 1024 or "\n" in text or not _PATH.fullmatch(text):
        return None
    return text if "/" in text or _EXTENSION.search(text) else None
