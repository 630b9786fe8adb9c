"""Rules of the size family."""

from __future__ import annotations

RULES: tuple[object, ...] = ()
