"""Rules of the automem family: MEMORY.md, its index entries, and the topic files beside it."""

from __future__ import annotations

from memlint.rules.families import lazy_rules

# the rule modules, in order; `RULES` imports them on first use (memlint.rules.families)
MODULES = (
    "ml301_memory_index_truncated",
    "ml302_memory_index_near_limit",
    "ml303_memory_index_line_too_long",
    "ml304_memory_index_not_an_index",
    "ml305_memory_index_entry_malformed",
    "ml306_memory_index_frontmatter_or_include",
    "ml307_memory_link_missing_topic",
    "ml308_orphan_topic_file",
    "ml309_duplicate_index_entry",
    "ml310_wiki_link_unknown",
    "ml311_topic_frontmatter_missing",
    "ml312_topic_frontmatter_incomplete",
    "ml313_topic_type_unknown",
    "ml314_topic_type_top_level",
    "ml315_topic_description_too_long",
    "ml316_topic_name_not_slug",
    "ml317_topic_frontmatter_too_long",
    "ml318_topic_continuation_chain",
    "ml319_topic_over_recall_cap",
    "ml320_memory_whitespace",
    "ml321_too_many_topic_files",
    "ml322_memory_index_sanitised",
    "ml325_memory_index_not_loaded",
)
__getattr__ = lazy_rules(__name__, MODULES)
