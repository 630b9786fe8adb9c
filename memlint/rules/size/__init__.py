"""Rules of the size family."""

from __future__ import annotations

from memlint.rules.families import lazy_rules

# the rule modules, in order; `RULES` imports them on first use (memlint.rules.families)
MODULES = (
    "ml201_file_too_large",
    "ml202_context_over_budget",
    "ml203_empty_file",
    "ml204_instruction_files_over_total",
)
__getattr__ = lazy_rules(__name__, MODULES)
