"""File discovery like ruff's: .gitignore and .ignore respected (nested files, negation, folders
above the root up to the repository top, .git/info/exclude), never by running git;
--no-respect-gitignore; exclude / extend-exclude; a file named on the command line is always checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.cli import main
from memlint.model.loading.discovery import discover


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _found(root: Path, **kwargs: bool) -> set[str]:
    return {f.path.relative_to(root.absolute()).as_posix() for f in discover([root], **kwargs)}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / ".git" / "info").mkdir(parents=True)
    _write(tmp_path / ".git" / "info" / "exclude", "scratch/\n")
    _write(tmp_path / ".gitignore", "build/\n*.bak.md\n/out\n")
    _write(tmp_path / "CLAUDE.md", "# Root\n")
    _write(tmp_path / "build" / "docs" / "CLAUDE.md", "# A built copy\n\n@../../nowhere.md\n")
    _write(tmp_path / "out" / "CLAUDE.md", "# Out\n")
    _write(tmp_path / "pkg" / "out" / "CLAUDE.md", "# Not anchored: kept\n")
    _write(tmp_path / "scratch" / "CLAUDE.md", "# Scratch\n")
    _write(tmp_path / "pkg" / ".gitignore", "generated/\n!keep.bak.md\n")
    _write(tmp_path / "pkg" / "generated" / "CLAUDE.md", "# Generated\n")
    _write(tmp_path / "pkg" / "CLAUDE.md", "# Pkg\n")
    _write(tmp_path / "pkg" / "keep.bak.md" / "CLAUDE.md", "# Re-included by the nested negation\n")
    _write(tmp_path / "pkg" / "old.bak.md" / "CLAUDE.md", "# Ignored by the root pattern\n")
    _write(tmp_path / "vendor" / ".ignore", "*\n!.ignore\n")
    _write(tmp_path / "vendor" / "CLAUDE.md", "# Vendored\n")
    _write(tmp_path / "private" / ".gitignore", "CLAUDE.local.md\n.claude/\n")
    _write(tmp_path / "private" / "CLAUDE.local.md", "# Mine\n")
    _write(tmp_path / "private" / ".claude" / "rules" / "mine.md", "# My rule\n")
    return tmp_path


def test_gitignore_and_ignore_files_are_respected(repo: Path) -> None:
    found = _found(repo)
    assert "CLAUDE.md" in found and "pkg/CLAUDE.md" in found and "pkg/out/CLAUDE.md" in found
    for ignored in ("build/docs/CLAUDE.md", "out/CLAUDE.md", "scratch/CLAUDE.md", "pkg/generated/CLAUDE.md",
                    "vendor/CLAUDE.md"):
        assert ignored not in found, ignored
    # private memory that Claude Code loads is checked although it is gitignored on purpose
    assert {"private/CLAUDE.local.md", "private/.claude/rules/mine.md"} <= found


def test_parent_gitignore_counts_when_checking_a_subfolder(repo: Path) -> None:
    assert _found(repo / "pkg") == {"CLAUDE.md", "out/CLAUDE.md", "keep.bak.md/CLAUDE.md"}


def test_no_respect_gitignore_finds_everything(repo: Path) -> None:
    found = _found(repo, respect_gitignore=False)
    assert {"build/docs/CLAUDE.md", "out/CLAUDE.md", "scratch/CLAUDE.md", "vendor/CLAUDE.md"} <= found


def test_cli_build_copy_gives_no_false_findings(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    result = CliRunner().invoke(main, ["check", ".", "--select", "ML1"])
    assert "build/" not in result.output, result.output
    result = CliRunner().invoke(main, ["check", ".", "--select", "ML1", "--no-respect-gitignore"])
    assert "build/docs/CLAUDE.md" in result.output
    result = CliRunner().invoke(main, ["check", "build/docs/CLAUDE.md", "--select", "ML1"])
    assert "build/docs/CLAUDE.md" in result.output  # named on the command line: always checked


def test_exclude_and_extend_exclude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path / ".memlint.toml", 'exclude = ["legacy/"]\nextend-exclude = ["**/drafts/CLAUDE.md"]\n')
    _write(tmp_path / "CLAUDE.md", "# Root\n")
    _write(tmp_path / "legacy" / "CLAUDE.md", "# Old\n\n@gone.md\n")
    _write(tmp_path / "a" / "drafts" / "CLAUDE.md", "# Draft\n\n@gone.md\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", ".", "--select", "ML101"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["check", "legacy/CLAUDE.md", "--select", "ML101"])
    assert result.exit_code == 1 and "legacy/CLAUDE.md:3" in result.output
    _write(tmp_path / ".memlint.toml", "respect-gitignore = 1\n")
    result = CliRunner().invoke(main, ["check", "."])
    assert result.exit_code == 2 and "respect-gitignore: expected true or false" in result.output


def test_topic_files_are_those_is_file_says(tmp_path: Path) -> None:
    """Topic files beside MEMORY.md come from the folder's listing: what counts is still exactly
    what `Path.is_file` says (a symlink to a file counts; a dangling link, a link loop, a folder do not)."""
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "MEMORY.md").write_text("# Index\n")
    (memory / "plain.md").write_text("x\n")
    (tmp_path / "target.md").write_text("y\n")
    (memory / "linked.md").symlink_to(tmp_path / "target.md")
    (memory / "dangling.md").symlink_to(tmp_path / "gone.md")
    (memory / "loop.md").symlink_to(memory / "loop.md")
    (memory / "folder.md").mkdir()
    topics = {f.path.name for f in discover([], [memory]) if f.role == "topic"}
    expected = {p.name for p in memory.iterdir() if p.name != "MEMORY.md" and p.is_file()}
    assert topics == expected == {"plain.md", "linked.md"}
