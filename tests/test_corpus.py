"""memlint never crashes on real memory files: ../shared/corpus/ (skipped where it is absent)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.cli import main

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
REPOS = sorted(p for p in CORPUS.iterdir() if p.is_dir()) if CORPUS.is_dir() else []
pytestmark = pytest.mark.skipif(not REPOS, reason=f"no corpus at {CORPUS}")


def _starts(repo: Path) -> list[Path]:
    starts = [repo]
    for folder, subfolders, names in os.walk(repo):
        subfolders[:] = [d for d in subfolders if d not in (".git", "node_modules")]
        if "CLAUDE.md" in names and Path(folder) != repo:
            starts.append(Path(folder))
    return starts


@pytest.mark.parametrize("repo", REPOS, ids=[r.name for r in REPOS])
def test_context_exits_0(repo: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    for start in _starts(repo):
        result = runner.invoke(main, ["context", str(start), "--home", str(tmp_path), "--format", "json"])
        assert result.exit_code == 0, f"{start}: {result.output}\n{result.exception!r}"
        data = json.loads(result.stdout)
        assert data["total_chars"] == sum(f["chars"] for f in data["files"])


@pytest.mark.parametrize("repo", REPOS, ids=[r.name for r in REPOS])
def test_check_exits_0_or_1(repo: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["check", str(repo), "--home", str(tmp_path), "--format", "json"])
    assert result.exit_code in (0, 1), f"{result.output}\n{result.exception!r}"
    assert not any(v["code"] == "ML901" for v in json.loads(result.stdout)["violations"]), "a rule crashed"
