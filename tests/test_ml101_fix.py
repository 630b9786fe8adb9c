"""ML101's fix (issue 28, point 4): an include written relative to the project root is rewritten
relative to the including file when the file it names exists there. The fixture cases
(tests/rules/ML101-include-target-missing/) check the exact result and that a second fix changes
nothing; here: `--show-fixes` lists it, every default rule is clean afterwards, and the fix is not
offered where the rewritten include would not load that very file."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from click.testing import CliRunner

from memlint.cli import main

FIXTURES = Path(__file__).parent / "rules" / "ML101-include-target-missing"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*args, "--no-cache"])
    return result.exit_code, result.output


def test_show_fixes_lists_the_rewrite_and_nothing_is_left(tmp_path: Path) -> None:
    tree = tmp_path / "repo"
    shutil.copytree(FIXTURES / "fix-dot-claude-paths" / "input", tree)
    code, out = run("check", str(tree), "--fix", "--show-fixes")
    assert code == 0, out
    assert "1 × ML101 (include-target-missing)" in out
    assert (tree / ".claude" / "CLAUDE.md").read_bytes() == (
        FIXTURES / "fix-dot-claude-paths" / "fixed" / ".claude" / "CLAUDE.md").read_bytes()
    code, out = run("check", str(tree))  # every default rule, not only ML101
    assert code == 0 and "All checks passed" in out, out
    assert sorted(p.name for p in (tree / ".claude").iterdir()) == ["CLAUDE.md", "context", "conventions.md", "tasks"]


def test_no_fix_when_the_meant_file_is_a_link_out_of_the_project(tmp_path: Path) -> None:
    outside = tmp_path / "shared"
    outside.mkdir()
    (outside / "style.md").write_text("Use tabs.\n")
    tree = tmp_path / "repo"
    (tree / ".claude").mkdir(parents=True)
    os.symlink(outside / "style.md", tree / "style.md")
    (tree / ".claude" / "CLAUDE.md").write_text("Style: @style.md\n")
    before = (tree / ".claude" / "CLAUDE.md").read_bytes()
    code, out = run("check", str(tree), "--fix", "--select", "ML101", "--claude-code", "2.1.332")
    assert code == 1 and "ML101" in out
    assert (tree / ".claude" / "CLAUDE.md").read_bytes() == before


def test_the_fix_follows_a_symlinked_includer_to_its_real_folder(tmp_path: Path) -> None:
    tree = tmp_path / "repo"
    (tree / "docs").mkdir(parents=True)
    (tree / "docs" / "AGENTS.md").write_text("Guide: @docs/guide.md\n")
    (tree / "docs" / "guide.md").write_text("Use pnpm.\n")
    os.symlink("docs/AGENTS.md", tree / "CLAUDE.md")
    code, out = run("check", str(tree), "--select", "ML101")
    assert code == 1 and "`docs/docs/guide.md` does not exist" in out and "write `@guide.md`" in out, out
    code, out = run("check", str(tree), "--fix", "--select", "ML101")
    assert code == 0, out
    assert (tree / "docs" / "AGENTS.md").read_text() == "Guide: @guide.md\n"
    assert (tree / "CLAUDE.md").is_symlink()
