"""`memlint context` as a budget picture: the window from --window, --model or the configuration,
subtotals per kind against the window and the room before auto-compact, a bar per file, deferred
files grouped per folder unless --all. The reserve and buffer are checked against the 2.1.332 CLI."""

from __future__ import annotations

import json
import mmap
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.cli import main
from memlint.model.loading.windows import COMPACT_BUFFER, SUMMARY_RESERVE, model_window

BUNDLE = Path.home() / ".cache" / "cc-oracle" / "2.1.332" / "package" / "claude"


def _tree(tmp_path: Path, nested: int = 0) -> tuple[Path, Path]:
    project, home = tmp_path / "p", tmp_path / "home"
    (project / ".claude" / "rules").mkdir(parents=True)
    (project / "CLAUDE.md").write_text("# Project\n\n" + "Use make.\n" * 40, encoding="utf-8")
    (project / "CLAUDE.local.md").write_text("# Mine\n", encoding="utf-8")
    (project / ".claude" / "rules" / "style.md").write_text("# Style\n\nTabs.\n", encoding="utf-8")
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "CLAUDE.md").write_text("# Me\n\nBe brief.\n", encoding="utf-8")
    for i in range(nested):
        (project / "packages" / f"p{i}").mkdir(parents=True)
        (project / "packages" / f"p{i}" / "CLAUDE.md").write_text(f"# P{i}\n", encoding="utf-8")
    return project, home


def _context(*args: str) -> tuple[int, str]:
    result = CliRunner(env={"NO_COLOR": "1"}).invoke(main, ["context", *args])
    return result.exit_code, result.stdout + result.stderr


def test_model_windows_from_the_cli_model_table() -> None:
    cases = {"claude-opus-4-6": 200_000, "claude-opus-4-7": 1_000_000, "claude-sonnet-4-5-20250929": 200_000,
             "claude-sonnet-4-6[1m]": 1_000_000, "claude-haiku-4-5-20251001": 200_000, "claude-sonnet-5": 1_000_000,
             "claude-opus-4-20250514": 200_000}
    for model, tokens in cases.items():
        window = model_window(model)
        assert window is not None and window.tokens == tokens, model
        assert window.room == tokens - 33_000
    assert model_window("gpt-4o") is None


def test_budget_per_kind_in_json(tmp_path: Path) -> None:
    project, home = _tree(tmp_path)
    code, out = _context(str(project), "--home", str(home), "--format", "json", "--window", "100000")
    assert code == 0, out
    budget = json.loads(out)["budget"]
    assert budget["window"] == 100_000 and budget["window_source"] == "--window"
    assert budget["room_before_compact"] == 100_000 - 20_000 - 13_000
    kinds = {k["kind"]: k for k in budget["kinds"]}
    assert list(kinds) == ["user", "project", "local", "rules"]
    assert kinds["rules"]["files"] == 1 and kinds["project"]["files"] == 1
    project_tokens = kinds["project"]["tokens"]
    assert kinds["project"]["share_of_window"] == round(project_tokens / 100_000, 6)
    assert kinds["project"]["share_of_room"] == round(project_tokens / 67_000, 6)
    assert budget["tokens"] == sum(k["tokens"] for k in kinds.values())


def test_text_names_the_window_and_draws_bars(tmp_path: Path) -> None:
    project, home = _tree(tmp_path)
    code, out = _context(str(project), "--home", str(home), "--model", "claude-opus-4-8")
    assert code == 0, out
    assert "Budget: 1,000,000-token window (Claude Opus 4.8's window); auto-compact fires at 967,000" in out
    claude_line = next(line for line in out.splitlines() if line.strip().startswith("CLAUDE.md "))
    assert claude_line.endswith("█" * 20)
    assert re.search(r"^  rules\s+1\s+\d+\s+0\.0%\s+0\.0%$", out, re.MULTILINE)
    code, out = _context(str(project), "--home", str(home))
    assert "200,000-token window (models without a 1M window" in out
    code, out = _context(str(project), "--model", "gpt-4o")
    assert code == 2 and "--model: 'gpt-4o' is not a Claude model id" in out


def test_window_from_configuration(tmp_path: Path) -> None:
    project, home = _tree(tmp_path)
    config = project / ".memlint.toml"
    config.write_text("[options.context-over-budget]\nwindow = 1000000\n", encoding="utf-8")
    code, out = _context(str(project), "--home", str(home))
    assert code == 0 and f"1,000,000-token window ({config}: options.context-over-budget.window)" in out


def test_deferred_grouped_per_folder_unless_all(tmp_path: Path) -> None:
    project, home = _tree(tmp_path, nested=14)
    code, out = _context(str(project), "--home", str(home))
    assert code == 0 and "Deferred (14)" in out
    assert re.search(r"^  packages/\s+14 files  \(nested-claude-md 14\)$", out, re.MULTILINE), out
    assert "packages/p3/CLAUDE.md" not in out
    code, out = _context(str(project), "--home", str(home), "--all")
    assert all(f"packages/p{i}/CLAUDE.md" in out for i in range(14))


@pytest.mark.slow
@pytest.mark.skipif(not BUNDLE.is_file(), reason="the Claude Code 2.1.332 bundle is not cached (tests/differential)")
def test_reserve_and_buffer_match_the_2_1_332_bundle() -> None:
    with BUNDLE.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
        threshold = re.search(rb"function \w+\(e,n\)\{let o=e-([$\w]+),g=n\.testPctOverride", data)
        reserve = re.search(rb"Math\.min\(e\.maxOutputTokens,([$\w]+)\)", data)
        assert threshold and reserve
        names = {"buffer": bytes(threshold.group(1)), "reserve": bytes(reserve.group(1))}
        values = {}
        for key, name in names.items():
            found = re.search(rb"var " + re.escape(name) + rb"=(\d+)", data)
            assert found
            values[key] = int(found.group(1))
    assert values == {"buffer": COMPACT_BUFFER, "reserve": SUMMARY_RESERVE} == {"buffer": 13_000, "reserve": 20_000}
