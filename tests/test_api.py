"""The Python API takes paths as str or os.PathLike, one or many."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memlint import api


class _Where(os.PathLike[str]):
    def __init__(self, path: Path) -> None:
        self.path = path

    def __fspath__(self) -> str:
        return str(self.path)


def test_check_accepts_str_pathlike_and_one_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "CLAUDE.md").write_text("# P\n\nSee @gone.md\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for paths in (["."], ".", [tmp_path], _Where(tmp_path), [str(tmp_path / "CLAUDE.md")]):
        report = api.check(paths)
        assert [v.code for v in report.violations if v.code == "ML101"] == ["ML101"], paths
    assert api.check().files_checked == 1
    outcome = api.fix(["."], unsafe=True)
    assert outcome.report.files_checked == 1 and outcome.initial
    loaded = api.context(str(tmp_path), home=str(tmp_path / "home"))
    assert [f.path.name for f in loaded.loaded.files] == ["CLAUDE.md"]
