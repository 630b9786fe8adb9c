"""`claudeMdExcludes` matched as Claude Code 2.1.332 matches them (table from gen_picomatch.js)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memlint.model.cli_js.globs import picomatch
from memlint.model.cli_js.picoglob import compile_glob

DATA = json.loads((Path(__file__).parent / "picomatch_table.json").read_text(encoding="utf-8"))


def test_table_is_large_enough() -> None:
    assert len(DATA["cases"]) >= 300


def test_every_triple_matches() -> None:
    wrong = [c for c in DATA["cases"] if picomatch(c["path"], tuple(c["patterns"])) != c["matches"]]
    assert not wrong, f"{len(wrong)} of {len(DATA['cases'])} differ, e.g. {wrong[:5]}"


def test_quirks_picomatch_has() -> None:
    assert compile_glob("**/[!a]/CLAUDE.md")("/p/a/CLAUDE.md")  # `[!a]` is the class of `!` and `a`
    assert not compile_glob("**/[!a]/CLAUDE.md")("/p/b/CLAUDE.md")
    assert compile_glob("**/{01..3}/CLAUDE.md")("/p/2/CLAUDE.md")  # the class [01-3]
    assert not compile_glob("**/[z-a]/CLAUDE.md")("/p/a/CLAUDE.md")  # JavaScript rejects the class
    assert compile_glob("!**/b/CLAUDE.md")("/p/a/CLAUDE.md")


@pytest.mark.parametrize("hostile", [
    "*a" * 40 + "b", "**/" * 300 + "x", "[" * 500, "\\" * 999, "{" * 300 + "}" * 300, "{a,b}" * 150,
    "@(" * 200 + ")" * 200, "a" * 5000, "!(" * 100 + "a" + ")" * 100, "{" * 500 + "}" * 500, "@(" * 60 + ")" * 60,
])
def test_hostile_excludes_finish(hostile: str) -> None:
    assert picomatch("/home/dev/" + "a" * 80 + "/CLAUDE.md", (hostile,)) in (True, False)
