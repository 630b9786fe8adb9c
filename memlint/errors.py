"""The one root of memlint's own errors: each becomes one readable line and exit code 2."""

from __future__ import annotations


class MemlintError(Exception):
    """A problem with memlint's input as a whole (usage, configuration, plugin, I/O)."""


class FixError(Exception):
    """A fix could not be applied or written; nothing was changed on disk. Defined here (and
    re-exported by memlint.fixes) so that a check run need not import the fix machinery."""


class ConfigError(MemlintError):
    """The configuration is invalid; the message names the key."""


class ReaderGone(Exception):
    """Standard output's reader went away (`memlint rules | head`): the command stops quietly. Not
    an OSError, so that click does not turn it into its own exit 1 first (memlint/__main__.py)."""
