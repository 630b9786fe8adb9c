"""Every file memlint looks at, read once per run and parsed at most once."""

from __future__ import annotations

import os
from pathlib import Path

from memlint.model.document import Document


class Workspace:
    """A cache of documents keyed by absolute path (not resolved: symlinks stay distinct)."""

    def __init__(self) -> None:
        self._documents: dict[str, Document] = {}

    def document(self, path: Path | str) -> Document:
        key = os.path.abspath(path)
        doc = self._documents.get(key)
        if doc is None:
            doc = Document.read(Path(key))
            self._documents[key] = doc
        return doc

    def forget(self, path: Path | str) -> None:
        """Drop a cached document after memlint rewrote the file."""
        self._documents.pop(os.path.abspath(path), None)

    def __len__(self) -> int:
        return len(self._documents)

    def put(self, path: Path | str, text: str) -> None:
        """Replace a file's content in memory (a fix's result, not yet written)."""
        key = os.path.abspath(path)
        self._documents[key] = Document.from_text(Path(key), text)
