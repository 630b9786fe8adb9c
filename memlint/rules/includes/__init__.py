"""Rules of the includes family."""

from __future__ import annotations

RULES: tuple[object, ...] = ()
