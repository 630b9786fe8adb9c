"""Baselines: write today's findings, then only new ones are reported, through unrelated edits and
moved lines; a fixed finding drops out when the baseline is rewritten."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.baseline import Baseline, baseline_json
from memlint.cli import main
from memlint.violations import Violation

CLAUDE = "# Project\n\nSee @gone.md for setup.\n"
LOCAL = "# Mine\n\nAlso @lost.md for deploys.\n"  # another file: the missing includes of one file are one finding


def _check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", ".", "--select", "ML101", *args])
    return result.exit_code, result.stdout + result.stderr


def test_round_trip_only_the_new_problem_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    claude = tmp_path / "CLAUDE.md"
    claude.write_text(CLAUDE, encoding="utf-8")
    (tmp_path / "CLAUDE.local.md").write_text(LOCAL, encoding="utf-8")
    code, out = _check("--write-baseline", "baseline.json")
    assert code == 0 and "recorded 2 finding(s)" in out
    data = json.loads((tmp_path / "baseline.json").read_text(encoding="utf-8"))
    assert data["version"] == 1 and [e["code"] for e in data["findings"]] == ["ML101", "ML101"]
    code, out = _check("--baseline", "baseline.json")
    assert code == 0 and out.startswith("All checks passed (2 memory files checked")
    # unrelated edits, the old lines moved around, and one new problem in a new file
    claude.write_text("# Project\n\nIntro   added.\n\nMore text.\n  See @gone.md   for setup.\n", encoding="utf-8")
    (tmp_path / "CLAUDE.local.md").write_text("# Mine\n\nNotes.\n\nAlso @lost.md for deploys.\n", encoding="utf-8")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "CLAUDE.md").write_text("# Pkg\n\n\n\n\n\nNew: @new-missing.md\n", encoding="utf-8")
    code, out = _check("--baseline", "baseline.json")
    lines = [line for line in out.splitlines() if "ML101" in line]
    assert code == 1 and len(lines) == 1 and "new-missing.md" in lines[0] and "CLAUDE.md:7:" in lines[0]


def test_a_fixed_finding_drops_out_when_rewritten(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    claude = tmp_path / "CLAUDE.md"
    claude.write_text(CLAUDE, encoding="utf-8")
    (tmp_path / "CLAUDE.local.md").write_text(LOCAL, encoding="utf-8")
    _check("--write-baseline", "baseline.json")
    (tmp_path / "gone.md").write_text("# Setup\n", encoding="utf-8")
    _check("--write-baseline", "baseline.json")
    data = json.loads((tmp_path / "baseline.json").read_text(encoding="utf-8"))
    assert len(data["findings"]) == 1 and "lost.md" in data["findings"][0]["message"]
    (tmp_path / "gone.md").unlink()  # the old problem comes back: it is new again
    code, out = _check("--baseline", "baseline.json")
    assert code == 1 and "gone.md" in out and "lost.md" not in out


def test_same_fingerprint_counts(tmp_path: Path) -> None:
    path = tmp_path / "CLAUDE.md"
    path.write_text("# P\n\nSee  @gone.md\nSee @gone.md\n", encoding="utf-8")

    def v(line: int) -> Violation:
        return Violation(path, line, 5, "ML101", "include-target-missing", "error", "m", line, 9)

    (tmp_path / "b.json").write_text(baseline_json([v(3)], tmp_path), encoding="utf-8")
    assert Baseline.read(tmp_path / "b.json").new_findings([v(4)], tmp_path) == []  # same normalised text
    assert Baseline.read(tmp_path / "b.json").new_findings([v(3), v(4)], tmp_path) == [v(4)]


def test_bad_baseline_is_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "CLAUDE.md").write_text("# P\n", encoding="utf-8")
    (tmp_path / "b.json").write_text("[1, 2]", encoding="utf-8")
    code, out = _check("--baseline", "b.json")
    assert code == 2 and "not a memlint baseline" in out
    code, out = _check("--baseline", "missing.json")
    assert code == 2 and "cannot read" in out
