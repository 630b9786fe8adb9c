"""Claude Code's launch options memlint models beside `--settings`: `--setting-sources` (how memlint reads the
value, as Claude Code does; the command line; the two release switches bisected with the real CLI) and
`--add-dir` (tests/differential/cases_sources.py holds the recorded cases)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.api import context
from memlint.cli import main
from memlint.model.loading.reads import on_read
from memlint.model.loading.settings import ALL_SOURCES, Launch, parse_setting_sources
from memlint.model.release import pick

sys.path.insert(0, str(Path(__file__).resolve().parent / "differential"))

from cases import BY_NAME, build, case_launch


@pytest.mark.parametrize(("text", "sources"), [
    ("user", {"user"}), ("user,project,local", ALL_SOURCES), (" local , user,user", {"local", "user"}),
    ("", set()), ("project", {"project"}),
])
def test_value_read_as_claude_code_reads_it(text: str, sources: set[str]) -> None:
    assert parse_setting_sources(text) == frozenset(sources)


@pytest.mark.parametrize(("text", "named"), [("bogus", "bogus"), ("USER", "USER"), ("user,,project", ""),
                                             ("   ", ""), ("user,", "")])
def test_other_values_refused_with_claude_codes_message(text: str, named: str) -> None:
    with pytest.raises(ValueError, match=f"^Invalid setting source: {named}. Valid options are: user, project, local$"):
        parse_setting_sources(text)


def _tree(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir(parents=True)
    (tmp_path / "CLAUDE.md").write_text("project\n")
    (tmp_path / "CLAUDE.local.md").write_text("local\n")
    return tmp_path


def test_context_models_the_sources_given(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    result = CliRunner().invoke(main, ["context", str(tree), "--no-home", "--format", "json",
                                       "--setting-sources", "local"])
    assert result.exit_code == 0, result.output
    assert [Path(f["path"]).name for f in json.loads(result.output)["files"]] == ["CLAUDE.local.md"]


def test_check_refuses_a_value_claude_code_refuses(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    result = CliRunner().invoke(main, ["check", str(tree), "--no-home", "--no-cache", "--setting-sources", "projects"])
    assert result.exit_code == 2
    assert "Invalid setting source: projects. Valid options are: user, project, local" in result.output


def test_check_without_the_option_reads_every_source(tmp_path: Path) -> None:
    assert Launch.from_environ({}).setting_sources == ALL_SOURCES


def _attached(name: str, version: str, tmp_path: Path) -> list[str]:
    case = BY_NAME[name]
    tree, home = build(case, tmp_path)
    ctx = context(start=tree / case.cwd, home=home, managed_dir=tmp_path / "no-managed", release=pick(version),
                  launch=case_launch(case, tree, home))
    assert case.read is not None
    return sorted(str(a.file.path.relative_to(tree)) for a in on_read(ctx.loaded, tree / case.read))


@pytest.mark.parametrize(("version", "expected"), [
    # bisected with ../shared/oracle/cc_oracle.py: 2.1.210 attaches the project's conditional rules, 2.1.211 not
    ("2.1.210", [".claude/rules/top.md", "deep/.claude/rules/c.md", "deep/CLAUDE.local.md"]),
    ("2.1.211", ["deep/CLAUDE.local.md"]),
])
def test_conditional_rules_without_the_project_source(version: str, expected: list[str], tmp_path: Path) -> None:
    assert _attached("ss12_read_nested_local_only", version, tmp_path) == expected


@pytest.mark.parametrize(("version", "expected"), [
    # the same switch (bisected again): 2.1.210 attaches the nested folder's unconditional rule, 2.1.211 not
    ("2.1.210", ["a/.claude/rules/t.md"]), ("2.1.211", []),
])
def test_nested_rules_on_a_read_without_the_project_source(version: str, expected: list[str], tmp_path: Path) -> None:
    assert _attached("rr16_read_nested_rules_without_project_source", version, tmp_path) == expected


@pytest.mark.parametrize(("version", "expected"), [
    # bisected: 2.1.323 allows the Read below the start folder, 2.1.324 matches `repo/src/*.py` from the added
    # folder above it and refuses it
    ("2.1.323", ["work/repo/src/CLAUDE.md"]), ("2.1.324", []),
])
def test_deny_rules_from_an_added_folder(version: str, expected: list[str], tmp_path: Path) -> None:
    assert _attached("ad13_add_dir_above_start_folder_is_a_rule_root", version, tmp_path) == expected


@pytest.mark.parametrize(("version", "folder"), [
    # bisected: 2.1.294 reads the local file's autoMemoryDirectory without the local source, 2.1.295 not
    ("2.1.294", "elsewhere"), ("2.1.295", "memory"),
])
def test_memory_directory_of_a_source_left_out(version: str, folder: str, tmp_path: Path) -> None:
    case = BY_NAME["ss16_memory_directory_of_unread_local_settings"]
    tree, home = build(case, tmp_path)
    ctx = context(start=tree / case.cwd, home=home, managed_dir=tmp_path / "no-managed", release=pick(version),
                  launch=case_launch(case, tree, home))
    index = [f.path for f in ctx.loaded.files if f.kind == "automem"]
    assert [p.parent.name for p in index] == [folder]


def test_agents_md_not_read_says_the_project_source_is_left_out(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "AGENTS.md").write_text("# Agents\n\nRun the tests before you commit.\n")
    base = ["check", str(tmp_path), "--no-home", "--no-cache", "--select", "ML510", "--format", "json"]
    loaded = CliRunner().invoke(main, base)
    assert loaded.exit_code == 0, loaded.output  # the default sources: AGENTS.md loads
    result = CliRunner().invoke(main, [*base, "--setting-sources", "user,local"])
    assert result.exit_code == 1, result.output
    [finding] = json.loads(result.output)["violations"]
    assert "started without the project source (`--setting-sources`)" in finding["message"]


def test_add_dir_loads_the_folders_memory_with_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree = _tree(tmp_path / "repo")
    other = tmp_path / "other"
    other.mkdir()
    (other / "CLAUDE.md").write_text("other\n")
    args = ["context", str(tree), "--no-home", "--format", "json", "--add-dir", str(other)]
    monkeypatch.delenv("CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD", raising=False)
    without = json.loads(CliRunner().invoke(main, args).output)
    assert [Path(f["path"]).name for f in without["files"]] == ["CLAUDE.md", "CLAUDE.local.md"]
    monkeypatch.setenv("CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD", "1")
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert [f["path"] for f in json.loads(result.output)["files"]][-1] == str(other / "CLAUDE.md")


def test_an_added_folders_conditional_rules_are_not_listed_as_deferred(tmp_path: Path) -> None:
    case = BY_NAME["ad10_add_dir_conditional_rules_never_arrive"]
    tree, home = build(case, tmp_path)
    ctx = context(start=tree / case.cwd, home=home, managed_dir=tmp_path / "no-managed", release=pick("2.1.332"),
                  launch=case_launch(case, tree, home))
    assert [str(f.path.relative_to(tree)) for f in ctx.loaded.files] == ["repo/CLAUDE.md", "other/CLAUDE.md"]
    assert [str(d.path.relative_to(tree)) for d in ctx.loaded.deferred] == ["repo/.claude/rules/py.md"]


def test_the_configuration_names_the_launch_and_the_command_line_wins(tmp_path: Path) -> None:
    tree = _tree(tmp_path / "repo")
    other = tmp_path / "other"
    other.mkdir()
    (other / "CLAUDE.md").write_text("other\n")
    (tree / ".memlint.toml").write_text('setting-sources = ["local"]\nadd-dirs = ["../other"]\n')
    (tree / ".claude").mkdir()
    (tree / ".claude" / "settings.local.json").write_text('{"env": {"CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD": "1"}}')

    def loaded(*extra: str) -> list[str]:
        result = CliRunner().invoke(main, ["context", str(tree), "--no-home", "--format", "json", *extra])
        assert result.exit_code == 0, result.output
        return [str(Path(f["path"]).relative_to(tmp_path)) for f in json.loads(result.output)["files"]]

    # the added folder's CLAUDE.md loads without the project source (only `local` gates an added folder)
    assert loaded() == ["repo/CLAUDE.local.md", "other/CLAUDE.md"]
    assert loaded("--setting-sources", "project") == ["repo/CLAUDE.md"]  # the local file's env is not read then
    # the language server and the API take the configuration's launch too
    from memlint.config import load_config
    from memlint.engine import build_context

    ctx = build_context([tree], load_config(tree), None)
    assert [str(f.path.relative_to(tmp_path)) for f in ctx.loads[tree].files] == ["repo/CLAUDE.local.md", "other/CLAUDE.md"]


@pytest.mark.parametrize(("table", "says"), [
    ('setting-sources = "project"', "setting-sources: expected a list of strings"),
    ('setting-sources = ["Project"]', "setting-sources: 'Project' is not one of user, project, local"),
    ("add-dirs = [1]", "add-dirs: expected a list of strings"),
])
def test_a_bad_launch_in_the_configuration_exits_2_naming_the_key(tmp_path: Path, table: str, says: str) -> None:
    tree = _tree(tmp_path)
    (tree / ".memlint.toml").write_text(table + "\n")
    result = CliRunner().invoke(main, ["check", str(tree), "--no-home", "--no-cache"])
    assert result.exit_code == 2
    assert str(tree / ".memlint.toml") in result.output and says in result.output


@pytest.mark.parametrize(("version", "expected"), [
    # bisected: 2.1.280 attaches the conditional rules that loaded at start as includes again, 2.1.281 not
    ("2.1.280", ["home/.claude/rules/ucond.md", "tree/.claude/rules/cond.md"]), ("2.1.281", []),
])
def test_a_read_attaches_what_loaded_at_start_again_before_2_1_281(version: str, expected: list[str],
                                                                    tmp_path: Path) -> None:
    case = BY_NAME["rr28_read_conditional_rule_loaded_as_include"]
    tree, home = build(case, tmp_path)
    ctx = context(start=tree, home=home, managed_dir=tmp_path / "no-managed", release=pick(version))
    assert case.read is not None
    got = sorted(str(a.file.path.relative_to(tmp_path)) for a in on_read(ctx.loaded, tree / case.read))
    assert got == expected


@pytest.mark.parametrize(("version", "expected"), [
    # bisected: 2.1.280 attaches the nested CLAUDE.md that loaded at start as an include again, 2.1.281 not
    ("2.1.280", ["a/CLAUDE.local.md", "a/CLAUDE.md"]), ("2.1.281", ["a/CLAUDE.local.md"]),
])
def test_a_read_attaches_a_nested_file_loaded_at_start_again_before_2_1_281(version: str, expected: list[str],
                                                                            tmp_path: Path) -> None:
    assert _attached("rr30_read_nested_claude_md_loaded_as_include", version, tmp_path) == expected
