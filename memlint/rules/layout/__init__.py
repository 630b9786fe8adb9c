"""Rules of the layout family (5xx): rules files and memory file names."""

from __future__ import annotations

from memlint.rules.families import lazy_rules

# the rule modules, in order; `RULES` imports them on first use (memlint.rules.families)
MODULES = (
    "ml501_rule_file_never_loaded",
    "ml502_frontmatter_not_at_start",
    "ml503_frontmatter_invalid",
    "ml504_rule_uses_globs",
    "ml505_rule_paths_match_everything",
    "ml506_rule_paths_match_nothing",
    "ml507_rule_pattern_never_matches",
    "ml508_conditional_rule_includes_load_at_start",
    "ml509_misnamed_claude_md",
    "ml510_agents_md_not_read",
    "ml511_agents_md_duplicates_claude_md",
    "ml512_agents_md_only_on_read",
    "ml513_exclude_matches_nothing",
    "ml514_memory_directory_rejected",
    "ml515_rule_skill_frontmatter",
    "ml516_memory_placeholder_text",
    "ml517_command_not_defined",
    "ml518_referenced_file_missing",
    "ml519_agents_md_setting_ignored",
    "ml520_read_deny_withholds_claude_md",
    "ml521_memory_file_withheld",
    "ml524_rules_readme_loaded",
    "ml525_memory_file_is_link_text",
    "ml526_instruction_in_comment",
    "ml527_settings_key_never_read",
    "ml528_settings_file_ignored",
)
__getattr__ = lazy_rules(__name__, MODULES)
