"""Output formats of `memlint check`, and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memlint.cli import main
from memlint.reporters.check import _below, fix_hint
from memlint.violations import Applicability, Edit, Fix, Violation


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n", encoding="utf-8")
    (tmp_path / "CLAUDE.md").write_text("# P\n\nSee @docs/a.md.\nAnd @gone.md too.\n", encoding="utf-8")
    return tmp_path


def test_text_lines_summary_and_exit_1(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["check", str(_tree(tmp_path)), "--select", "ML1", "--no-home"])
    assert result.exit_code == 1
    lines = result.stdout.strip().splitlines()
    assert any(":3:" in line and " ML110 include-trailing-punctuation " in line and line.endswith("[*]") for line in lines)
    assert any(":4:" in line and " ML101 include-target-missing " in line for line in lines)
    assert lines[-1].startswith("Found 2 problems (2 errors) in 1 memory file of the repository alone (--no-home); "
                                "1 fixable")


def test_json_has_the_contract_keys(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["check", str(_tree(tmp_path)), "--select", "ML1", "--format", "json"])
    data = json.loads(result.stdout)
    assert set(data) == {"schema_version", "memlint_version", "violations", "files_checked", "claude_code"}
    assert data["claude_code"] == "2.1.332"
    v = data["violations"][0]
    assert set(v) == {"code", "slug", "severity", "path", "line", "column", "end_line", "end_column", "message", "fix"}
    fixed = [x for x in data["violations"] if x["fix"]]
    assert fixed and set(fixed[0]["fix"]) == {"applicability", "verified", "title", "explanation", "edits"}
    assert set(fixed[0]["fix"]["edits"][0]) == {"path", "start", "end", "content", "create", "delete"}
    assert fixed[0]["fix"]["applicability"] == "unsafe"


def test_github_is_picked_in_actions(tmp_path: Path) -> None:
    result = CliRunner(env={"GITHUB_ACTIONS": "true"}).invoke(main, ["check", str(_tree(tmp_path)), "--select", "ML1"])
    lines = result.stdout.strip().splitlines()
    assert lines and all(line.startswith(("::error title=ML10", "::error title=ML11")) for line in lines)
    assert ",line=3,col=" in "\n".join(lines)


def test_sarif_2_1_0_with_rule_metadata(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["check", str(_tree(tmp_path)), "--select", "ML1", "--format", "sarif"])
    data = json.loads(result.stdout)
    assert data["version"] == "2.1.0"
    run = data["runs"][0]
    ids = {r["id"] for r in run["tool"]["driver"]["rules"]}
    assert {"ML101", "ML110"} <= ids
    assert {r["ruleId"] for r in run["results"]} == {"ML101", "ML110"}


def test_clean_tree_exits_0_and_empty_run_exits_1(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("# Fine\n", encoding="utf-8")
    assert CliRunner().invoke(main, ["check", str(tmp_path)]).exit_code == 0
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(main, ["check", str(empty)])
    assert result.exit_code == 1 and "no memory files found" in result.output
    assert CliRunner().invoke(main, ["check", str(empty), "--allow-empty"]).exit_code == 0


def test_diff_writes_nothing_and_fix_applies(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    before = (tree / "CLAUDE.md").read_bytes()
    result = CliRunner().invoke(main, ["check", str(tree), "--select", "ML110", "--diff", "--unsafe-fixes"])
    assert "+See @docs/a.md ." in result.stdout
    assert (tree / "CLAUDE.md").read_bytes() == before
    result = CliRunner().invoke(main, ["fix", str(tree), "--select", "ML110", "--unsafe-fixes"])
    assert result.exit_code == 0, result.output
    assert (tree / "CLAUDE.md").read_text(encoding="utf-8") == "# P\n\nSee @docs/a.md .\nAnd @gone.md too.\n"


def test_explain_and_rules(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["explain", "include-target-missing"])
    assert result.exit_code == 0 and result.stdout.startswith("# ML101 include-target-missing")
    assert CliRunner().invoke(main, ["explain", "ML000"]).exit_code == 2
    listing = CliRunner().invoke(main, ["rules"]).stdout
    assert "ML101" in listing and "ML903" in listing


PATH_PARTS = st.sampled_from(["", "/", "//", "a", "b", "ab", "a b", ".x", "é"])
PATHS = st.lists(PATH_PARTS, max_size=6).map("/".join)


@settings(max_examples=500, deadline=None)
@given(PATHS, PATHS)
@example("//a", "/")  # the folder `//`: POSIX's second root
@example("/a", "/")
def test_paths_below_the_folder_are_shown_as_pathlib_shows_them(path: str, folder: str) -> None:
    """The report's string shortcut agrees with `Path.relative_to` for every path and folder."""
    folder = str(Path("/" + folder))
    target = Path(path)
    try:
        expected: str | None = target.relative_to(folder).as_posix()
    except ValueError:
        expected = None
    assert _below(str(target), folder) == expected


def _found(code: str, applicability: Applicability | None, verified: bool = False) -> Violation:
    fix = None if applicability is None else Fix(f"{code.lower()}-fix: x", applicability,
                                                 (Edit(Path("M.md"), 0, 0, "x"),), verified=verified)
    return Violation(Path("M.md"), 1, 1, code, "slug", "warning", "message", 1, 1, fix)


def test_the_hint_names_the_command_that_applies_each_fix() -> None:
    safe, unsafe = _found("ML1", Applicability.SAFE), _found("ML2", Applicability.UNSAFE)
    verified, none = _found("ML3", Applicability.UNSAFE, verified=True), _found("ML4", None)
    assert fix_hint([none]) == "none fixable automatically"
    assert fix_hint([safe, verified, none]) == "2 fixable with `memlint fix`"
    assert fix_hint([unsafe, none]) == "1 fixable with `memlint fix --unsafe-fixes`"
    assert fix_hint([safe, verified, unsafe, unsafe]) == ("2 fixable with `memlint fix`; "
                                                          "2 more with `memlint fix --unsafe-fixes`")
    assert fix_hint([_found("ML5", Applicability.DISPLAY_ONLY)]) == "none fixable automatically"


def test_context_says_once_what_claude_code_does_with_at_words(tmp_path: Path) -> None:
    """`@scope/pkg` and `@handle` are tried as paths and load nothing: context says so on one line
    (check is silent about them), and lists a missing file include as before."""
    from click.testing import CliRunner

    from memlint.cli import main

    (tmp_path / "CLAUDE.md").write_text("Use @acme/ui for buttons; ask @dana.\nSee @docs/gone.md\n", encoding="utf-8")
    out = CliRunner().invoke(main, ["context", str(tmp_path), "--home", str(tmp_path / "home")]).output
    assert "2 @-words that name no file (@acme/ui, @dana.)" in out
    assert "missing docs/gone.md" in out
    assert "missing acme/ui" not in out
