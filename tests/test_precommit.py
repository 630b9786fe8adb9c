"""The real pre-commit, with this repository's .pre-commit-hooks.yaml, refuses a commit of a
broken memory tree and accepts it after `memlint fix`. Skipped where pre-commit or git is missing
or the hook environment cannot be installed (no package index)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)


def test_commit_refused_then_accepted_after_fix(tmp_path: Path) -> None:
    pre_commit = shutil.which("pre-commit") or str(Path(sys.executable).parent / "pre-commit")
    if not Path(pre_commit).exists():
        pytest.skip("pre-commit is not installed (pip install -e '.[test]')")
    head = _git(REPO, "rev-parse", "HEAD").stdout.strip()
    if not head or _git(REPO, "cat-file", "-e", f"{head}:.pre-commit-hooks.yaml").returncode != 0:
        pytest.skip("this checkout has no committed .pre-commit-hooks.yaml")
    project = tmp_path / "project"
    project.mkdir()
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    _git(project, "init", "-q")
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {REPO}\n  rev: {head}\n  hooks:\n  - id: memlint\n", encoding="utf-8")
    (project / "docs").mkdir()
    (project / "docs" / "guide.md").write_text("# Guide\n\nRun `make test`.\n", encoding="utf-8")
    (project / "CLAUDE.md").write_text("# Project\n\nRead the guide first: @docs/guide.md.\n", encoding="utf-8")
    install = subprocess.run([pre_commit, "install-hooks"], cwd=project, env=env, capture_output=True, text=True,
                             check=False, timeout=900)
    if install.returncode != 0:
        pytest.skip(f"pre-commit could not build the hook environment: {install.stdout[-300:]}{install.stderr[-300:]}")
    subprocess.run([pre_commit, "install"], cwd=project, env=env, check=True, capture_output=True)
    _git(project, "add", "-A")
    refused = subprocess.run(["git", "commit", "-qm", "broken"], cwd=project, env=env, capture_output=True,
                             text=True, check=False)
    assert refused.returncode != 0, refused.stdout + refused.stderr
    assert "ML102" in refused.stdout + refused.stderr
    memlint = Path(sys.executable).parent / "memlint"
    fixed = subprocess.run([str(memlint), "fix", "--unsafe-fixes", "."], cwd=project, capture_output=True,
                           text=True, check=False)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "@docs/guide.md ." in (project / "CLAUDE.md").read_text(encoding="utf-8")
    _git(project, "add", "-A")
    accepted = subprocess.run(["git", "commit", "-qm", "fixed"], cwd=project, env=env, capture_output=True,
                              text=True, check=False)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
