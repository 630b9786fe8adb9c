"""The real pre-commit runs this repository's hooks (.pre-commit-hooks.yaml) from a clone of the
current tree: a commit that deletes an included file or breaks an included `.txt` is refused, a
repository without memory files passes, and the fix hook leaves no backup file. The hook
environment is built once (pip, from the configured package index); the tests skip with the reason
when git or pre-commit is missing or the environment cannot be built."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PRE_COMMIT = shutil.which("pre-commit") or str(Path(sys.executable).parent / "pre-commit")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.skipif(not Path(PRE_COMMIT).exists(), reason="pre-commit is not installed (pip install -e '.[test]')"),
]
IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1"}


def _run(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=900)


@dataclass(frozen=True)
class Hooks:
    clone: Path
    rev: str
    env: dict[str, str]

    def project(self, where: Path, hook: str = "memlint", args: str = "") -> Path:
        """A git repository whose pre-commit config runs `hook` from the clone, hooks installed."""
        where.mkdir()
        _run(where, self.env, "git", "init", "-q")
        extra = f"\n    args: {args}" if args else ""
        (where / ".pre-commit-config.yaml").write_text(
            f"repos:\n- repo: {self.clone}\n  rev: {self.rev}\n  hooks:\n  - id: {hook}{extra}\n", encoding="utf-8")
        done = _run(where, self.env, PRE_COMMIT, "install")
        assert done.returncode == 0, done.stdout + done.stderr
        return where

    def commit(self, project: Path, message: str) -> subprocess.CompletedProcess[str]:
        _run(project, self.env, "git", "add", "-A")
        return _run(project, self.env, "git", "commit", "-qm", message)


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hooks]:
    """A clone of this repository with the working tree's memlint, pyproject and hooks committed."""
    base = tmp_path_factory.mktemp("precommit")
    env = {**os.environ, **IDENTITY, "PRE_COMMIT_HOME": str(base / "cache")}
    env.pop("GIT_DIR", None)
    env.pop("GIT_INDEX_FILE", None)
    clone = base / "memlint-clone"
    cloned = _run(base, env, "git", "clone", "-q", "--no-hardlinks", str(REPO), str(clone))
    if cloned.returncode != 0:
        pytest.skip(f"cannot clone this checkout: {cloned.stderr[-300:]}")
    for name in ("memlint", "pyproject.toml", "README.md", "LICENSE", ".pre-commit-hooks.yaml"):
        target = clone / name
        if target.is_dir():
            shutil.rmtree(target)
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, target, ignore=shutil.ignore_patterns("__pycache__"))
        elif (REPO / name).exists():
            shutil.copy2(REPO / name, target)
    _run(clone, env, "git", "add", "-A")
    _run(clone, env, "git", "commit", "-qm", "working tree", "--allow-empty")
    rev = _run(clone, env, "git", "rev-parse", "HEAD").stdout.strip()
    _run(clone, env, "git", "branch", "-f", "main", rev)  # the README's `rev: main`
    found = Hooks(clone, rev, env)
    warm = found.project(base / "warm-up")
    install = _run(warm, env, PRE_COMMIT, "install-hooks")
    if install.returncode != 0:
        pytest.skip(f"pre-commit could not build the hook environment: {install.stdout[-300:]}{install.stderr[-300:]}")
    yield found


def _memory_tree(project: Path) -> None:
    (project / "docs").mkdir()
    (project / "docs" / "guide.md").write_text("# Guide\n\nRun `make test`.\n", encoding="utf-8")
    (project / "docs" / "commands.txt").write_text("make test runs the suite\n", encoding="utf-8")
    (project / "CLAUDE.md").write_text(
        "# Project\n\nRead the guide first: @docs/guide.md\n\nCommands: @docs/commands.txt\n", encoding="utf-8")


def test_deleting_an_included_file_is_refused(hooks: Hooks, tmp_path: Path) -> None:
    project = hooks.project(tmp_path / "p")
    _memory_tree(project)
    first = hooks.commit(project, "memory")
    assert first.returncode == 0, first.stdout + first.stderr
    (project / "docs" / "guide.md").unlink()
    refused = hooks.commit(project, "delete the guide")
    assert refused.returncode != 0, refused.stdout + refused.stderr
    assert "ML101" in refused.stdout + refused.stderr and "docs/guide.md" in refused.stdout + refused.stderr


