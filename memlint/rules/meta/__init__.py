"""Problems memlint reports about itself and about files it cannot read (9xx)."""

from __future__ import annotations

from memlint.rules.meta import ml901_rule_crashed as _901
from memlint.rules.meta import ml902_unused_suppression as _902
from memlint.rules.meta import ml903_unreadable_file as _903
from memlint.rules.meta import ml904_limit_reached as _904

RULES = (_901, _902, _903, _904)
