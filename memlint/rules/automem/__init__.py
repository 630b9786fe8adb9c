"""Rules of the automem family: MEMORY.md, its index entries, and the topic files beside it."""

from __future__ import annotations

from memlint.rules.automem import ml301_memory_index_truncated as _301
from memlint.rules.automem import ml302_memory_index_near_limit as _302
from memlint.rules.automem import ml303_memory_index_line_too_long as _303
from memlint.rules.automem import ml304_memory_index_not_an_index as _304
from memlint.rules.automem import ml305_memory_index_entry_malformed as _305
from memlint.rules.automem import ml306_memory_index_frontmatter_or_include as _306
from memlint.rules.automem import ml307_memory_link_missing_topic as _307
from memlint.rules.automem import ml308_orphan_topic_file as _308
from memlint.rules.automem import ml309_duplicate_index_entry as _309
from memlint.rules.automem import ml310_wiki_link_unknown as _310

RULES = (_301, _302, _303, _304, _305, _306, _307, _308, _309, _310)
