"""An include that is one problem for one start folder and a worse one for another is reported as
the worse one, naming only the start folders where it is that problem."""

from __future__ import annotations

from pathlib import Path

from memlint import api
from memlint.config import load_config


def test_a_self_include_is_external_only_where_it_is_outside(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "CLAUDE.md").write_text("# Project\n@CLAUDE.md\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "CLAUDE.md").write_text("# Sub\n", encoding="utf-8")
    report = api.check([tmp_path], load_config(tmp_path))
    # external only from `sub/` (the project root holds CLAUDE.md), and there CLAUDE.md loads anyway as the
    # ancestor's memory file: nothing is lost anywhere, so ML107 says nothing
    assert not [v for v in report.violations if v.code == "ML107"]
