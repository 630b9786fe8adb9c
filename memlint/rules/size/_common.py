"""Shared helpers of the size rules: Claude Code's large-file threshold and path display."""

from __future__ import annotations

from memlint.model.run.include_problems import owned
from memlint.model.run.rule_context import RuleContext, vendored_start
from memlint.rules._paths import show

__all__ = ["large_file_threshold", "owned", "show", "vendored_start", "window_option"]

# Claude Code never warns below this many characters, whatever the window.
MIN_LARGE_FILE_CHARS = 40_000


def window_option(ctx: RuleContext) -> int:
    window = int(ctx.options.get("window", 200_000))
    return window if window > 0 else 200_000


def large_file_threshold(window: int, chars_per_token: int) -> int:
    """T = max(40,000, round(window x 0.05 x chars per token)), as Claude Code computes it."""
    return max(MIN_LARGE_FILE_CHARS, int(window * 0.05 * chars_per_token + 0.5))
