"""The after-compact view of `memlint context` agrees with what the real Claude Code 2.1.332 sent
after `/compact` (recorded in after_compact_2.1.332.json by driver.py; re-checked live with
MEMLINT_ORACLE=1)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.api import context
from memlint.cli import main
from tests.compaction import driver

RECORDING = json.loads((Path(__file__).parent / "after_compact_2.1.332.json").read_text(encoding="utf-8"))


def _build(tmp_path: Path) -> tuple[Path, Path, Path]:
    tree, home = tmp_path / "tree", tmp_path / "home"
    for rel, text in driver.TREE.items():
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_text(text, encoding="utf-8")
    memory = context(tree, home=home).loaded.automem_dir
    memory.mkdir(parents=True)
    for name, text in driver.MEMORY.items():
        (memory / name).write_text(text, encoding="utf-8")
    return tree, home, memory


def _rel(path: str, tree: Path, memory: Path) -> str:
    p = Path(path)
    return "@memory/" + p.name if p.parent == memory else p.relative_to(tree).as_posix()


def test_model_agrees_with_the_recording(tmp_path: Path) -> None:
    tree, home, memory = _build(tmp_path)
    view = context(tree, home=home).to_dict()["after_compact"]
    assert sorted(_rel(p, tree, memory) for p in view["reinjected"]) == RECORDING["start_block"]
    assert sorted(_rel(p, tree, memory) for p in view["gone_until_read"]) == RECORDING["absent"]
    read = {r for r in driver.READS}
    assert set(RECORDING["reattached_read"]) == read  # every file read before /compact came back


def test_text_output(tmp_path: Path) -> None:
    tree, home, _ = _build(tmp_path)
    out = CliRunner(env={"NO_COLOR": "1"}).invoke(main, ["context", str(tree), "--home", str(home)]).stdout
    assert "After /compact (or auto-compact):" in out
    assert "sent again whole: the 2 files loaded at start" in out
    assert "(conditional-rule 1, nested-claude-md 1)" in out


@pytest.mark.oracle
def test_recording_matches_live_claude_code(tmp_path: Path) -> None:
    if os.environ.get("MEMLINT_ORACLE") != "1":
        pytest.skip("live Claude Code runs only with MEMLINT_ORACLE=1")
    if not (driver.ORACLE_DIR / "cc_oracle.py").exists():
        pytest.skip(f"oracle not found in {driver.ORACLE_DIR}")
    assert driver.observe(tmp_path) == RECORDING
