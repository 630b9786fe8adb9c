"""A bug that escapes a command is one line on stderr and exit 2, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint import api
from memlint.cli import main


def test_an_escaping_error_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")

    def broken(*args: object, **kwargs: object) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(api, "check", broken)
    result = CliRunner().invoke(main, ["check", "--no-cache", str(tmp_path)])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stderr.startswith("memlint: internal error: RecursionError: maximum recursion depth exceeded at ")
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1


def test_usage_errors_are_still_clicks(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["check", "--no-such-option"])
    assert result.exit_code == 2 and "No such option" in result.stderr
