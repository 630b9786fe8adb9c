"""A `.gitignore` or `.ignore` line that git takes for no pattern (a lone `!`, a trailing `\\`)
matches nothing, as in git, and one that pathspec cannot compile (a backward range `[z-a]`, which
git reads as its first character) is skipped; neither stops a run (each was an internal error, exit
2, from any such file anywhere in the tree)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.cli import main
from memlint.model.source.ignorefiles import gitignore_spec, is_gitignore_pattern

# lines git skips, lines with a backward range, then lines both keep (`[[`: Python warns of a nested set)
GIT_SKIPS = ["!", "foo\\"]
BACKWARD = ["[z-a]", "?[.-\t]"]
SKIPPED = GIT_SKIPS + BACKWARD
KEPT = ["bar", "*.log", "[[]x", "# comment", ""]
NAMES = ["foo", "foo\\", "!", "bar", "a.log", "z", "a", "[x", "b.md"]


def test_lines_git_skips_are_skipped_and_the_others_match() -> None:
    assert [is_gitignore_pattern(line) for line in SKIPPED] == [False] * len(SKIPPED)
    assert all(is_gitignore_pattern(line) for line in KEPT)
    spec = gitignore_spec(SKIPPED + KEPT)
    assert sorted(name for name in NAMES if spec.match_file(name)) == ["[x", "a.log", "bar"]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_same_names_as_git_check_ignore(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("\n".join(GIT_SKIPS + KEPT) + "\n", encoding="utf-8")
    for name in NAMES:
        (tmp_path / name).write_text("x\n", encoding="utf-8")
    done = subprocess.run(["git", "check-ignore", "--no-index", "-z", "--stdin"], cwd=tmp_path, input="\0".join(NAMES),
                          capture_output=True, text=True, check=False)
    ignored = sorted(filter(None, done.stdout.split("\0")))
    spec = gitignore_spec(GIT_SKIPS + KEPT)
    assert sorted(name for name in NAMES if spec.match_file(name)) == ignored


@pytest.mark.parametrize("ignore_file", [".gitignore", ".ignore"])
@pytest.mark.parametrize("line", SKIPPED)
def test_a_tree_with_such_a_line_is_checked(tmp_path: Path, ignore_file: str, line: str) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "CLAUDE.md").write_text("# Project\n\nSee @docs/gone.md\n", encoding="utf-8")
    (tmp_path / "CLAUDE.local.md").write_text("# Mine\n", encoding="utf-8")  # (ML605 reads the .gitignore files)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ignore_file).write_text(f"{line}\nbuild/\n", encoding="utf-8")
    (tmp_path / ignore_file).write_text(f"{line}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(tmp_path), "--no-home", "--no-cache"])
    assert result.exit_code == 1, result.output
    assert "ML101" in result.output and "internal error" not in result.output and "Warning" not in result.output
