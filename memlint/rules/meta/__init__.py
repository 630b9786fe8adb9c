"""Rules of the meta family."""

from __future__ import annotations

RULES: tuple[object, ...] = ()
