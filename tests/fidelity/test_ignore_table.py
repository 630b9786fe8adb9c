"""Rules' `paths:` matched as Claude Code 2.1.332 matches them (table from gen_ignore.js)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from memlint.model.cli_js.gitignore import _source, ignores
from memlint.model.cli_js.jsregex import JSRegexError, compile_js
from memlint.model.cli_js.linearmatch import compile_linear, parse

DATA = json.loads((Path(__file__).parent / "ignore_table.json").read_text(encoding="utf-8"))


def test_table_is_large_enough() -> None:
    assert len(DATA["cases"]) >= 300


def test_every_triple_matches() -> None:
    wrong = [c for c in DATA["cases"] if ignores(tuple(c["patterns"]), c["path"]) != c["matches"]]
    assert not wrong, f"{len(wrong)} of {len(DATA['cases'])} differ, e.g. {wrong[:5]}"


@pytest.mark.parametrize("entry", DATA["regexes"], ids=lambda e: e["pattern"])
def test_regex_source_is_claude_codes(entry: dict[str, object]) -> None:
    pattern = str(entry["pattern"])
    assert _source(re.sub(r"^!?(\\(?=[!#]))?", "", pattern, count=1)) == entry["regex"]


def test_case_insensitive_unlike_pathspec() -> None:
    assert ignores(("*.PY",), "src/a.py")
    assert ignores(("Docs/**",), "docs/x.md")


@pytest.mark.parametrize("hostile", [
    "*a" * 40 + "b", "**/" * 200 + "x", "[" * 500, "\\" * 999, "a" * 5000, "{a,b}" * 100, "*" * 10_000,
    "(((((((((((", "a/**/" * 60 + "b",
])
def test_hostile_paths_finish(hostile: str) -> None:
    """Star bombs run without backtracking (Python's re takes minutes on `*a` x 8 + `b`)."""
    path = "a" * 60 + "/" + "a" * 60 + "/" + "a" * 60
    assert ignores((hostile,), path) in (True, False)
    assert ignores((hostile, "!x"), "aaaa/bbbb/cccc.md") in (True, False)


def test_star_bomb_is_run_linearly() -> None:
    source = _source("*a" * 40 + "b")
    assert parse(source) is not None
    assert not compile_linear(source, True)("a" * 200)
    assert compile_linear(source, True)("a" * 40 + "b")


def test_linear_matcher_agrees_with_re() -> None:
    """Where both can run, the linear matcher and Python's re (translated) agree on every table path."""
    paths = sorted({c["path"] for c in DATA["cases"]})
    checked = 0
    for entry in DATA["regexes"]:
        source = str(entry["regex"])
        try:
            pattern = compile_js(source, True)
        except JSRegexError:
            continue
        if parse(source) is None:  # `\b` and the like are left to re
            continue
        test = compile_linear(source, True)
        for path in paths:
            assert test(path) == (pattern.search(path) is not None), (source, path)
            checked += 1
    assert checked > 3000


def test_any_matches_prefilter_agrees_with_the_table() -> None:
    """`any_matches` hands the matcher only the paths that hold a pattern's required text; on every
    triple of the table it answers what Claude Code's matcher does, and so it does on the table's
    paths of each pattern set taken together."""
    from memlint.model.cli_js.globs import any_matches

    wrong = [c for c in DATA["cases"] if any_matches(tuple(c["patterns"]), (c["path"],)) != c["matches"]]
    assert not wrong, f"{len(wrong)} of {len(DATA['cases'])} differ, e.g. {wrong[:5]}"
    by_patterns: dict[tuple[str, ...], list[dict[str, object]]] = {}
    for case in DATA["cases"]:
        by_patterns.setdefault(tuple(case["patterns"]), []).append(case)
    for patterns, cases in by_patterns.items():
        paths = tuple(str(c["path"]) for c in cases)
        assert any_matches(patterns, paths) == any(bool(c["matches"]) for c in cases), patterns
