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
from memlint.rules.automem import ml311_topic_frontmatter_missing as _311
from memlint.rules.automem import ml312_topic_frontmatter_incomplete as _312
from memlint.rules.automem import ml313_topic_type_unknown as _313
from memlint.rules.automem import ml314_topic_type_top_level as _314
from memlint.rules.automem import ml315_topic_description_too_long as _315
from memlint.rules.automem import ml316_topic_name_not_slug as _316
from memlint.rules.automem import ml317_topic_frontmatter_too_long as _317
from memlint.rules.automem import ml318_topic_continuation_chain as _318
from memlint.rules.automem import ml319_topic_over_recall_cap as _319
from memlint.rules.automem import ml320_memory_whitespace as _320
from memlint.rules.automem import ml321_too_many_topic_files as _321
from memlint.rules.automem import ml322_memory_index_sanitised as _322
from memlint.rules.automem import ml325_memory_index_not_loaded as _325

RULES = (_301, _302, _303, _304, _305, _306, _307, _308, _309, _310, _311, _312, _313, _314, _315, _316, _317, _318,
         _319, _320, _321, _322, _325)
