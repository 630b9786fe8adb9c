"""Every rule's page has the sections STYLE.md asks for; its Example triggers it and its
"Use instead" does not; docs/rules/ is up to date."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memlint.rules import all_rules
from tests.rules.harness import run_check, write_blocks

RULES = all_rules()
ENGINE_ONLY = {"ML901"}  # reported by the engine itself, never by a file's text
# fixed by deleting files, which "Use instead" (files written over the Example's tree) cannot show
FIXED_BY_DELETING = {"ML321", "ML524"}


def _sections(doc: str) -> list[str]:
    return re.findall(r"^## (.+)$", doc, re.MULTILINE)


def test_rules_registered() -> None:
    assert RULES, "no rule registered: is the package installed (pip install -e .)?"
    codes = [r.code for r in RULES]
    assert len(codes) == len(set(codes))
    slugs = [r.slug for r in RULES]
    assert len(slugs) == len(set(slugs))


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_page_sections(rule) -> None:  # type: ignore[no-untyped-def]
    doc = rule.doc
    assert doc.splitlines()[0].strip(), "a summary line first"
    sections = _sections(doc)
    required = ["What it does", "Why is this bad?", "Example"]
    assert sections[:3] == required, sections
    assert "Use instead:" in doc
    assert ("Fix safety" in sections) == bool(rule.meta.fix), "`## Fix safety` exactly when the rule fixes"
    assert ("Options" in sections) == bool(rule.meta.options), "`## Options` exactly when it has options"
    for option in rule.meta.options:
        assert f"`{option}`" in doc.split("## Options", 1)[1], f"option {option} undocumented"


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_example_triggers_and_use_instead_does_not(rule, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    example = rule.doc.split("## Example", 1)[1].split("\n## ", 1)[0]
    bad, good = example.split("Use instead:", 1)
    tree, home = tmp_path / "tree", tmp_path / "home"
    tree.mkdir()
    home.mkdir()
    write_blocks(bad, tree, home)
    uses_home = any(p for p in home.rglob("*"))
    found = run_check(tree.resolve(), rule.code, home.resolve() if uses_home else None).violations
    if rule.code not in ENGINE_ONLY:
        assert found, f"the Example of {rule.code} does not trigger it"
    if rule.code in FIXED_BY_DELETING:
        return
    write_blocks(good, tree, home)
    found = run_check(tree.resolve(), rule.code, home.resolve() if uses_home else None).violations
    assert not found, f"'Use instead' of {rule.code} still triggers: {[v.message for v in found]}"


def test_docs_rules_up_to_date() -> None:
    from memlint.docgen import main

    assert main(["--check"]) == 0, "docs/rules is stale: run `python -m memlint.docgen`"
