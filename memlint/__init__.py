"""memlint: a linter and formatter for Claude Code memory files."""

from __future__ import annotations

__version__ = "0.1.0"
