"""Rules of the security family (6xx): what should never reach the model or the repository."""

from __future__ import annotations

from memlint.rules.families import lazy_rules

# the rule modules, in order; `RULES` imports them on first use (memlint.rules.families)
MODULES = (
    "ml601_secret_in_memory",
    "ml602_invisible_unicode",
    "ml603_mixed_script_word",
    "ml604_harness_tag",
    "ml605_personal_file_shared",
    "ml606_personal_absolute_path",
    "ml607_dangerous_instruction",
)
__getattr__ = lazy_rules(__name__, MODULES)
