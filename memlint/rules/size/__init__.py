"""Rules of the size family."""

from __future__ import annotations

from memlint.rules.size import ml201_file_too_large as _201
from memlint.rules.size import ml202_context_over_budget as _202
from memlint.rules.size import ml203_empty_file as _203
from memlint.rules.size import ml204_instruction_files_over_total as _204

RULES = (_201, _202, _203, _204)
