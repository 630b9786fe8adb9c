"""Rules of the includes family."""

from __future__ import annotations

from memlint.rules.includes import ml101_include_target_missing as _101
from memlint.rules.includes import ml102_include_non_text_extension as _102
from memlint.rules.includes import ml103_include_target_is_folder as _103
from memlint.rules.includes import ml104_include_too_deep as _104
from memlint.rules.includes import ml105_include_cycle as _105
from memlint.rules.includes import ml106_include_duplicate as _106
from memlint.rules.includes import ml107_include_external as _107
from memlint.rules.includes import ml108_include_not_recognized as _108
from memlint.rules.includes import ml109_include_case_mismatch as _109
from memlint.rules.includes import ml110_include_trailing_punctuation as _110

RULES = (_101, _102, _103, _104, _105, _106, _107, _108, _109, _110)
