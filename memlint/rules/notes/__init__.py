"""Rules of the notes family."""

from __future__ import annotations

RULES: tuple[object, ...] = ()
