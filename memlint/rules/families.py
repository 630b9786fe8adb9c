"""The built-in rule families, importable a rule at a time.

A family package (`memlint/rules/<family>/__init__.py`) names its rule modules in `MODULES`, each
`mlNNN_<slug>` for the rule of code `MLNNN`, and gets its `RULES` (what `all_rules` registers, the
door a plugin uses too) from `lazy_rules`: the modules are imported on first use of `RULES`, not
when the package is. `builtin_rules(codes)` then imports only the modules of `codes`: `memlint
hook` after a write checks a handful of rules, and importing their whole families (with the
patterns every module compiles) was a tenth of its time on a harmless write. `memlint rules` and
`memlint explain` read `MODULES` from the source (memlint/rules/catalog.py) and import none.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Collection
from types import ModuleType

from memlint.rules import CODE_PATTERN, Rule

# the family package of a built-in code, by the code's hundreds digit (ML601: security)
FAMILIES = {"1": "includes", "2": "size", "3": "automem", "4": "notes", "5": "layout", "6": "security", "9": "meta"}


def lazy_rules(package: str, modules: tuple[str, ...]) -> Callable[[str], tuple[ModuleType, ...]]:
    """The module `__getattr__` of the family `package`: `RULES`, its rule modules `modules` (names
    in the package) in their order, imported on first use and then kept as the package's attribute."""

    def __getattr__(name: str) -> tuple[ModuleType, ...]:
        if name != "RULES":
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        rules = tuple(importlib.import_module(f"{package}.{module}") for module in modules)
        vars(sys.modules[package])["RULES"] = rules
        return rules

    return __getattr__


def builtin_rules(codes: Collection[str]) -> list[Rule]:
    """The built-in rules of `codes`, sorted by code, importing only their modules (a code that is
    no built-in rule's is left out)."""
    out: list[Rule] = []
    wanted = {code for code in codes if CODE_PATTERN.fullmatch(code) and code[2] in FAMILIES}
    for digit in sorted({code[2] for code in wanted}):
        package = f"memlint.rules.{FAMILIES[digit]}"
        modules: tuple[str, ...] = importlib.import_module(package).MODULES
        for name in modules:
            if f"ML{name[2:5]}" in wanted:
                module = importlib.import_module(f"{package}.{name}")
                if module.META.code in wanted:
                    out.append(Rule(module.META, module, None))
    return sorted(out, key=lambda r: r.code)
