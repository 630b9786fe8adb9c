"""Picking the Claude Code release (--claude-code, `claude-code = "..."`), the --settings file and the
environment: what the commands accept, what they print, what the loader does with them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.api import context
from memlint.cli import main
from memlint.config import load_config
from memlint.errors import ConfigError
from memlint.model.loading.settings import Launch
from memlint.model.release import pick


def _tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    (tree / ".claude").mkdir(parents=True)
    (tree / "AGENTS.md").write_text("agents text\n", encoding="utf-8")
    (tree / ".claude" / "CLAUDE.md").write_text("dot claude\n", encoding="utf-8")
    (tree / "pkg").mkdir()
    (tree / "pkg" / "AGENTS.md").write_text("pkg agents\n", encoding="utf-8")
    return tree


@pytest.mark.parametrize("command", ["check", "fix", "context"])
@pytest.mark.parametrize("version", ["2.1.196", "banana", "2.1"])
def test_unsupported_release_is_a_usage_error(tmp_path: Path, command: str, version: str) -> None:
    tree = _tree(tmp_path)
    result = CliRunner().invoke(main, [command, str(tree), "--claude-code", version])
    assert result.exit_code == 2
    assert "2.1.197 or newer" in result.stderr and "Traceback" not in result.output


def test_config_key_is_validated_and_named(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    (tree / ".memlint.toml").write_text('claude-code = "1.0.0"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="claude-code: .*older than memlint models"):
        load_config(tree)
    result = CliRunner().invoke(main, ["check", str(tree)])
    assert result.exit_code == 2 and "claude-code" in result.stderr


def test_config_key_picks_the_release_and_cli_wins(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    (tree / ".memlint.toml").write_text('claude-code = "2.1.250"\n', encoding="utf-8")
    assert load_config(tree).release.name == "2.1.250"
    assert not load_config(tree).release.agents_md
    data = json.loads(CliRunner().invoke(main, ["check", str(tree), "--format", "json"]).stdout)
    assert data["claude_code"] == "2.1.250"
    data = json.loads(CliRunner().invoke(main, ["check", str(tree), "--format", "json", "--claude-code", "2.1.332"]).stdout)
    assert data["claude_code"] == "2.1.332"


def test_a_newer_release_gets_the_newest_switches() -> None:
    release = pick("2.1.400")
    assert release.name == "2.1.400" and release.switches() == pick("2.1.332").switches()
    assert pick("2.1.300").switches() == pick("2.1.299").switches() != pick("2.1.298").switches()


def test_context_names_the_release_in_text_and_json(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    text = CliRunner().invoke(main, ["context", str(tree), "--home", str(home), "--claude-code", "2.1.197"]).stdout
    assert text.startswith("Claude Code 2.1.197 context at start in")
    out = CliRunner().invoke(main, ["context", str(tree), "--home", str(home), "--format", "json"]).stdout
    data = json.loads(out)
    assert data["claude_code"] == "2.1.332"
    assert data["block_format"] == "own-system-reminder" and data["deferred_format"] == "user-system-reminder-per-file"
    old = json.loads(CliRunner().invoke(main, ["context", str(tree), "--home", str(home), "--format", "json",
                                               "--claude-code", "2.1.197"]).stdout)
    assert old["block_format"] == "claudeMd-section" and old["deferred_format"] == "system-message"


def test_check_summary_names_the_release(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    out = CliRunner().invoke(main, ["check", str(tree), "--select", "ML1", "--claude-code", "2.1.290"]).stdout
    assert out.strip().endswith("Claude Code 2.1.290 modelled).")


def test_start_folders_own_dot_claude_md_is_loaded_not_deferred(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    data = context(tree, home=tmp_path / "none").to_dict("chars4")
    loaded = [f["path"] for f in data["files"]]
    deferred = [d["path"] for d in data["deferred"]]
    assert loaded == [str(tree / ".claude" / "CLAUDE.md")]
    assert str(tree / ".claude" / "CLAUDE.md") not in deferred
    # a CLAUDE.md loads, so in the default mode neither AGENTS.md arrives, at start or on read
    assert str(tree / "pkg" / "AGENTS.md") not in deferred


def test_settings_file_sets_the_agents_mode(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    flag = tmp_path / "flag.json"
    flag.write_text(json.dumps({"pluginConfigs": {"agents-md@builtin": {"options": {
        "instructionFiles": "claude-md-and-agents-md"}}}}), encoding="utf-8")
    data = context(tree, home=tmp_path / "none", launch=Launch(flag)).to_dict("chars4")
    assert [Path(f["path"]).name for f in data["files"]] == ["CLAUDE.md", "AGENTS.md"]
    assert {d["reason"] for d in data["deferred"]} == {"nested-agents-md"}
    assert data["instruction_files"] == "claude-md-and-agents-md"
    out = CliRunner().invoke(main, ["context", str(tree), "--home", str(tmp_path / "none"), "--settings", str(flag),
                                    "--format", "json"]).stdout
    assert [f["path"] for f in json.loads(out)["files"]] == [f["path"] for f in data["files"]]


def test_check_models_a_start_in_a_dot_claude_only_folder(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    (tree / "pkg" / ".claude").mkdir(parents=True)
    (tree / "pkg" / ".claude" / "CLAUDE.md").write_text("pkg rules @missing.md\n", encoding="utf-8")
    out = CliRunner().invoke(main, ["check", str(tree), "--select", "ML101", "--format", "json"]).stdout
    assert [v["code"] for v in json.loads(out)["violations"]] == ["ML101"]


def test_releases_page_lists_every_switch() -> None:
    from memlint.model.release import FIRST

    page = (Path(__file__).parents[1] / "docs" / "releases.md").read_text(encoding="utf-8")
    for name, first in FIRST.items():
        row = next((line for line in page.splitlines() if f"| `{name}` |" in line), "")
        assert row.startswith(f"| {'.'.join(map(str, first))} |"), name


def test_managed_settings_exclude_and_set_the_agents_mode(tmp_path: Path) -> None:
    """Section 4 and C03 (mg02, mg03 in the spec, recorded through a private /etc): claudeMdExcludes
    from managed-settings.d, instructionFiles from managed-settings.json."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "CLAUDE.md").write_text("claude\n", encoding="utf-8")
    (tree / "CLAUDE.local.md").write_text("local\n", encoding="utf-8")
    (tree / "AGENTS.md").write_text("agents\n", encoding="utf-8")
    managed = tmp_path / "managed"
    (managed / "managed-settings.d").mkdir(parents=True)
    (managed / "managed-settings.d" / "10-team.json").write_text(
        json.dumps({"claudeMdExcludes": ["**/CLAUDE.local.md"]}), encoding="utf-8")
    (managed / "managed-settings.json").write_text(json.dumps({"pluginConfigs": {"agents-md@builtin": {
        "options": {"instructionFiles": "claude-md-and-agents-md"}}}}), encoding="utf-8")
    data = context(tree, home=tmp_path / "none", managed_dir=managed).to_dict("chars4")
    assert [Path(f["path"]).name for f in data["files"]] == ["CLAUDE.md", "AGENTS.md"]
    assert {"path": str(tree / "CLAUDE.local.md"), "reason": "excluded", "included_from": None,
            "names_no_file": False} in data["skipped"]
    old = context(tree, home=tmp_path / "none", managed_dir=managed, release=pick("2.1.197")).to_dict("chars4")
    assert [Path(f["path"]).name for f in old["files"]] == ["CLAUDE.md"]


