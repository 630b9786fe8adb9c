"""A path given with `..` in it (`memlint check ../other/repo`) is the same folder as its normal form:
the same findings, and no rule crashes on files discovered under it (ML605 once did: ML901)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from memlint.cli import main


def _findings(path: str) -> list[tuple[str, str]]:
    result = CliRunner().invoke(main, ["check", path, "--no-home", "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return sorted((Path(v["path"]).name, v["code"]) for v in json.loads(result.stdout)["violations"])


def test_a_path_with_dotdot_is_checked_as_its_normal_form(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()  # no git repository: ignore files are looked for from the folder named
    (repo / "CLAUDE.md").write_text("# Repo\n\nSee @docs/gone.md\n", encoding="utf-8")
    (repo / "CLAUDE.local.md").write_text("My sandbox is at port 8080.\n", encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    found = _findings(str(tmp_path / "elsewhere" / ".." / "repo"))
    assert not [f for f in found if f[1] == "ML901"], found
    assert found == _findings(str(repo))
    assert ("CLAUDE.local.md", "ML605") in found
