"""Rules of the notes family (ML4xx): session notes against their template and budgets."""

from __future__ import annotations

from memlint.rules.families import lazy_rules

# the rule modules, in order; `RULES` imports them on first use (memlint.rules.families)
MODULES = (
    "ml401_notes_section_missing",
    "ml402_notes_section_unknown",
    "ml403_notes_sections_out_of_order",
    "ml404_notes_heading_renamed",
    "ml405_notes_description_changed",
    "ml406_notes_section_over_budget",
    "ml407_notes_over_total_budget",
    "ml408_notes_current_state_empty",
    "ml409_notes_placeholder_filler",
)
__getattr__ = lazy_rules(__name__, MODULES)
