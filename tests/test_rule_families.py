"""The built-in families import a rule at a time (memlint/rules/families.py): `MODULES` names every
rule module of the family's folder, `RULES` is what it names, and `builtin_rules` finds a rule by its
code alone and imports nothing else."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memlint.rules import all_rules
from memlint.rules.families import FAMILIES, builtin_rules

RULES_DIR = Path(__file__).resolve().parent.parent / "memlint" / "rules"


@pytest.mark.parametrize("family", sorted(FAMILIES.values()))
def test_modules_names_every_rule_module_of_the_folder_and_each_is_named_by_its_code(family: str) -> None:
    package = importlib.import_module(f"memlint.rules.{family}")
    on_disk = sorted(p.stem for p in (RULES_DIR / family).glob("ml[0-9][0-9][0-9]_*.py"))
    assert sorted(package.MODULES) == on_disk
    assert [m.__name__.rpartition(".")[2] for m in package.RULES] == list(package.MODULES)
    digit = next(d for d, name in FAMILIES.items() if name == family)
    for module in package.RULES:
        code = module.META.code
        assert module.__name__.rpartition(".")[2].startswith(f"ml{code[2:]}_") and code[2] == digit


def test_every_builtin_family_is_in_the_table() -> None:
    families = {r.module.__name__.split(".")[2] for r in all_rules() if r.plugin is None}
    assert families == set(FAMILIES.values())


def test_builtin_rules_are_the_registered_rules_of_those_codes() -> None:
    registered = {r.code: r for r in all_rules() if r.plugin is None}
    codes = ["ML601", "ML101", "ML506", "ML301", "ML999", "XX101", "ML3"]
    found = builtin_rules(codes)
    assert [r.code for r in found] == ["ML101", "ML301", "ML506", "ML601"]
    assert all(r.module is registered[r.code].module and r.meta == registered[r.code].meta for r in found)
    assert [r.code for r in builtin_rules(list(registered))] == sorted(registered)


_PROBE = """
import json, sys
from memlint.rules.families import builtin_rules
import memlint.rules.layout
before = sorted(m for m in sys.modules if m.startswith("memlint.rules."))
builtin_rules(["ML602"])
after = sorted(m for m in sys.modules if m.startswith("memlint.rules."))
print(json.dumps([before, after]))
"""


def test_a_family_package_imports_no_rule_and_one_code_imports_its_module_alone() -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    done = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, check=True)
    before, after = json.loads(done.stdout)
    assert not [m for m in before if ".ml" in m]
    assert [m for m in after if ".ml" in m] == ["memlint.rules.security.ml602_invisible_unicode"]
