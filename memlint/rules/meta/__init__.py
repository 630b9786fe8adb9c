"""Problems memlint reports about itself and about files it cannot read (9xx)."""

from __future__ import annotations

from memlint.rules.families import lazy_rules

# the rule modules, in order; `RULES` imports them on first use (memlint.rules.families)
MODULES = (
    "ml901_rule_crashed",
    "ml902_unused_suppression",
    "ml903_unreadable_file",
    "ml904_limit_reached",
)
__getattr__ = lazy_rules(__name__, MODULES)