def test_editing_an_included_txt_runs_the_hook(hooks: Hooks, tmp_path: Path) -> None:
    project = hooks.project(tmp_path / "p")
    _memory_tree(project)
    assert hooks.commit(project, "memory").returncode == 0
    (project / "docs" / "commands.txt").write_text("make test runs the suite\nSee @docs/gone.md\n", encoding="utf-8")
    refused = hooks.commit(project, "edit the txt")
    assert refused.returncode != 0, refused.stdout + refused.stderr
    assert "ML101" in refused.stdout + refused.stderr and "gone.md" in refused.stdout + refused.stderr


def test_repository_without_memory_files_passes(hooks: Hooks, tmp_path: Path) -> None:
    project = hooks.project(tmp_path / "p")
    (project / "main.py").write_text("print('hi')\n", encoding="utf-8")
    done = hooks.commit(project, "code only")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed" in done.stdout + done.stderr


def test_try_repo_on_an_empty_repository_passes(hooks: Hooks, tmp_path: Path) -> None:
    project = tmp_path / "empty"
    project.mkdir()
    _run(project, hooks.env, "git", "init", "-q")
    done = _run(project, hooks.env, PRE_COMMIT, "try-repo", str(hooks.clone), "memlint", "--ref", hooks.rev,
                "--all-files")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed" in done.stdout


def test_fix_hook_fixes_and_leaves_no_backup(hooks: Hooks, tmp_path: Path) -> None:
    # ML320's safe fix rewrites MEMORY.md, the file a backup was kept for (ML320 is not in the default selection)
    project = hooks.project(tmp_path / "p", hook="memlint-fix", args="[--extend-select, ML320]")
    memory = project / ".claude" / "agent-memory" / "reviewer"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("# Memory   \n\n\n\n- [Deploy](deploy.md) — Fridays only\n", encoding="utf-8")
    (memory / "deploy.md").write_text(
        "---\nname: Deploy\ndescription: Fridays only\nmetadata:\n  type: project\n---\n\nDeploy on Fridays.\n",
        encoding="utf-8")
    first = hooks.commit(project, "memory")
    assert first.returncode != 0, first.stdout + first.stderr  # the hook changed files: pre-commit says so
    assert (memory / "MEMORY.md").read_text(encoding="utf-8") == "# Memory\n\n- [Deploy](deploy.md) — Fridays only\n"
    leftovers = [p.name for p in project.rglob("*") if p.name.endswith("~") or ".memlint-" in p.name]
    assert leftovers == []
    second = hooks.commit(project, "memory, fixed")
    assert second.returncode == 0, second.stdout + second.stderr
    assert _run(project, hooks.env, "git", "status", "--porcelain").stdout == ""


def _readme_blocks() -> list[str]:
    from tests.readme_examples import README, blocks

    return [body for _, body in blocks(README.read_text(encoding="utf-8"), "yaml") if "repos:" in body]


def test_readme_local_block_works_today(hooks: Hooks, tmp_path: Path) -> None:
    local = next(block for block in _readme_blocks() if "repo: local" in block)
    project = hooks.project(tmp_path / "p")
    (project / ".pre-commit-config.yaml").write_text(local, encoding="utf-8")
    env = {**hooks.env, "PATH": str(Path(sys.executable).parent) + os.pathsep + hooks.env.get("PATH", "")}
    _run(project, env, "git", "add", "-A")
    assert _run(project, env, "git", "commit", "-qm", "no memory").returncode == 0  # nothing to check passes
    _memory_tree(project)
    _run(project, env, "git", "add", "-A")
    assert _run(project, env, "git", "commit", "-qm", "memory").returncode == 0
    (project / "docs" / "guide.md").unlink()
    _run(project, env, "git", "add", "-A")
    refused = _run(project, env, "git", "commit", "-qm", "delete the guide")
    assert refused.returncode != 0 and "ML101" in refused.stdout + refused.stderr


