"""The command-line conventions users of ruff and flake8 reach for."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from memlint.cli import main
from memlint.conventions import use_colour

ESC = "\x1b["


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir(parents=True)
    (tmp_path / "docs" / "a.md").write_text("# A\n", encoding="utf-8")
    (tmp_path / "CLAUDE.md").write_text("# P\n\nSee @docs/a.md.\nAnd @gone.md too.\nAlso @lost.md\n", encoding="utf-8")
    return tmp_path


def _invoke(args: list[str], env: dict[str, str] | None = None, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner(env={"NO_COLOR": None, "FORCE_COLOR": None, **(env or {})}).invoke(main, args, input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_colour_never_no_color_and_always(tmp_path: Path) -> None:
    tree = str(_tree(tmp_path))
    code, out, _ = _invoke(["check", tree, "--color", "always"])
    assert code == 1 and ESC in out
    code, out, _ = _invoke(["check", tree, "--color", "never"], env={"FORCE_COLOR": "1"})
    assert code == 1 and ESC not in out and "ML101" in out
    code, out, _ = _invoke(["check", tree], env={"NO_COLOR": "1"})
    assert code == 1 and ESC not in out and "ML101" in out
    code, out, _ = _invoke(["check", tree], env={"FORCE_COLOR": "1"})
    assert ESC in out
    code, out, _ = _invoke(["context", tree, "--color", "always"])
    assert code == 0 and ESC in out
    code, out, _ = _invoke(["context", tree], env={"NO_COLOR": "1", "FORCE_COLOR": "1"})
    assert ESC not in out


def test_use_colour_rules() -> None:
    assert use_colour("auto", True, {}) and not use_colour("auto", False, {})
    assert not use_colour("auto", True, {"NO_COLOR": "1"}) and use_colour("auto", False, {"FORCE_COLOR": "1"})
    assert use_colour("always", False, {"NO_COLOR": "1"}) and not use_colour("never", True, {"FORCE_COLOR": "1"})


def test_exit_zero_quiet_and_output_file(tmp_path: Path) -> None:
    tree = str(_tree(tmp_path / "t"))
    code, out, _ = _invoke(["check", tree, "--exit-zero"])
    assert code == 0 and "ML101" in out
    code, out, _ = _invoke(["check", tree, "-q"])
    assert code == 1 and "ML101" in out and "Found" not in out
    report = tmp_path / "report.json"
    code, out, _ = _invoke(["check", tree, "--format", "json", "--output-file", str(report)])
    assert code == 1 and out == ""
    assert {v["code"] for v in json.loads(report.read_text(encoding="utf-8"))["violations"]} >= {"ML101"}
    code, _, err = _invoke(["check", tree, "--output-file", str(tmp_path / "no" / "such" / "dir.txt")])
    assert code == 2 and "cannot write" in err


def test_statistics(tmp_path: Path) -> None:
    tree = str(_tree(tmp_path))
    code, out, _ = _invoke(["check", tree, "--statistics", "--select", "ML1"])
    lines = out.strip().splitlines()
    # the two missing includes of CLAUDE.md are one ML101 finding (one cause, one finding)
    assert code == 1 and lines[0].split()[:3] == ["1", "ML101", "include-target-missing"]
    assert any(line.split()[1] == "ML110" and line.endswith("[*]") for line in lines)
    code, out, _ = _invoke(["check", tree, "--statistics", "--select", "ML1", "--format", "json"])
    assert json.loads(out)[0] == {"code": "ML101", "slug": "include-target-missing", "count": 1, "fixable": False}


def test_show_fixes(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    code, out, err = _invoke(["fix", str(tree), "--unsafe-fixes", "--show-fixes", "--select", "ML110"])
    assert code == 0, out + err
    assert "Applied 1 fix (include-trailing-punctuation), resolving 1 finding:\n" in err
    assert "1 × ML110 (include-trailing-punctuation)" in err


def test_stdin_filename_checks_the_buffer_not_the_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree = _tree(tmp_path)
    monkeypatch.chdir(tree)
    code, out, err = _invoke(["check", "-", "--stdin-filename", "CLAUDE.md", "--select", "ML1"],
                             stdin="# P\n\nOnly @missing-from-buffer.md here\n")
    assert code == 1, out + err
    assert "missing-from-buffer.md" in out and "gone.md" not in out
    assert out.splitlines()[0].startswith("CLAUDE.md:3:")
    code, out, err = _invoke(["check", "-", "--stdin-filename", "CLAUDE.md", "--select", "ML1"], stdin="# P\n\nFine.\n")
    assert code == 0, out + err
    code, out, _ = _invoke(["fix", "-", "--stdin-filename", "CLAUDE.md", "--unsafe-fixes", "--select", "ML110"],
                           stdin="# P\n\nSee @docs/a.md.\n")
    assert out == "# P\n\nSee @docs/a.md .\n" and code == 0
    assert "See @docs/a.md.\n" in (tree / "CLAUDE.md").read_text(encoding="utf-8")  # nothing written
    code, _, err = _invoke(["check", "-"], stdin="x")
    assert code == 2 and "--stdin-filename" in err


class _Endless(io.RawIOBase):
    """`/dev/zero` as standard input, counting what was read from it."""

    def __init__(self) -> None:
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        size = len(buffer)
        buffer[:size] = b"\0" * size
        self.given += size
        return size


@pytest.mark.parametrize(("data", "problem"), [
    ("# P\n\nFine.\n".encode("utf-16"), "UTF-16 LE with a byte-order mark"),
    (b"# P\n\ncaf\xe9\n", "invalid utf8"),
    (b"# P\n\x00\n", "binary"),
    (b"# P\n" + b"a" * 4_194_304, "too large (over 4,194,304 bytes)"),
])
def test_standard_input_is_read_as_a_file_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: bytes,
                                             problem: str) -> None:
    # not decoded with replacement characters into "All checks passed": the file's problem, as on disk
    monkeypatch.chdir(_tree(tmp_path))
    result = CliRunner().invoke(main, ["check", "-", "--stdin-filename", "CLAUDE.md", "--no-home"], input=data)
    assert result.exit_code == 1 and f"ML903 unreadable-file CLAUDE.md is {problem}" in result.stdout, result.output
    fixed = CliRunner().invoke(main, ["fix", "-", "--stdin-filename", "CLAUDE.md", "--no-home"], input=data)
    if len(data) > 4_194_304:  # never a part of the text given back (an editor would put it in place)
        assert fixed.exit_code == 2 and fixed.stdout_bytes == b"" and "nothing fixed" in fixed.stderr
    else:  # given back byte for byte
        assert fixed.stdout_bytes == data and fixed.exit_code == 1, fixed.output


def test_endless_standard_input_is_read_no_further_than_a_file_would_be(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(_tree(tmp_path))
    endless = _Endless()
    result = CliRunner().invoke(main, ["check", "-", "--stdin-filename", "CLAUDE.md", "--no-home"],
                                input=io.BufferedReader(endless))
    assert result.exit_code == 1 and "too large" in result.stdout, result.output
    assert endless.given <= 4_194_304 + 2 * io.DEFAULT_BUFFER_SIZE


def test_ignore_and_select_combine_with_configuration_as_in_ruff(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    (tree / ".memlint.toml").write_text('ignore = ["ML110"]\n', encoding="utf-8")
    code, out, _ = _invoke(["check", str(tree), "--ignore", "ML108"])
    assert code == 1 and "ML101" in out and "ML110" not in out  # the configured ignore still holds
    code, out, _ = _invoke(["check", str(tree), "--select", "ML110"])
    assert "ML110" in out and "ML101" not in out  # a command-line select starts afresh
    code, out, _ = _invoke(["check", str(tree), "--extend-select", "ML110", "--ignore", "ML101"])
    assert code == 1 and "ML110" in out and "ML101" not in out


def test_bad_values_are_blamed_on_their_source(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    config = tree / ".memlint.toml"
    config.write_text('ignore = ["ML110"]\n', encoding="utf-8")
    code, _, err = _invoke(["check", str(tree), "--select", "ML999"])
    assert code == 2 and "--select: unknown rule 'ML999'" in err and str(config) not in err
    config.write_text('select = ["ML998"]\n', encoding="utf-8")
    code, _, err = _invoke(["check", str(tree)])
    assert code == 2 and f"{config}: select: unknown rule 'ML998'" in err


def test_diff_is_never_mixed_into_a_machine_format(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    code, out, err = _invoke(["check", str(tree), "--diff", "--unsafe-fixes", "--format", "json"])
    assert code == 2 and out == "" and "--diff" in err
    code, out, _ = _invoke(["check", str(tree), "--diff", "--unsafe-fixes"], env={"GITHUB_ACTIONS": "true"})
    assert out.startswith("--- a/") or "+++ b/" in out


@pytest.mark.parametrize("name", ["ML999", "ML11O", "ML1O1"])
def test_only_fix_naming_no_rule_is_a_usage_error(tmp_path: Path, name: str) -> None:
    # it was exit 1 with nothing fixed and nothing said; a fix's name (lower-case words) is still taken
    code, _out, err = _invoke(["fix", str(_tree(tmp_path)), "--no-home", "--only-fix", name])
    assert code == 2 and f"--only-fix: unknown rule {name!r}" in err
    code, _out, err = _invoke(["fix", str(tmp_path), "--no-home", "--only-fix", "split-memory-index,ML110"])
    assert code == 1 and "unknown" not in err


def test_ctrl_c_exits_130(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # as a shell reports a command Ctrl-C stopped (SIGTERM during a fix: 143); it was exit 1, "problems found"
    from memlint import api

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(api, "check", interrupted)
    code, _out, err = _invoke(["check", str(_tree(tmp_path)), "--no-home", "--no-cache"])
    assert code == 130 and err == "memlint: interrupted\n"


@pytest.mark.parametrize("reading", ["", ".", "docs"])
def test_context_reading_a_folder_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  reading: str) -> None:
    monkeypatch.chdir(_tree(tmp_path))
    code, _out, err = _invoke(["context", ".", "--no-home", "--reading", reading])
    # (click refuses a folder it finds; the empty name reads as `.`: it was an internal error)
    assert code == 2 and ("give the file Claude reads" in err or "is a directory" in err) and "internal" not in err


def test_json_fix_titles_are_utf8_for_a_name_that_is_not(tmp_path: Path) -> None:
    rules = tmp_path / ".claude" / "rules"
    rules.mkdir(parents=True)
    (tmp_path / "CLAUDE.md").write_text("# P\n", encoding="utf-8")
    (rules / "\udcff.MD").write_text("Use tabs.\n", encoding="utf-8")  # the file-name byte 0xff
    result = CliRunner().invoke(main, ["check", str(tmp_path), "--no-home", "--no-cache", "--format", "json"])
    fix = json.loads(result.stdout_bytes.decode("utf-8"))["violations"][0]["fix"]
    assert fix["title"] == "rename \\xff.MD to \\xff.md"
