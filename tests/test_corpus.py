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


# ML510's finding depends on the start folders of the run (issue 9): the loader engineer reworks it.
INVOCATION_DEPENDENT = {"ML510"}


def _findings(paths: list[Path], home: Path) -> set[tuple[str, int, str, str]]:
    from memlint import api
    from memlint.config import load_config

    report = api.check(paths, load_config(paths[0]), home)
    return {(str(v.path), v.line, v.code, v.message) for v in report.violations if v.code not in INVOCATION_DEPENDENT}


@pytest.mark.skipif(len(REPOS) < 2, reason="needs at least two corpus repositories")
def test_findings_do_not_depend_on_invocation(tmp_path: Path) -> None:
    """Checking every repository in one run reports exactly what checking them one by one does."""
    one_by_one: set[tuple[str, int, str, str]] = set()
    for repo in REPOS:
        one_by_one |= _findings([repo], tmp_path)
    assert _findings(REPOS, tmp_path) == one_by_one


def test_default_output_has_no_opt_in_rules(tmp_path: Path) -> None:
    from memlint.rules import all_rules

    opt_in = {r.code for r in all_rules() if not r.meta.default}
    assert {"ML314", "ML316", "ML320"} <= opt_in
    result = CliRunner().invoke(main, ["check", *map(str, REPOS), "--home", str(tmp_path), "--format", "json"])
    assert not {v["code"] for v in json.loads(result.stdout)["violations"]} & opt_in
