"""Rules of the automem family."""

from __future__ import annotations

RULES: tuple[object, ...] = ()
