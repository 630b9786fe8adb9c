"""Rules of the notes family (ML4xx): session notes against their template and budgets."""

from __future__ import annotations

from memlint.rules.notes import ml401_notes_section_missing as _401
from memlint.rules.notes import ml402_notes_section_unknown as _402
from memlint.rules.notes import ml403_notes_sections_out_of_order as _403
from memlint.rules.notes import ml404_notes_heading_renamed as _404
from memlint.rules.notes import ml405_notes_description_changed as _405
from memlint.rules.notes import ml406_notes_section_over_budget as _406
from memlint.rules.notes import ml407_notes_over_total_budget as _407
from memlint.rules.notes import ml408_notes_current_state_empty as _408
from memlint.rules.notes import ml409_notes_placeholder_filler as _409

RULES = (_401, _402, _403, _404, _405, _406, _407, _408, _409)
