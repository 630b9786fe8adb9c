"""A fix leaves no finding that was not there before it: the check after `memlint fix` reports a
subset of what the check before it did (cases found by the hostile sweeps)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from memlint.cli import main


def _codes(root: Path) -> set[tuple[str, str]]:
    result = CliRunner().invoke(main, ["check", str(root), "--no-home", "--no-cache", "--format", "json"])
    return {(Path(v["path"]).name, v["code"]) for v in json.loads(result.stdout)["violations"]}


def test_restoring_session_note_sections_adds_no_finding(tmp_path: Path) -> None:
    # ML401's fix restores `# Current State` without content: ML408 said so before the fix already
    (tmp_path / ".git").mkdir()
    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    (tmp_path / ".memlint.toml").write_text('[session-notes]\npaths = ["notes/*.md"]\n', encoding="utf-8")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.md").write_text(
        "# Worklog\n_Step by step, what was attempted, done? Very terse summary for each step_\n- Ran the export.\n",
        encoding="utf-8")
    before = _codes(tmp_path)
    assert ("a.md", "ML401") in before and ("a.md", "ML408") in before
    fixed = CliRunner().invoke(main, ["fix", str(tmp_path), "--no-home", "--no-cache"])
    assert fixed.exit_code == 1, fixed.output
    after = _codes(tmp_path)
    assert after <= before and ("a.md", "ML401") not in after


def test_a_rename_the_writer_would_refuse_is_not_offered(tmp_path: Path) -> None:
    # `a:b.MD` -> `a:b.md`: the writer never creates a name Windows cannot take, so the finding was
    # marked fixable forever while `memlint fix --unsafe-fixes` said "No fixes applied" (made here,
    # not committed: such names break a checkout on Windows)
    rules = tmp_path / ".claude" / "rules"
    rules.mkdir(parents=True)
    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    (rules / "a:b.MD").write_text("Use tabs.\n", encoding="utf-8")
    (rules / "CON.MD").write_text("Use spaces.\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(tmp_path), "--no-home", "--no-cache", "--format", "json"])
    found = json.loads(result.stdout)["violations"]
    assert [(v["code"], v["fix"]) for v in found] == [("ML501", None), ("ML501", None)]
    assert all("memlint will not:" in v["message"] for v in found)
