"""memlint reads `.git/index` itself (never runs git on the checked repository); here the real git
builds indexes in every format, and memlint's reading must list the same paths as `git ls-files`."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from memlint.config import load_config
from memlint.engine import check
from memlint.rules.security._git import index_paths

GIT = shutil.which("git")
pytestmark = pytest.mark.skipif(GIT is None, reason="the git binary builds the test indexes")


def _git(tree: Path, *args: str) -> str:
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_SYSTEM": "/dev/null", "HOME": str(tree),
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    done = subprocess.run([str(GIT), "-C", str(tree), *args], check=True, capture_output=True, env=env)
    return done.stdout.decode("utf-8", "surrogateescape")


def _repo(tmp_path: Path, *init: str) -> Path:
    tree = tmp_path / "repo"
    (tree / "pkg" / "deep").mkdir(parents=True)
    names = ["CLAUDE.md", "CLAUDE.local.md", "pkg/CLAUDE.local.md", "pkg/deep/a-much-longer-file-name.md",
             "pkg/deep/ä ö.md", ".claude/settings.local.json"]
    for name in names:
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text("# x\n", encoding="utf-8")
    _git(tree, "init", "-q", *init)
    _git(tree, "add", "-A")
    return tree


@pytest.mark.parametrize("version", ["2", "3", "4"])
@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_index_paths_match_git(tmp_path: Path, version: str, object_format: str) -> None:
    try:
        tree = _repo(tmp_path, f"--object-format={object_format}")
    except subprocess.CalledProcessError:
        pytest.skip(f"this git cannot make {object_format} repositories")
    _git(tree, "update-index", "--index-version", version)
    if version == "3":
        _git(tree, "update-index", "--skip-worktree", "CLAUDE.md")  # an extended-flags entry
    listed = frozenset(_git(tree, "-c", "core.quotePath=false", "ls-files", "-z").split("\0")) - {""}
    assert index_paths((tree / ".git" / "index").read_bytes()) == listed


def test_index_paths_rejects_other_data() -> None:
    assert index_paths(b"") is None
    assert index_paths(b"DIRC\x00\x00\x00\x09\x00\x00\x00\x01") is None
    assert index_paths(b"DIRC\x00\x00\x00\x02\x00\x00\x00\x05" + b"\x00" * 30) is None


def test_tracked_local_file_is_reported(tmp_path: Path) -> None:
    tree = _repo(tmp_path)
    (tree / ".gitignore").write_text("CLAUDE.local.md\n.claude/settings.local.json\n", encoding="utf-8")
    report = check([tree], load_config(tree, None, {"select": ["ML605"]}))
    messages = {v.path.relative_to(tree).as_posix(): v.message for v in report.violations}
    # ignored now, but already in the index: every clone still gets them
    assert set(messages) == {"CLAUDE.local.md", "pkg/CLAUDE.local.md", ".claude/settings.local.json"}
    assert all("is tracked by git" in m and "git rm --cached" in m for m in messages.values())
    # force-added: the message says .gitignore lists it, and does not ask to add it there
    assert all("although `.gitignore` lists it" in m and "add it to .gitignore" not in m for m in messages.values())
    _git(tree, "rm", "-q", "--cached", "CLAUDE.local.md", "pkg/CLAUDE.local.md", ".claude/settings.local.json")
    assert not check([tree], load_config(tree, None, {"select": ["ML605"]})).violations


def test_tracked_and_not_ignored_asks_for_the_pattern(tmp_path: Path) -> None:
    tree = _repo(tmp_path)
    report = check([tree], load_config(tree, None, {"select": ["ML605"]}))
    assert report.violations and all("add it to .gitignore" in v.message and "although" not in v.message
                                     for v in report.violations)


def test_untracked_and_not_ignored(tmp_path: Path) -> None:
    tree = _repo(tmp_path)
    _git(tree, "rm", "-q", "--cached", "pkg/CLAUDE.local.md")
    (tree / ".gitignore").write_text("/CLAUDE.local.md\n.claude/\n", encoding="utf-8")
    _git(tree, "rm", "-q", "--cached", "CLAUDE.local.md", ".claude/settings.local.json")
    report = check([tree], load_config(tree, None, {"select": ["ML605"]}))
    assert [(v.path.relative_to(tree).as_posix(), "is not tracked yet" in v.message) for v in report.violations] == [
        ("pkg/CLAUDE.local.md", True)
    ]


def test_no_git_is_run_and_fsmonitor_is_ignored(tmp_path: Path) -> None:
    """A hostile `core.fsmonitor` would run when git reads the index; memlint never runs git."""
    tree = _repo(tmp_path)
    marker = tmp_path / "ran"
    _git(tree, "config", "core.fsmonitor", f"touch {marker}; false")
    check([tree], load_config(tree, None, {"select": ["ML605"]}))
    assert not marker.exists()
