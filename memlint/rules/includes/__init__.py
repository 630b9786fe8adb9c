"""Rules of the includes family."""

from __future__ import annotations

from memlint.rules.families import lazy_rules

# the rule modules, in order; `RULES` imports them on first use (memlint.rules.families)
MODULES = (
    "ml101_include_target_missing",
    "ml102_include_non_text_extension",
    "ml103_include_target_is_folder",
    "ml104_include_too_deep",
    "ml105_include_cycle",
    "ml106_include_duplicate",
    "ml107_include_external",
    "ml108_include_not_recognized",
    "ml109_include_case_mismatch",
    "ml110_include_trailing_punctuation",
    "ml111_include_held_back",
)
__getattr__ = lazy_rules(__name__, MODULES)
