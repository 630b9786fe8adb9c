"""Configuration: found by walking up, validated once, errors name the key (exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.cli import main
from memlint.config import load_config
from memlint.errors import ConfigError


def _tree(tmp_path: Path, toml: str) -> Path:
    (tmp_path / "pyproject.toml").write_text(f"[tool.memlint]\n{toml}\n", encoding="utf-8")
    sub = tmp_path / "pkg"
    sub.mkdir()
    (sub / "CLAUDE.md").write_text("# Pkg\n\nSee @missing.md for details.\n", encoding="utf-8")
    return sub


@pytest.mark.parametrize(
    ("toml", "named"),
    [
        ('selct = ["ALL"]', "'selct'"),
        ('select = ["ML999"]', "select"),
        ('ignore = "ML101"', "ignore"),
        ('[tool.memlint.options.ML202]\nwindow = "big"', "options.ML202.window"),
        ('[tool.memlint.options.ML202]\ntokenizer = "gpt"', "options.ML202.tokenizer"),
        ('[tool.memlint.options.ML202]\nwindoww = 1', "options.ML202.windoww"),
        ('per-file-ignores = ["x"]', "per-file-ignores"),
    ],
)
def test_bad_config_is_one_line_naming_the_key_and_exit_2(tmp_path: Path, toml: str, named: str) -> None:
    sub = _tree(tmp_path, toml)
    with pytest.raises(ConfigError, match=named.replace(".", r"\.").replace("[", r"\[")):
        load_config(sub)
    result = CliRunner().invoke(main, ["check", str(sub)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output and named in result.output


def test_config_found_by_walking_up_selects_and_ignores(tmp_path: Path) -> None:
    sub = _tree(tmp_path, 'select = ["ML1"]\nignore = ["include-target-missing"]')
    config = load_config(sub)
    assert config.path == tmp_path / "pyproject.toml"
    assert "ML101" not in config.selected and "ML102" in config.selected and "ML301" not in config.selected
    result = CliRunner().invoke(main, ["check", str(sub)])
    assert result.exit_code == 0, result.output


def test_per_file_ignores_and_inline_suppression(tmp_path: Path) -> None:
    sub = _tree(tmp_path, '[tool.memlint.per-file-ignores]\n"pkg/CLAUDE.md" = ["ML101"]')
    assert CliRunner().invoke(main, ["check", str(sub), "--select", "ML101"]).exit_code == 0
    other = tmp_path / "other"
    other.mkdir()
    (other / "CLAUDE.md").write_text(
        "# Other\n<!-- memlint: disable-next-line include-target-missing -->\nSee @gone.md here.\n"
        "<!-- memlint: disable-next-line ML101 -->\nNothing to silence.\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(other), "--select", "ML101,ML902"])
    assert result.exit_code == 1
    assert "ML101 include-target-missing" not in result.stdout
    assert "ML902 unused-suppression" in result.stdout and ":4:1:" in result.stdout


def test_memlint_toml_wins_over_pyproject_in_the_same_folder(tmp_path: Path) -> None:
    sub = _tree(tmp_path, 'select = ["ML1"]')
    (tmp_path / ".memlint.toml").write_text('select = ["ML2"]\n', encoding="utf-8")
    assert load_config(sub).selected == frozenset({"ML201", "ML202", "ML203", "ML204"})


@pytest.mark.parametrize(
    ("name", "text", "where"),
    [
        (".memlint.toml", 'selct = ["ALL"]\n', "at the top level of .memlint.toml"),
        (".memlint.toml", '[tool.memlint]\nselct = ["ALL"]\n', "in [tool.memlint]"),
        ("pyproject.toml", '[tool.memlint]\nselct = ["ALL"]\n', "in [tool.memlint]"),
    ],
)
def test_an_unknown_key_names_the_table_it_is_in(tmp_path: Path, name: str, text: str, where: str) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "CLAUDE.md").write_text("# P\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(tmp_path), "--no-home"])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"memlint: {tmp_path / name}: unknown key 'selct' {where} (known: ")
