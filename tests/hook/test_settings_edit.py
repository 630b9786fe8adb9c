"""`memlint hook install/uninstall`: settings.json edited as text, every other key and hook kept byte
for byte; install adds one span, uninstall takes it away again; both are idempotent."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from memlint.cli import main
from memlint.errors import MemlintError
from memlint.hook.settings_edit import COMMAND, entry, install, installed, uninstall

USER_HOOKS = """{
    "permissions": {"allow": ["Bash(ls)"]},
    "hooks": {
        "PreToolUse": [ {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi"}]} ],
        "PostToolUse": [
            {"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --write"}]}
        ]
    },
    "model": "opus"
}
"""


def _one_span_added(before: str, after: str) -> bool:
    """`after` is `before` with one piece of text inserted somewhere."""
    prefix = 0
    while prefix < min(len(before), len(after)) and before[prefix] == after[prefix]:
        prefix += 1
    return after[len(after) - (len(before) - prefix):] == before[prefix:]


def _without_ours(data: Any) -> Any:
    post = data["hooks"]["PostToolUse"]
    return {**data, "hooks": {**data["hooks"], "PostToolUse": [e for e in post if e != entry()]}}


def test_install_appends_after_the_users_hooks_and_uninstall_restores_the_bytes() -> None:
    added = install(USER_HOOKS)
    assert _one_span_added(USER_HOOKS, added)
    data = json.loads(added)
    assert data["hooks"]["PostToolUse"][-1] == entry()
    assert data["hooks"]["PostToolUse"][0]["hooks"][0]["command"] == "prettier --write"
    assert '{"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --write"}]},\n' in added
    assert install(added) == added  # idempotent
    assert uninstall(added) == USER_HOOKS
    assert uninstall(USER_HOOKS) == USER_HOOKS


@pytest.mark.parametrize("text", ["", "{}", "{}\n", '{"model": "opus"}', '{\n\t"hooks": {}\n}\n',
                                  '{"hooks": {"PostToolUse": []}}', '{"hooks": {"Stop": [1]}, "x": null}'])
def test_install_into_files_without_the_list(text: str) -> None:
    added = install(text)
    assert installed(added)
    if text:
        assert _one_span_added(text, added)
        original = json.loads(text)
        again = json.loads(added)
        again["hooks"]["PostToolUse"].remove(entry())
        if not again["hooks"]["PostToolUse"] and "PostToolUse" not in original.get("hooks", {}):
            del again["hooks"]["PostToolUse"]
        if not again["hooks"] and "hooks" not in original:
            del again["hooks"]
        assert again == original
    removed = uninstall(added)
    assert not installed(removed)


def test_uninstall_keeps_other_hooks_of_a_shared_entry() -> None:
    text = ('{"hooks": {"PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": '
            '"/usr/local/bin/memlint hook"}, {"type": "command", "command": "prettier"}]}]}}')
    assert installed(text)
    removed = uninstall(text)
    assert json.loads(removed) == {"hooks": {"PostToolUse": [{"matcher": "Write|Edit", "hooks": [
        {"type": "command", "command": "prettier"}]}]}}


@pytest.mark.parametrize("bad", ["[1, 2]", '{"hooks": [', '{"hooks": 3}', '{"hooks": {"PostToolUse": {}}}',
                                 '{} trailing'])
def test_refuses_what_it_cannot_edit(bad: str) -> None:
    with pytest.raises(MemlintError):
        install(bad)


def test_commands_write_the_user_and_project_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    project = tmp_path / "proj"
    settings_file = project / ".claude" / "settings.json"
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(USER_HOOKS)
    settings_file.chmod(0o640)
    runner = CliRunner()
    assert runner.invoke(main, ["hook", "install", "--project-dir", str(project)]).exit_code == 0
    assert installed(settings_file.read_text())
    assert settings_file.stat().st_mode & 0o777 == 0o640
    assert runner.invoke(main, ["hook", "install", "--user"]).exit_code == 0
    user = tmp_path / "home" / ".claude" / "settings.json"
    assert json.loads(user.read_text()) == {"hooks": {"PostToolUse": [entry(COMMAND)]}}
    assert runner.invoke(main, ["hook", "uninstall", "--project-dir", str(project)]).exit_code == 0
    assert settings_file.read_text() == USER_HOOKS
    assert [p.name for p in settings_file.parent.iterdir()] == ["settings.json"]  # no temp file left
    settings_file.write_text("{ not json")
    result = runner.invoke(main, ["hook", "install", "--project-dir", str(project)])
    assert result.exit_code == 2 and "not valid JSON" in result.output
    assert settings_file.read_text() == "{ not json"


# ------------------------------------------------------------------ random settings files

_scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=6))
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)), max_leaves=6)
_hook = st.fixed_dictionaries({"type": st.just("command"), "command": st.text(min_size=1, max_size=12)})
_entry = st.fixed_dictionaries({"matcher": st.sampled_from(["Write", "Bash", "", "Edit|Write"]),
                                "hooks": st.lists(_hook, max_size=3)})
_events = st.dictionaries(st.sampled_from(["PreToolUse", "PostToolUse", "Stop", "Notification"]),
                          st.lists(_entry, max_size=3), max_size=3)
_settings = st.builds(lambda other, hooks, with_hooks: {**other, **({"hooks": hooks} if with_hooks else {})},
                      st.dictionaries(st.text(max_size=8).filter(lambda k: k != "hooks"), _values, max_size=4),
                      _events, st.booleans())
_style = st.sampled_from([None, 0, 1, 2, 4, "\t"])


def _dump(data: Any, style: Any, ascii_only: bool) -> str:
    if style is None:
        return json.dumps(data, ensure_ascii=ascii_only)
    return json.dumps(data, indent=style, ensure_ascii=ascii_only) + "\n"


@settings(max_examples=300, deadline=None)
@given(_settings, _style, st.booleans())
def test_random_settings_keep_every_byte(data: dict[str, Any], style: Any, ascii_only: bool) -> None:
    text = _dump(data, style, ascii_only)
    had = installed(text)
    added = install(text)
    assert install(added) == added
    if had:
        assert added == text
        return
    assert _one_span_added(text, added)
    parsed = json.loads(added)
    assert parsed["hooks"]["PostToolUse"][-1] == entry()
    expected = dict(data)
    expected_hooks = dict(data.get("hooks", {}))
    expected_hooks["PostToolUse"] = [*expected_hooks.get("PostToolUse", []), entry()]
    expected["hooks"] = expected_hooks
    assert parsed == expected
    removed = uninstall(added)
    assert uninstall(removed) == removed
    post = data.get("hooks", {}).get("PostToolUse")
    if "hooks" not in data or post:  # nothing left empty by the removal that was there before
        assert removed == text
    else:
        assert not installed(removed)


def test_a_one_line_file_stays_one_line() -> None:
    text = '{"model": "opus", "hooks": {"Stop": []}}'
    added = install(text)
    assert "\n" not in added
    assert added == ('{"model": "opus", "hooks": {"Stop": [], "PostToolUse": [{"matcher": "Write|Edit|MultiEdit", '
                     '"hooks": [{"type": "command", "command": "memlint hook"}]}]}}')
    assert uninstall(added) == text
