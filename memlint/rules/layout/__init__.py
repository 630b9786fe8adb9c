"""Rules of the layout family (5xx): rules files and memory file names."""

from __future__ import annotations

from memlint.rules.layout import ml501_rule_file_never_loaded as _501
from memlint.rules.layout import ml502_frontmatter_not_at_start as _502
from memlint.rules.layout import ml503_frontmatter_invalid as _503
from memlint.rules.layout import ml504_rule_uses_globs as _504
from memlint.rules.layout import ml505_rule_paths_match_everything as _505
from memlint.rules.layout import ml506_rule_paths_match_nothing as _506
from memlint.rules.layout import ml507_rule_pattern_never_matches as _507
from memlint.rules.layout import ml508_conditional_rule_includes_load_at_start as _508
from memlint.rules.layout import ml509_misnamed_claude_md as _509
from memlint.rules.layout import ml510_agents_md_not_read as _510
from memlint.rules.layout import ml511_agents_md_duplicates_claude_md as _511
from memlint.rules.layout import ml512_agents_md_only_on_read as _512
from memlint.rules.layout import ml513_exclude_matches_nothing as _513
from memlint.rules.layout import ml514_memory_directory_rejected as _514
from memlint.rules.layout import ml515_rule_skill_frontmatter as _515
from memlint.rules.layout import ml516_memory_placeholder_text as _516
from memlint.rules.layout import ml517_command_not_defined as _517
from memlint.rules.layout import ml518_referenced_file_missing as _518
from memlint.rules.layout import ml519_agents_md_setting_ignored as _519
from memlint.rules.layout import ml520_read_deny_withholds_claude_md as _520
from memlint.rules.layout import ml521_memory_file_withheld as _521
from memlint.rules.layout import ml524_rules_readme_loaded as _524
from memlint.rules.layout import ml525_memory_file_is_link_text as _525
from memlint.rules.layout import ml526_instruction_in_comment as _526
from memlint.rules.layout import ml527_settings_key_never_read as _527

RULES = (
    _501, _502, _503, _504, _505, _506, _507, _508, _509, _510, _511, _512, _513, _514, _515, _516, _517, _518,
    _519, _520, _521, _524, _525, _526, _527,
)