def test_check_without_home_ignores_claude_config_dir(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"claudeMdExcludes": ["nothing"]}), encoding="utf-8")
    env = {"CLAUDE_CONFIG_DIR": str(config)}
    out = CliRunner(env=env).invoke(main, ["check", str(tree), "--select", "ML513", "--format", "json",
                                           "--no-home"]).stdout
    assert json.loads(out)["violations"] == []
    out = CliRunner(env=env).invoke(main, ["check", str(tree), "--select", "ML513", "--format", "json",
                                           "--home", str(tmp_path)]).stdout
    assert [v["path"] for v in json.loads(out)["violations"]] == [str(config / "settings.json")]


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("/r/connector-downloads/a.md", "connector-downloads"),
        ("/r/Connector-Downloads. /a.md", "connector-downloads"),
        ("/r/.artifact-work/b.md", ".artifact-work"),
        ("/tmp/claude/proj/0b5e1c2d-3f4a-4b5c-8d9e-0f1a2b3c4d5e/scratchpad/n.md", "scratchpad"),
        ("/tmp/claude/proj/s1/scratchpad/n.md", None),
        ("/tmp/claude/s/123456789012/scratchpad/n.md", "scratchpad"),
        ("/r/connector-downloads-old/a.md", None),
        ("/r/artifact-work/a.md", None),
        ("/r/docs/scratchpad/a.md", None),
    ],
)
def test_special_folders(path: str, why: str | None) -> None:
    from memlint.model.loading.guards import special_folder

    found = special_folder(path)
    assert (found is None) if why is None else (why in (found or ""))


@pytest.mark.parametrize(
    ("path", "skipped"),
    [("/proc/self/comm", True), ("/proc/1234/environ", True), ("/dev/null", True), ("/proc/version", False),
     ("/devices/x.md", False), ("/home/u/dev/x.md", False)],
)
def test_process_files(path: str, skipped: bool) -> None:
    from memlint.model.loading.guards import process_file

    assert process_file(path) is skipped


def test_a_linked_dotclaude_makes_its_rules_external_from_2_1_284(tmp_path: Path) -> None:
    """Bisected with the oracle on m04b_dotclaude_symlink_in_ancestor: 2.1.232 to 2.1.283 load the rule
    of a `.claude` linked outside the start folder (by its real path), 2.1.284 does not; before 2.1.232
    nothing was external."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent / "differential"))
    from cases import BY_NAME, build

    case = BY_NAME["m04b_dotclaude_symlink_in_ancestor"]
    tree, home = build(case, tmp_path)
    loaded = {v: [str(f.path.relative_to(tree)) for f in context(start=tree / case.cwd, home=home,
                                                                 managed_dir=tmp_path / "none", release=pick(v)).loaded.files]
              for v in ("2.1.231", "2.1.283", "2.1.284")}
    rule = "shared-claude/rules/t.md"
    assert loaded == {"2.1.231": [".claude/CLAUDE.md", rule, "a/CLAUDE.md"],
                      "2.1.283": [".claude/CLAUDE.md", rule, "a/CLAUDE.md"],
                      "2.1.284": [".claude/CLAUDE.md", "a/CLAUDE.md"]}
