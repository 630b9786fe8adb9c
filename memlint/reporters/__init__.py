"""Output formats: `context` views and `check` reports."""

from __future__ import annotations

FORMATS = ("text", "json", "github", "sarif", "gitlab", "junit")  # `check --format` (here so the CLI needs no reporter to list them)
