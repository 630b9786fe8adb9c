"""Every configuration value of the wrong type or range is one line naming the file and the key,
and exit 2; a value that is accepted runs a check without a traceback (issue 27, point 8)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlint import api
from memlint.cli import main
from memlint.config import KEYS, build
from memlint.errors import ConfigError
from memlint.rules import all_rules
from memlint.selection import select

CONFIG = Path("/project/.memlint.toml")
OPTIONS = sorted((rule.code, option) for rule in all_rules() for option in rule.meta.options)

# What TOML can hold: strings, integers (64-bit), floats (inf and nan included), booleans, arrays, tables.
SCALARS = st.one_of(
    st.text(max_size=8), st.integers(min_value=-(2**63), max_value=2**63 - 1), st.floats(), st.booleans(),
    st.sampled_from([0, -1, -5, 1, 2**53 + 1, math.inf, -math.inf, math.nan, 0.0, 100.5, "cl100k", "project"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=2), max_leaves=4)
# Values a rule option could take: of each option type, around and inside the ranges, the choices.
OPTION_VALUES = st.one_of(
    VALUES, st.integers(min_value=-10, max_value=400_000), st.floats(min_value=-5, max_value=150),
    st.sampled_from(["cl100k", "chars4", "project", "user", "feedback", "reference"]),
)


def _tree(tmp: Path) -> Path:
    (tmp / "CLAUDE.md").write_text("# Project\n\nRun the tests with `make test`.\n", encoding="utf-8")
    memory = tmp / "MEMORY.md"
    memory.write_text("# Memory\n\n- [Build](build.md): how the build runs\n", encoding="utf-8")
    (tmp / ".claude" / "rules").mkdir(parents=True)
    (tmp / ".claude" / "rules" / "style.md").write_text("---\npaths: ['*.py']\n---\nUse black.\n", encoding="utf-8")
    return tmp


def test_the_option_table_is_not_empty_and_every_range_names_an_option() -> None:
    assert len(OPTIONS) >= 10
    for rule in all_rules():
        assert set(rule.meta.ranges) <= set(rule.meta.options), rule.code
        for name, spec in rule.meta.ranges.items():
            for bound in spec.split(","):
                compare, _, limit = bound.strip().partition(" ")
                assert compare in {">", ">=", "<", "<="} and math.isfinite(float(limit)), (rule.code, name)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(option=st.sampled_from(OPTIONS), value=OPTION_VALUES)
def test_every_rule_option_is_rejected_naming_file_and_key_or_runs(
    tmp_path_factory: pytest.TempPathFactory, option: tuple[str, str], value: Any,
) -> None:
    code, name = option
    try:
        config = build({"options": {code: {name: value}}}, CONFIG, CONFIG.parent)
    except ConfigError as exc:
        assert str(exc).startswith(f"{CONFIG}: options.{code}.{name}: "), str(exc)
        assert "\n" not in str(exc)
        return
    root = _tree(tmp_path_factory.mktemp("tree"))
    config = build({"options": {code: {name: value}}}, root / ".memlint.toml", root)
    api.check([root], config)  # an accepted value never ends in a traceback


@settings(max_examples=150, deadline=None)
@given(key=st.sampled_from(sorted(KEYS)), value=VALUES)
@example(key="options", value={"\n": ""})  # a quoted TOML key holding a line break: the message stays one line
@example(key="per-file-ignores", value={"a\u2028b": 1})
@example(key="exclude", value=["!"])  # no gitignore pattern: pathspec refuses it (git skips it)
@example(key="extend-exclude", value=["docs/\\"])
@example(key="per-file-ignores", value={"[z-a]": ["ML101"]})
def test_every_top_level_key_is_rejected_naming_file_and_key_or_accepted(key: str, value: Any) -> None:
    try:
        config = build({key: value}, CONFIG, CONFIG.parent)
    except ConfigError as exc:
        message = str(exc)
        assert message.startswith(f"{CONFIG}: {key}") and "\n" not in message, message
        return
    select(config)  # what was accepted is resolved for a run (its patterns compiled) without an error


@pytest.mark.parametrize(
    ("table", "named", "says"),
    [
        ("[options.context-over-budget]\nwindow = -5", "options.context-over-budget.window", "> 0"),
        ("[options.context-over-budget]\nwindow = 0", "options.context-over-budget.window", "> 0"),
        ("[options.ML202]\nbudget-percent = inf", "options.ML202.budget-percent", "finite"),
        ("[options.ML202]\nbudget-percent = nan", "options.ML202.budget-percent", "finite"),
        ("[options.ML202]\nbudget-percent = 250.0", "options.ML202.budget-percent", "<= 100"),
        ("[options.ML201]\nchars-per-token = 0", "options.ML201.chars-per-token", "> 0"),
        ("[options.ML201]\nmax-chars = -1", "options.ML201.max-chars", ">= 0"),
        ("[options.ML406]\nsection-budget = 0", "options.ML406.section-budget", "> 0"),
        ("[options.ML311]\ndefault-type = \"projekt\"", "options.ML311.default-type", "not one of"),
        ("[options.ML301]\nintro-lines = 9007199254740993", "options.ML301.intro-lines", "at most"),
        ('exclude = ["!"]', "exclude", "no gitignore pattern"),
        ('extend-exclude = ["notes\\\\"]', "extend-exclude", "no gitignore pattern"),
        ('[per-file-ignores]\n"[z-a].md" = ["ML101"]', "per-file-ignores", "no gitignore pattern"),
    ],
)
def test_a_bad_value_in_memlint_toml_exits_2_naming_file_and_key(tmp_path: Path, table: str, named: str, says: str) -> None:
    root = _tree(tmp_path)
    (root / ".memlint.toml").write_text(table + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(root)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert str(root / ".memlint.toml") in result.output and named in result.output and says in result.output


@pytest.mark.parametrize("table", ['[tool]\nmemlint = "x"', "[tool]\nmemlint = 3", "[tool]\nmemlint = [1]"])
def test_tool_memlint_that_is_not_a_table_in_pyproject_exits_2(tmp_path: Path, table: str) -> None:
    root = _tree(tmp_path)
    (root / "pyproject.toml").write_text(table + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(root)])
    assert result.exit_code == 2, result.output
    assert str(root / "pyproject.toml") in result.output and "tool.memlint: expected a table" in result.output


def test_pyproject_without_memlint_is_still_skipped(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    (root / "pyproject.toml").write_text('[tool.black]\nline-length = 100\n', encoding="utf-8")
    assert CliRunner().invoke(main, ["check", str(root)]).exit_code in (0, 1)