def test_readme_remote_block_with_a_clone(hooks: Hooks, tmp_path: Path) -> None:
    """The README's block as written (its `rev: main` exists in every copy), with the URL of a
    clone; then pinned as the README says (`pre-commit autoupdate --freeze`: the commit's sha)."""
    remote = next(block for block in _readme_blocks() if "repo: local" not in block)
    url = next(line.split("repo:", 1)[1].strip() for line in remote.splitlines() if "repo:" in line)
    rev = next(line.split("rev:", 1)[1].split("#")[0].strip() for line in remote.splitlines() if "rev:" in line)
    assert rev == "main"
    project = hooks.project(tmp_path / "p")
    config = remote.replace(url, str(hooks.clone))
    (project / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    pinned = _run(project, hooks.env, PRE_COMMIT, "autoupdate", "--freeze")
    assert pinned.returncode == 0, pinned.stdout + pinned.stderr
    assert f"rev: {hooks.rev}" in (project / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    _memory_tree(project)
    (project / "docs" / "commands.txt").unlink()
    refused = hooks.commit(project, "include target missing")
    assert refused.returncode != 0 and "ML101" in refused.stdout + refused.stderr
    (project / "docs" / "commands.txt").write_text("make test\n", encoding="utf-8")
    accepted = hooks.commit(project, "fixed")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr


def test_untracked_include_target_blocks_the_commit(hooks: Hooks, tmp_path: Path) -> None:
    """The hook checks what the commit holds: the guide exists, but only in the working tree."""
    project = hooks.project(tmp_path / "p")
    (project / "docs").mkdir()
    (project / "docs" / "new-guide.md").write_text("# New guide\n", encoding="utf-8")
    (project / "CLAUDE.md").write_text("# Project\n\nRead @docs/new-guide.md first.\n", encoding="utf-8")
    _run(project, hooks.env, "git", "add", "CLAUDE.md", ".pre-commit-config.yaml")
    refused = _run(project, hooks.env, "git", "commit", "-qm", "claude.md without its guide")
    out = refused.stdout + refused.stderr
    assert refused.returncode != 0, out
    assert "ML101" in out and "docs/new-guide.md" in out
    _run(project, hooks.env, "git", "add", "docs/new-guide.md")
    accepted = _run(project, hooks.env, "git", "commit", "-qm", "with the guide")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr


def test_ignored_include_target_blocks_the_commit(hooks: Hooks, tmp_path: Path) -> None:
    project = hooks.project(tmp_path / "p")
    (project / ".gitignore").write_text("private.md\n", encoding="utf-8")
    (project / "private.md").write_text("# Mine\n", encoding="utf-8")
    (project / "CLAUDE.md").write_text("# Project\n\nSee @private.md\n", encoding="utf-8")
    refused = hooks.commit(project, "includes an ignored file")
    assert refused.returncode != 0 and "ML101" in refused.stdout + refused.stderr


def test_unstaged_deletion_does_not_block_the_commit(hooks: Hooks, tmp_path: Path) -> None:
    project = hooks.project(tmp_path / "p")
    _memory_tree(project)
    assert hooks.commit(project, "memory").returncode == 0
    (project / "docs" / "guide.md").unlink()  # deleted in the working tree, still in the index
    (project / "notes.txt").write_text("unrelated\n", encoding="utf-8")
    _run(project, hooks.env, "git", "add", "notes.txt")
    done = _run(project, hooks.env, "git", "commit", "-qm", "notes only")
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_finding_the_commit_does_not_touch_does_not_block_it(hooks: Hooks, tmp_path: Path) -> None:
    project = hooks.project(tmp_path / "p")
    (project / "CLAUDE.md").write_text("# Project\n\nSee @docs/gone.md\n", encoding="utf-8")
    _run(project, hooks.env, "git", "add", "-A")
    assert _run(project, hooks.env, "git", "commit", "-qm", "broken", "--no-verify").returncode == 0
    (project / "main.py").write_text("print('hi')\n", encoding="utf-8")
    done = hooks.commit(project, "code only")
    assert done.returncode == 0, done.stdout + done.stderr
    (project / "CLAUDE.md").write_text("# Project\n\nSee @docs/gone.md (still)\n", encoding="utf-8")
    refused = hooks.commit(project, "touches the broken file")
    assert refused.returncode != 0 and "ML101" in refused.stdout + refused.stderr


def test_each_finding_once_with_both_hooks(hooks: Hooks, tmp_path: Path) -> None:
    """The README's two hooks together: the check hook lists every finding, the fix hook fixes and
    says how many are left, so no finding is printed twice."""
    project = tmp_path / "p"
    project.mkdir()
    _run(project, hooks.env, "git", "init", "-q")
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {hooks.clone}\n  rev: {hooks.rev}\n  hooks:\n  - id: memlint\n  - id: memlint-fix\n",
        encoding="utf-8")
    assert _run(project, hooks.env, PRE_COMMIT, "install").returncode == 0
    (project / "CLAUDE.md").write_text("# Project\n\nSee @docs/gone.md\n", encoding="utf-8")
    (project / ".claude").mkdir()  # a second file: one file's missing includes are one finding
    (project / ".claude" / "CLAUDE.md").write_text("Also @../docs/other.md\n", encoding="utf-8")
    refused = hooks.commit(project, "two broken includes")
    out = refused.stdout + refused.stderr
    assert refused.returncode != 0, out
    lines = [line for line in out.splitlines() if " ML101 " in line]
    assert len(lines) == 2 and len(set(lines)) == 2, out
    assert "2 problems left" in out
