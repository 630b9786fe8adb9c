"""A finding's first line is at most 300 characters (memlint.violations.HEADLINE): a longer message
keeps its start and its last clause around an elided middle, and the whole message is the
finding's `detail` (`--verbose`, `--format json`). Checked here on the splitting itself, on every
finding of both corpora with every rule selected (the rule fixtures: tests/rules/test_rules.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from memlint.cli import main
from memlint.violations import HEADLINE, headline

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPORA = [SHARED / "corpus", SHARED / "corpus-2"]

LONG = ("`docs/notes.md` names 5 paths in one person's home folder that do not exist here: "
        + ", ".join(f"`/home/dev/project/module_{i}/file_{i}.py` (line {i})" for i in range(10))
        + "; Claude is told to use files nobody else has: use a project-relative path")


def test_short_messages_are_kept_whole() -> None:
    assert headline("Claude Code loads nothing for `@a.md`") == ("Claude Code loads nothing for `@a.md`", "")


def test_a_long_message_keeps_its_start_and_its_advice() -> None:
    first, detail = headline(LONG)
    assert len(first) <= HEADLINE and detail == LONG
    assert first.startswith("`docs/notes.md` names 5 paths in one person's home folder that do not exist here: ")
    assert first.endswith(" …; Claude is told to use files nobody else has: use a project-relative path")
    assert first.count("`") % 2 == 0  # never cut inside a code span


def test_asides_go_first() -> None:
    message = ("`pkg/CLAUDE.local.md` (loaded at start in " + ", ".join(f"`pkg/m{i}`" for i in range(20))
               + ") is tracked by git: every clone gets one person's private file; run `git rm --cached` on it")
    first, detail = headline(message)
    assert first == ("`pkg/CLAUDE.local.md` (loaded at start in `pkg/m0`, `pkg/m1`, `pkg/m2`, …) is tracked by git: "
                     "every clone gets one person's private file; run `git rm --cached` on it") and detail == message


def test_an_aside_that_is_no_list_is_elided_whole() -> None:
    message = "`a.md` (" + "word " * 80 + ") is tracked by git; untrack it"
    assert headline(message)[0] == "`a.md` (…) is tracked by git; untrack it"


def test_a_list_cut_in_a_headline_keeps_its_items_whole() -> None:
    message = "points at missing files (" + "; ".join(f"line {n}: `docs/page-{n}.md`" for n in range(40)) + "); fix them"
    first, _ = headline(message)
    assert first == "points at missing files (line 0: `docs/page-0.md`; line 1: `docs/page-1.md`; " \
                    "line 2: `docs/page-2.md`; …); fix them"


def test_a_multi_line_message_shows_its_first_line() -> None:
    assert headline("first line\nsecond line") == ("first line", "first line\nsecond line")


@given(st.lists(st.text(alphabet="ab `;:,( é日", min_size=1, max_size=40), min_size=1, max_size=40))
def test_any_message_is_cut_to_a_prefix_and_a_suffix(words: list[str]) -> None:
    message = " ".join(words).replace("\n", " ")
    first, detail = headline(message)
    assert len(first) <= HEADLINE
    if len(message) <= HEADLINE:
        assert (first, detail) == (message, "")
        return
    assert detail == message
    at = 0
    for piece in first.replace("(…)", "…").split("…"):  # what is kept is the message's, in its order
        found = message.find(piece.strip(" ,;:"), at)
        assert found != -1, (piece, message)
        at = found


@pytest.mark.slow
@pytest.mark.parametrize("corpus", CORPORA, ids=[c.name for c in CORPORA])
def test_every_finding_on_the_corpora_has_a_short_first_line(corpus: Path, tmp_path: Path) -> None:
    repos = sorted(p for p in corpus.iterdir() if p.is_dir()) if corpus.is_dir() else []
    if not repos:
        pytest.skip(f"no corpus at {corpus}")
    result = CliRunner().invoke(main, ["check", *map(str, repos), "--no-home", "--select", "ALL", "--format", "json",
                                       "--no-cache"])
    assert result.exit_code in (0, 1), result.output[-2000:]
    violations = json.loads(result.stdout)["violations"]
    assert violations
    long = [v for v in violations if len(v["message"]) > HEADLINE or "\n" in v["message"]]
    assert not long, long[0]
    shortened = [v for v in violations if "detail" in v]
    assert shortened and all(len(v["detail"]) > HEADLINE for v in shortened)
    assert any("…" in v["message"] for v in shortened)  # cut by the engine (a rule may write its own)


def test_a_rule_may_write_its_own_headline() -> None:
    """ML301 and ML304 say what is lost by name in their first line; the whole message is the detail."""
    examples = Path(__file__).resolve().parents[1] / "examples"
    result = CliRunner().invoke(main, ["check", str(examples / "app"), "--home", str(examples / "home"),
                                       "--select", "ML301,ML304", "--format", "json", "--no-cache"])
    found = {v["code"]: v for v in json.loads(result.stdout)["violations"]}
    assert found["ML301"]["message"].startswith("MEMORY.md is 234 lines (limit 200): lines 201-234 are never loaded; "
                                                "`memlint fix` splits it into ")
    assert "Claude gets instead the line" in found["ML301"]["detail"]
    assert "'Deploy notes', 'Checkout flow', 'Cart totals', …" in found["ML304"]["message"]
    assert all(len(v["message"]) <= HEADLINE and len(v["detail"]) > HEADLINE for v in found.values())
