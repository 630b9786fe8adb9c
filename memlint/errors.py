"""The one root of memlint's own errors: each becomes one readable line and exit code 2."""

from __future__ import annotations


class MemlintError(Exception):
    """A problem with memlint's input as a whole (usage, configuration, plugin, I/O)."""


class ConfigError(MemlintError):
    """The configuration is invalid; the message names the key."""
