"""`check`, `fix` and `context` model the same thing by default: the repository, the user's memory in
$HOME and this project's auto-memory folder there (`~/.claude/projects/<project path with every
character other than a-z, A-Z and 0-9 made `-`>/memory`, as the README says). `--no-home` models the
repository alone. HOME here is a folder of the test's own (tests/conftest.py keeps the real one out)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.cli import main


def _project_with_cut_memory(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A project (a git root) and a HOME whose auto memory for it has a 320-line MEMORY.md."""
    home = tmp_path / "home"
    project = tmp_path / "shop"
    (project / ".git").mkdir(parents=True)
    (project / "CLAUDE.md").write_text("# Shop\n\nRun `make check` before pushing.\n", encoding="utf-8")
    folder_name = re.sub(r"[^a-zA-Z0-9]", "-", os.path.realpath(project))  # as the README describes it
    memory = home / ".claude" / "projects" / folder_name / "memory"
    memory.mkdir(parents=True)
    lines = ["# Memory", ""] + [f"- Decision {i}: keep invoices in cents, see ticket SHOP-{i}" for i in range(318)]
    (memory / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return project, home, memory


def _run(home: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner(env={"HOME": str(home)}).invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_check_reports_the_cut_memory_in_home_by_default(tmp_path: Path) -> None:
    project, home, memory = _project_with_cut_memory(tmp_path)
    code, out, _ = _run(home, "check", str(project), "--no-cache")
    assert code == 1, out
    assert f"{memory / 'MEMORY.md'}" in out.replace("~/", f"{home}/") and "ML301" in out
    summary = out.strip().splitlines()[-1]
    assert "your auto memory at ~/.claude/projects/" in summary and summary.startswith("Found "), summary


def test_no_home_checks_the_repository_alone(tmp_path: Path) -> None:
    project, home, _ = _project_with_cut_memory(tmp_path)
    code, out, _ = _run(home, "check", str(project), "--no-home", "--no-cache")
    assert code == 0, out
    assert "ML301" not in out
    assert out.strip().endswith("checked: the repository alone (--no-home); Claude Code 2.1.332 modelled).")


def test_fix_models_home_too(tmp_path: Path) -> None:
    project, home, memory = _project_with_cut_memory(tmp_path)
    code, out, _ = _run(home, "fix", str(project), "--no-home")
    assert code == 0 and "ML301" not in out
    assert len((memory / "MEMORY.md").read_text(encoding="utf-8").splitlines()) == 320, "--no-home touched HOME"
    code, out, err = _run(home, "fix", str(project))  # the split of the auto memory's MEMORY.md
    assert "Applied 1 fix (split-memory-index)" in err and "your auto memory at" in out and "ML301" not in out
    assert len((memory / "MEMORY.md").read_text(encoding="utf-8").splitlines()) < 200


def test_context_and_check_agree_on_what_is_loaded(tmp_path: Path) -> None:
    project, home, memory = _project_with_cut_memory(tmp_path)
    code, out, _ = _run(home, "context", str(project), "--format", "json")
    assert code == 0, out
    loaded = {Path(f["path"]).name: f for f in json.loads(out)["files"]}
    assert set(loaded) == {"CLAUDE.md", "MEMORY.md"}
    checked = json.loads(_run(home, "check", str(project), "--select", "ALL", "--format", "json", "--no-cache")[1])
    paths = {v["path"] for v in checked["violations"]}
    assert str(memory / "MEMORY.md") in paths
    assert checked["files_checked"] == 2  # CLAUDE.md and the auto memory's MEMORY.md, as context loads
    code, out, _ = _run(home, "context", str(project), "--no-home", "--format", "json")
    assert {Path(f["path"]).name for f in json.loads(out)["files"]} == {"CLAUDE.md"}
    checked = json.loads(_run(home, "check", str(project), "--no-home", "--format", "json", "--no-cache")[1])
    assert checked["files_checked"] == 1


def test_home_and_no_home_cannot_be_combined(tmp_path: Path) -> None:
    project, home, _ = _project_with_cut_memory(tmp_path)
    for command in ("check", "context"):
        code, _, err = _run(home, command, str(project), "--home", str(home), "--no-home")
        assert code == 2 and "--home and --no-home cannot be combined" in err


@pytest.mark.parametrize("missing", ["nope", "nope/deeper"])
def test_context_of_a_missing_folder_says_it_does_not_exist(tmp_path: Path, missing: str) -> None:
    code, _, err = _run(tmp_path, "context", str(tmp_path / missing))
    assert code == 2 and err.strip() == f"memlint: {tmp_path / missing}: no such folder"


def test_auto_memory_directory_in_the_user_settings_is_followed(tmp_path: Path) -> None:
    """`autoMemoryDirectory` in ~/.claude/settings.json moves the auto memory: check and context go there."""
    project, home, _ = _project_with_cut_memory(tmp_path)
    moved = home / "notes" / "shop-memory"
    moved.mkdir(parents=True)
    (moved / "MEMORY.md").write_text("# Memory\n\n" + "".join(f"- Entry {i}\n" for i in range(250)), encoding="utf-8")
    (home / ".claude" / "settings.json").write_text(json.dumps({"autoMemoryDirectory": "~/notes/shop-memory"}),
                                                     encoding="utf-8")
    code, out, _ = _run(home, "check", str(project), "--no-cache")
    assert code == 1 and "ML301" in out and "MEMORY.md is 252 lines" in out
    assert "your auto memory at ~/notes/shop-memory" in out.strip().splitlines()[-1]
    code, out, _ = _run(home, "context", str(project), "--format", "json")
    assert str(moved / "MEMORY.md") in {f["path"] for f in json.loads(out)["files"]}
