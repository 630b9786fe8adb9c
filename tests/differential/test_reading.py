"""`memlint context --reading FILE` against the real Claude Code: for every recorded case that reads a
file (cases_reads.py and the C05/C17 cases), what memlint says is attached, and how it arrives, equals
what the CLI of that release attached (the recording's `after_read`).

    pytest tests/differential/test_reading.py                        # memlint vs recordings
    MEMLINT_ORACLE=1 pytest tests/differential/test_reading.py -m oracle   # live CLI vs recordings
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.oracle_live import live_json, require_live

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cases import CASES, Case, attached, build, case_launch, oracle_args, placeholders

RECORDINGS = HERE / "recordings"
RELEASES = ("2.1.197", "2.1.332")
READS = [(r, c) for r in RELEASES for c in CASES if c.read is not None and (c.releases is None or r in c.releases)]
IDS = [f"{r}-{c.name}" for r, c in READS]


def _expected(release: str, case: Case) -> list[dict[str, str]]:
    data: dict[str, Any] = json.loads((RECORDINGS / release / f"{case.name}.json").read_text(encoding="utf-8"))
    return sorted(data["after_read"], key=lambda a: (a["path"], a["via"]))


def _shown(items: list[dict[str, Any]], tree: Path, home: Path) -> list[dict[str, str]]:
    subs = placeholders(tree, home)
    out = []
    for item in items:
        path = item["path"]
        for old, new in subs:
            path = path.replace(old, new)
        out.append({"path": path, "via": item["via"]})
    return sorted(out, key=lambda a: (a["path"], a["via"]))


def test_the_read_cases_cover_what_the_issue_names() -> None:
    names = {c.name for _, c in READS}
    assert {"rr01_nested_chain", "rr02_agents_fallback_chain", "rr05_conditional_globs",
            "rr06_outside_start_folder", "rr07_ancestor_rules"} <= names


@pytest.mark.parametrize(("release", "case"), READS, ids=IDS)
def test_reading_matches_claude_code(release: str, case: Case, tmp_path: Path) -> None:
    from memlint.model.release import pick
    from memlint.reading import reading

    tree, home = build(case, tmp_path)
    launch = case_launch(case, tree, home)
    assert case.read is not None
    answer = reading(tree / case.cwd, tree / case.read, home, tmp_path / "no-managed", pick(release), launch)
    data = answer.to_dict()
    assert data["claude_code"] == release
    assert _shown(data["attached"], tree, home) == _expected(release, case), case.note
    for item in data["attached"]:
        assert item["why"] and item["reason"] in (
            "nested-claude-md", "nested-rule", "nested-agents-md", "conditional-rule", "include")


@pytest.mark.parametrize("release", RELEASES)
def test_the_command_prints_the_same_answer(release: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memlint.cli import main

    case = next(c for _, c in READS if c.name == "rr01_nested_chain")
    tree, home = build(case, tmp_path)
    monkeypatch.chdir(tree)
    args = ["context", ".", "--home", str(home), "--managed-dir", str(tmp_path / "none"),
            "--claude-code", release, "--reading", "a/b/c/f.py"]
    result = CliRunner().invoke(main, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert _shown(data["attached"], tree, home) == _expected(release, case)
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0
    assert "reading a/b/c/f.py attaches 7 files" in text.output
    assert "included by a/b/CLAUDE.local.md:1" in text.output


def test_reason_words_for_each_kind(tmp_path: Path) -> None:
    from memlint.model.release import pick
    from memlint.reading import reading

    case = next(c for _, c in READS if c.name == "rr07_ancestor_rules")
    tree, home = build(case, tmp_path)
    answer = reading(tree / "a/b", tree / "a/b/src/x.py", home, tmp_path / "none", pick("2.1.332"))
    why = {answer.show(a.path): a.why for a in answer.attached}
    assert "matches `src/x.py`" in why[".claude/rules/own.md"]
    assert "relative to" in why[str(tree / "a/.claude/rules/mid.md")]
    outside = reading(tree / "a/b", tree / "CLAUDE.md", home, tmp_path / "none", pick("2.1.332"))
    assert outside.attached == () and "outside the start folder" in outside.note


@pytest.mark.oracle
@pytest.mark.parametrize(("release", "case"), READS, ids=IDS)
def test_recorded_reads_match_live_claude_code(release: str, case: Case, tmp_path: Path) -> None:
    require_live()
    tree, home = build(case, tmp_path)
    live = live_json(tree, *oracle_args(case, tree, home), release=release)
    got = sorted(attached(live.get("after_read", []), tree, home), key=lambda a: (a["path"], a["via"]))
    assert got == _expected(release, case), case.note


def test_a_refused_read_says_which_deny_rule(tmp_path: Path) -> None:
    from memlint.model.release import pick
    from memlint.reading import reading

    case = next(c for _, c in READS if c.name == "rr13_read_denied")
    tree, home = build(case, tmp_path)
    answer = reading(tree, tree / "a/b/f.py", home, tmp_path / "none", pick("2.1.332"))
    assert answer.attached == ()
    assert "refuses the Read: the deny rule 'Read(./a/**)'" in answer.note


def test_a_read_below_an_automount_root_says_its_memory_is_skipped(tmp_path: Path) -> None:
    from memlint.model.release import pick
    from memlint.reading import reading

    case = next(c for _, c in READS if c.name == "rr15_read_in_automount_root")
    tree, home = build(case, tmp_path)
    launch = case_launch(case, tree, home)
    answer = reading(tree, tree / "a/f.py", home, tmp_path / "none", pick("2.1.332"), launch)
    assert answer.attached == ()
    assert f"the memory of {tree / 'a'} is skipped: CLAUDE_CODE_AUTOMOUNT_ROOTS lists it" in answer.note
    before = reading(tree, tree / "a/f.py", home, tmp_path / "none", pick("2.1.322"), launch)
    assert [a.path.name for a in before.attached] == ["CLAUDE.md", "CLAUDE.local.md"]
    assert "AUTOMOUNT" not in before.note
