"""`memlint check --staged` reads the repository as the git index holds it (memlint/staged.py), in a
real git repository (the pre-commit hooks that use it: test_precommit.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.cli import main

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
       "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1"}


def _git(repo: Path, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")} | ENV
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def _check(repo: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", str(repo), "--staged", "--no-home", *args])
    return result.exit_code, result.stdout + result.stderr


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    _git(repo, "init", "-q")
    (repo / "docs" / "guide.md").write_text("# Guide\n", encoding="utf-8")
    (repo / "CLAUDE.md").write_text("# Project\n\nRead @docs/guide.md first.\n", encoding="utf-8")
    return repo


def test_an_untracked_include_target_is_missing(repo: Path) -> None:
    _git(repo, "add", "CLAUDE.md")
    code, out = _check(repo)
    assert code == 1 and "ML101" in out and "docs/guide.md" in out
    assert "note: --staged: docs/guide.md is only in the working tree (untracked or ignored)" in out
    assert CliRunner().invoke(main, ["check", str(repo), "--no-home"]).exit_code == 0  # the working tree has it
    _git(repo, "add", "docs/guide.md")
    assert _check(repo)[0] == 0


def test_a_deletion_not_staged_still_counts_as_present(repo: Path) -> None:
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "one")
    (repo / "docs" / "guide.md").unlink()
    assert _check(repo)[0] == 0
    _git(repo, "rm", "-q", "docs/guide.md")
    code, out = _check(repo)
    assert code == 1 and "ML101" in out  # the commit deletes it: the include CLAUDE.md keeps breaks


def test_the_staged_text_is_checked_not_the_working_tree(repo: Path) -> None:
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "one")
    (repo / "CLAUDE.md").write_text("# Project\n\nRead @docs/gone.md first.\n", encoding="utf-8")
    _git(repo, "add", "CLAUDE.md")
    (repo / "CLAUDE.md").write_text("# Project\n\nRead @docs/guide.md first.\n", encoding="utf-8")  # not staged
    code, out = _check(repo)
    assert code == 1 and "docs/gone.md" in out


def test_a_deleted_claude_md_still_staged_is_checked(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("# Project\n\nRead @docs/gone.md first.\n", encoding="utf-8")
    _git(repo, "add", "-A")
    (repo / "CLAUDE.md").unlink()
    code, out = _check(repo)
    assert code == 1 and "CLAUDE.md:3" in out and "docs/gone.md" in out


def test_while_committing_only_what_the_commit_changes_or_breaks(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("# Project\n\nRead @docs/guide.md first.\n", encoding="utf-8")
    (repo / ".claude").mkdir(exist_ok=True)  # a second file: one file's missing includes are one finding
    (repo / ".claude" / "CLAUDE.md").write_text("Also @../docs/gone.md.\n", encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "broken already")
    code, out = _check(repo)
    assert code == 1 and "docs/gone.md" in out  # nothing staged: the whole committed tree is checked
    (repo / "notes.txt").write_text("unrelated\n", encoding="utf-8")
    _git(repo, "add", "notes.txt")
    assert _check(repo)[0] == 0  # the commit does not touch the broken include
    _git(repo, "rm", "-q", "docs/guide.md")
    code, out = _check(repo)
    assert code == 1 and "docs/guide.md" in out and "docs/gone.md" not in out  # only what the commit breaks


def test_staged_outside_a_repository_and_with_fixes_are_usage_errors(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("# P\n", encoding="utf-8")
    code, out = _check(tmp_path)
    assert code == 2 and "not in a git repository" in out
    result = CliRunner().invoke(main, ["check", str(tmp_path), "--staged", "--fix"])
    assert result.exit_code == 2 and "--staged" in result.stderr
