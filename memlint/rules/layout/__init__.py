"""Rules of the layout family."""

from __future__ import annotations

RULES: tuple[object, ...] = ()
