"""Rules of the security family (6xx): what should never reach the model or the repository."""

from __future__ import annotations

from memlint.rules.security import ml601_secret_in_memory as _601
from memlint.rules.security import ml602_invisible_unicode as _602
from memlint.rules.security import ml603_mixed_script_word as _603
from memlint.rules.security import ml604_harness_tag as _604
from memlint.rules.security import ml605_personal_file_shared as _605
from memlint.rules.security import ml606_personal_absolute_path as _606
from memlint.rules.security import ml607_dangerous_instruction as _607

RULES = (_601, _602, _603, _604, _605, _606, _607)
