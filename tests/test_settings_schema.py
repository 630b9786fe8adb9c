"""Which settings files Claude Code ignores whole (memlint/model/loading/settings_schema.py): each
value below was tried with the real CLI on 2.1.197 and 2.1.332 (most on 2.1.268 and 2.1.290 too; the same on all),
beside a `claudeMdExcludes` pattern that then did or did not apply; differential cases s01-s06."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from memlint.model.loading import settings_schema
from memlint.model.loading.settings import read_json, read_settings
from memlint.model.loading.settings_schema import refusal
from memlint.model.release import DEFAULT, SETTINGS_KEYS_SINCE, pick

REFUSED = [
    ("model", 5), ("model", None), ("$schema", 5), ("outputStyle", 5), ("autoMemoryDirectory", 5),
    ("autoMemoryEnabled", "false"), ("autoMemoryEnabled", 0), ("includeCoAuthoredBy", "yes"),
    ("claudeMdExcludes", "**/x.md"), ("claudeMdExcludes", [5]), ("claudeMdExcludes", {}), ("claudeMdExcludes", None),
    ("cleanupPeriodDays", 0), ("cleanupPeriodDays", 1.5), ("cleanupPeriodDays", "30"), ("cleanupPeriodDays", True),
    ("cleanupPeriodDays", math.inf), ("permissions", "x"), ("permissions", None), ("permissions", {"deny": "Read"}),
    ("permissions", {"deny": None}), ("permissions", {"allow": 5}), ("permissions", {"ask": "x"}),
    ("permissions", {"additionalDirectories": "x"}), ("permissions", {"additionalDirectories": [5]}),
    ("enabledPlugins", []), ("enabledPlugins", {"x@y": "yes"}), ("enabledPlugins", {"x@y": None}),
    ("enabledPlugins", {"x@y": [5]}), ("pluginConfigs", "x"), ("pluginConfigs", {"x@y": 5}),
    ("pluginConfigs", {"x@y": {"options": 5}}), ("env", "x"), ("verbose", "yes"), ("respectGitignore", "no"),
    ("enableAllProjectMcpServers", "yes"), ("disableAllHooks", "yes"), ("alwaysThinkingEnabled", "yes"),
    ("disabledMcpjsonServers", [5]), ("apiKeyHelper", 5), ("language", 5), ("statusLine", 5),
]
ACCEPTED = [
    ("model", "x"), ("autoMemoryDirectory", ""), ("cleanupPeriodDays", 1.0), ("cleanupPeriodDays", 3650),
    ("permissions", {"allow": [5]}), ("permissions", {"deny": ["Read", 5, None]}), ("enabledPlugins", {"x@y": ["a"]}),
    ("enabledPlugins", {"x@y": False}), ("env", {"A": 1}), ("env", {"A": None}), ("env", {"A": {}}), ("hooks", "x"),
    ("unknownKey", 5), ("pluginConfigs", {"x@y": {"other": 5}}), ("theme", 5), ("hooks", 5),
    ("enabledMcpjsonServers", "x"), ("enabledMcpjsonServers", ["a"]),  # one string: from 2.1.299 (2.1.332 here)
]


@pytest.mark.parametrize(("key", "value"), REFUSED, ids=[f"{k}={json.dumps(v)}" for k, v in REFUSED])
def test_a_refused_value(key: str, value: object) -> None:
    found = refusal({"claudeMdExcludes": ["**/x.md"], key: value} if key != "claudeMdExcludes" else {key: value})
    assert found is not None and found.keys[0] == key


@pytest.mark.parametrize(("key", "value"), ACCEPTED, ids=[f"{k}={json.dumps(v)}" for k, v in ACCEPTED])
def test_an_accepted_value(key: str, value: object) -> None:
    assert refusal({"claudeMdExcludes": ["**/x.md"], key: value}) is None


def test_the_first_refused_value_in_the_files_order_is_named() -> None:
    found = refusal({"model": "m", "permissions": {"allow": [], "deny": "Read"}, "cleanupPeriodDays": 0})
    assert found is not None and found.key == "permissions.deny" and found.value == "Read"
    assert found.message() == "`permissions.deny` must be a list"


def test_an_ignored_file_sets_nothing_and_a_managed_one_is_read_all_the_same(tmp_path: Path) -> None:
    home, start, managed = tmp_path / "home", tmp_path / "repo", tmp_path / "managed"
    for folder in (home / ".claude", start / ".claude", managed):
        folder.mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"claudeMdExcludes": ["**/u.md"], "model": 5}))
    (start / ".claude" / "settings.json").write_text(json.dumps({"claudeMdExcludes": ["**/p.md"]}))
    (managed / "managed-settings.json").write_text(json.dumps({"claudeMdExcludes": ["**/m.md"], "model": 5}))
    settings = read_settings(start, home, start, DEFAULT, managed)
    assert settings.excludes == ("**/p.md", "**/m.md")
    assert [i.file.path.name for i in settings.ignored] == ["settings.json"]
    assert settings.ignored[0].file.source == "user" and settings.ignored[0].refusal.key == "model"
    assert [f.source for f in settings.files] == ["project", "managed"]


@pytest.mark.parametrize(("text", "read"), [
    ('\ufeff{"model": "m"}', {"model": "m"}),  # one byte-order mark skipped
    ('\ufeff\ufeff{"model": "m"}', None),
    ('{"model": NaN}', None), ('{"cleanupPeriodDays": Infinity}', None), ('{"cleanupPeriodDays": -Infinity}', None),
    ('{"model": "a", "model": "b"}', {"model": "b"}),
    ('// note\n{"model": "m"}', None), ('{"model": "m",}', None),
])
def test_json_is_read_as_claude_codes_javascript_reads_it(tmp_path: Path, text: str, read: object) -> None:
    path = tmp_path / "settings.json"
    path.write_text(text, encoding="utf-8")
    assert read_json(path) == read


def test_json_nested_deeper_than_python_parses_is_passed_over_not_reported(tmp_path: Path) -> None:
    """JavaScript's JSON.parse reads arrays nested 100,000 deep; Python's parser cannot: memlint
    cannot tell what such a file holds, so it neither applies it nor says Claude Code ignores it."""
    from memlint.model.loading.settings import NotJson, read_settings_json

    path = tmp_path / "settings.json"
    path.write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    assert read_settings_json(path) is None and read_json(path) is None
    path.write_text('{"a": [}', encoding="utf-8")
    found = read_settings_json(path)
    assert isinstance(found, NotJson) and found.line == 1


PLAIN_KEYS = [(key, bad, good, kind)
              for keys, kind, bad, good in ((settings_schema._STRING_KEYS, "string", 5, "x"),
                                            (settings_schema._BOOLEAN_KEYS, "boolean", "yes", True),
                                            (settings_schema._STRING_LIST_KEYS, "string list", "x", ["x"]))
              for key in keys]


@pytest.mark.parametrize(("key", "bad", "good", "kind"), PLAIN_KEYS, ids=[k[0] for k in PLAIN_KEYS])
def test_a_plain_key_of_the_wrong_type_is_refused(key: str, bad: object, good: object, kind: str) -> None:
    """Each of these keys, tried with a value of another type on 2.1.197, 2.1.267, 2.1.301 and 2.1.332, made
    Claude Code ignore the file (s05 records three of them); with a value of its type the file applied (s06)."""
    found = refusal({"claudeMdExcludes": ["**/x.md"], key: bad})
    assert found is not None and found.keys == (key,)
    assert refusal({key: None}) is not None
    assert refusal({"claudeMdExcludes": ["**/x.md"], key: good}) is None


# each tried with the real CLI on 2.1.197, 2.1.267, 2.1.301 and 2.1.332 (refused: the file was ignored on all four)
PROBED = [
    ("defaultShell", "zzz", True), ("defaultShell", 5, True), ("defaultShell", "bash", False),
    ("defaultShell", "POWERSHELL", True), ("parentSettingsBehavior", "zzz", True),
    ("parentSettingsBehavior", 5, True), ("parentSettingsBehavior", "first-wins", False),
    ("parentSettingsBehavior", "MERGE", True), ("autoUpdatesChannel", "zzz", True), ("autoUpdatesChannel", 5, True),
    ("autoUpdatesChannel", "latest", False), ("autoUpdatesChannel", "RC", True), ("tui", "zzz", True),
    ("tui", 5, True), ("tui", "default", False), ("tui", "FULLSCREEN", True), ("totalTokensReminder", "zzz", True),
    ("totalTokensReminder", 5, True), ("totalTokensReminder", "off", False),
    ("totalTokensReminder", "PADDED-COUNTDOWN", True), ("disableAutoMode", "zzz", True), ("disableAutoMode", 5, True),
    ("disableAutoMode", "disable", False), ("disableAutoMode", "DISABLE", True), ("daemonColdStart", "zzz", True),
    ("daemonColdStart", 5, True), ("daemonColdStart", "transient", False), ("daemonColdStart", "ASK", True),
    ("skillListingMaxDescChars", 0, True), ("skillListingMaxDescChars", 1.5, True),
    ("skillListingMaxDescChars", "5", True), ("skillListingMaxDescChars", 5, False),
    ("skillListingMaxDescChars", 2.0, False), ("totalTokensReminderBudget", 0, True),
    ("totalTokensReminderBudget", -3, True), ("totalTokensReminderBudget", 100, False),
    ("skillListingBudgetFraction", 0, True), ("skillListingBudgetFraction", 1, False),
    ("skillListingBudgetFraction", 1.5, True), ("skillListingBudgetFraction", 0.5, False),
    ("skillListingBudgetFraction", "0.5", True), ("feedbackSurveyRate", 0, False), ("feedbackSurveyRate", 1, False),
    ("feedbackSurveyRate", 1.01, True), ("feedbackSurveyRate", -0.1, True), ("feedbackSurveyRate", True, True),
    ("modelOverrides", {"a": "b"}, False), ("modelOverrides", {"a": 5}, True), ("modelOverrides", ["a"], True),
    ("modelOverrides", "x", True), ("forceLoginOrgUUID", "x", False), ("forceLoginOrgUUID", ["x"], False),
    ("forceLoginOrgUUID", 5, True), ("forceLoginOrgUUID", [5], True), ("skillOverrides", {"a": "on"}, False),
    ("skillOverrides", {"a": "zz"}, True), ("skillOverrides", "x", True),
]


@pytest.mark.parametrize(("key", "value", "refused"), PROBED, ids=[f"{k}={json.dumps(v)}" for k, v, _ in PROBED])
def test_an_enum_number_or_object_key_as_claude_code_reads_it(key: str, value: object, refused: bool) -> None:
    found = refusal({"claudeMdExcludes": ["**/x.md"], key: value})
    assert (found is not None and found.keys == (key,)) if refused else found is None


# objects, each value tried on 2.1.197, 2.1.267, 2.1.301 and 2.1.332 (the same on all four)
PROBED_OBJECTS = [
    ("statusLine", {"type": "command"}, True),
    ("statusLine", {"command": "x"}, True),
    ("statusLine", {"type": "static", "command": "x"}, True),
    ("statusLine", {"type": "command", "command": "x", "padding": "2"}, True),
    ("statusLine", {"type": "command", "command": "x"}, False),
    ("statusLine", {"type": "command", "command": "x", "padding": 2, "extra": 1}, False),
    ("statusLine", {"type": "command", "command": 5}, True),
    ("statusLine", {"type": "command", "command": "x", "refreshInterval": 0}, False),
    ("statusLine", {"type": "command", "command": "x", "hideVimModeIndicator": "yes"}, True),
    ("attribution", {"commit": 5}, True),
    ("attribution", {"commit": "x", "pr": "y"}, False),
    ("attribution", {"sessionUrl": "no"}, True),
    ("attribution", "x", True),
    ("fileSuggestion", {"type": "command"}, True),
    ("fileSuggestion", {"type": "command", "command": "x"}, False),
    ("fileSuggestion", "x", True),
    ("spinnerVerbs", {"verbs": ["x"]}, True),
    ("spinnerVerbs", {"mode": "append", "verbs": ["x"]}, False),
    ("spinnerVerbs", {"mode": "append", "verbs": "x"}, True),
    ("worktree", {"symlinkDirectories": "x"}, True),
    ("worktree", {"symlinkDirectories": ["node_modules"]}, False),
    ("worktree", "x", True),
    ("breakReminder", {"enabled": "yes"}, True),
    ("breakReminder", {"enabled": True}, False),
    ("quietHours", {"enabled": "yes"}, True),
    ("worktree", {"baseRef": "x"}, True),
    ("worktree", {"baseRef": "head"}, False),
    ("worktree", {"sparsePaths": "x"}, True),
    ("breakReminder", {"intervalMinutes": 0}, True),
    ("breakReminder", {"intervalMinutes": 30, "message": "x"}, False),
    ("breakReminder", {"message": 5}, True),
    ("quietHours", {"start": "25:00"}, True),
    ("quietHours", {"start": "7:00", "end": "07:00"}, False),
    ("quietHours", {"end": "7:5"}, True),
    ("attribution", {"commit": "x", "other": 5}, False),
    ("quietHours", {"start": "\u0667:00"}, True),
    ("breakReminder", {"breakThresholdMinutes": 1.5}, True),
    ("spinnerVerbs", {"mode": "x", "verbs": []}, True),
]


@pytest.mark.parametrize(("key", "value", "refused"), PROBED_OBJECTS,
                         ids=[f"{k}={json.dumps(v)}" for k, v, _ in PROBED_OBJECTS])
def test_an_object_key_as_claude_code_reads_it(key: str, value: object, refused: bool) -> None:
    found = refusal({"claudeMdExcludes": ["**/x.md"], key: value})
    assert (found is not None and found.keys[0] == key) if refused else found is None


@pytest.mark.parametrize(("version", "refused"), [("2.1.197", True), ("2.1.280", True), ("2.1.281", False),
                                                  ("2.1.332", False)])
def test_attribution_as_true_or_false_from_2_1_281(version: str, refused: bool) -> None:
    """Bisected: 2.1.280 ignores a settings file with `attribution: true` (or false), 2.1.281 takes it
    (release switch `attribution_may_be_boolean`; differential case s07 on both ends)."""
    for value in (True, False):
        found = refusal({"claudeMdExcludes": ["**/x.md"], "attribution": value}, pick(version))
        assert (found is not None and found.key == "attribution") if refused else found is None
    assert refusal({"attribution": {"commit": 5}}, pick(version)) is not None
    assert refusal({"attribution": "x"}, pick(version)) is not None


@pytest.mark.parametrize(("version", "string_taken"), [("2.1.197", False), ("2.1.296", False), ("2.1.299", True),
                                                       ("2.1.332", True)])
def test_mcpjson_servers_as_one_string_from_2_1_299(version: str, string_taken: bool) -> None:
    """Bisected: 2.1.296 ignores a settings file with `enabledMcpjsonServers: "x"`, 2.1.299 takes it (2.1.297 and
    2.1.298 were never published); a list of strings is taken and `[5]`, `5`, `true`, an object or `null`
    refused on each of 2.1.197, 2.1.296, 2.1.299 and 2.1.332 (release switch `mcpjson_servers_string`)."""
    release = pick(version)
    found = refusal({"enabledMcpjsonServers": "x"}, release)
    assert found is None if string_taken else (found is not None and found.key == "enabledMcpjsonServers")
    assert refusal({"enabledMcpjsonServers": ["a"]}, release) is None
    for value in ([5], 5, True, {"a": 1}, None):
        assert refusal({"enabledMcpjsonServers": value}, release) is not None


# each tried with the real CLI: refused (the file ignored) from the release that brought the key, taken before
PROBED_SINCE = [
    ("2.1.281", "allowClaudeInChromeWithManagedMcp", "yes", False),
    ("2.1.282", "allowClaudeInChromeWithManagedMcp", "yes", True),
    ("2.1.307", "allowClaudeInChromeWithManagedMcp", "yes", True),
    ("2.1.332", "allowClaudeInChromeWithManagedMcp", "yes", True),
    ("2.1.326", "allowNestedModelAccessUnderForceLogin", "yes", False),
    ("2.1.327", "allowNestedModelAccessUnderForceLogin", "yes", True),
    ("2.1.330", "allowNestedModelAccessUnderForceLogin", "yes", True),
    ("2.1.332", "allowNestedModelAccessUnderForceLogin", "yes", True),
    ("2.1.304", "attributionProject", 5, False),
    ("2.1.305", "attributionProject", 5, True),
    ("2.1.319", "attributionProject", 5, True),
    ("2.1.332", "attributionProject", 5, True),
    ("2.1.233", "autoContinueAtUsageLimit", "yes", False),
    ("2.1.234", "autoContinueAtUsageLimit", "yes", True),
    ("2.1.286", "autoContinueAtUsageLimit", "yes", True),
    ("2.1.332", "autoContinueAtUsageLimit", "yes", True),
    ("2.1.268", "bashEditDiffEnabled", "yes", False),
    ("2.1.269", "bashEditDiffEnabled", "yes", True),
    ("2.1.301", "bashEditDiffEnabled", "yes", True),
    ("2.1.332", "bashEditDiffEnabled", "yes", True),
    ("2.1.322", "clawdFileProgressEnabled", "yes", False),
    ("2.1.323", "clawdFileProgressEnabled", "yes", True),
    ("2.1.328", "clawdFileProgressEnabled", "yes", True),
    ("2.1.332", "clawdFileProgressEnabled", "yes", True),
    ("2.1.247", "desktopSessionCleanupPeriodDays", -1, False),
    ("2.1.248", "desktopSessionCleanupPeriodDays", -1, True),
    ("2.1.292", "desktopSessionCleanupPeriodDays", -1, True),
    ("2.1.332", "desktopSessionCleanupPeriodDays", -1, True),
    ("2.1.228", "disableCommandPluginSources", "yes", False),
    ("2.1.229", "disableCommandPluginSources", "yes", True),
    ("2.1.284", "disableCommandPluginSources", "yes", True),
    ("2.1.332", "disableCommandPluginSources", "yes", True),
    ("2.1.317", "disableReplyCheck", "yes", False),
    ("2.1.318", "disableReplyCheck", "yes", True),
    ("2.1.326", "disableReplyCheck", "yes", True),
    ("2.1.332", "disableReplyCheck", "yes", True),
    ("2.1.318", "disableWindowsBashCommandSplit", "yes", False),
    ("2.1.319", "disableWindowsBashCommandSplit", "yes", True),
    ("2.1.326", "disableWindowsBashCommandSplit", "yes", True),
    ("2.1.332", "disableWindowsBashCommandSplit", "yes", True),
    ("2.1.330", "downloadsMirrorUrl", 5, False),
    ("2.1.331", "downloadsMirrorUrl", 5, True),
    ("2.1.332", "downloadsMirrorUrl", 5, True),
    ("2.1.216", "emojiCompletionEnabled", "yes", False),
    ("2.1.217", "emojiCompletionEnabled", "yes", True),
    ("2.1.277", "emojiCompletionEnabled", "yes", True),
    ("2.1.332", "emojiCompletionEnabled", "yes", True),
    ("2.1.211", "feedbackDrafts", "zzz", False),
    ("2.1.212", "feedbackDrafts", "zzz", True),
    ("2.1.274", "feedbackDrafts", "zzz", True),
    ("2.1.332", "feedbackDrafts", "zzz", True),
    ("2.1.289", "idleCompaction", "yes", False),
    ("2.1.290", "idleCompaction", "yes", True),
    ("2.1.311", "idleCompaction", "yes", True),
    ("2.1.332", "idleCompaction", "yes", True),
    ("2.1.241", "managedSourcesBehavior", "zzz", False),
    ("2.1.242", "managedSourcesBehavior", "zzz", True),
    ("2.1.290", "managedSourcesBehavior", "zzz", True),
    ("2.1.332", "managedSourcesBehavior", "zzz", True),
    ("2.1.330", "modelCatalogPublicKey", 5, False),
    ("2.1.331", "modelCatalogPublicKey", 5, True),
    ("2.1.332", "modelCatalogPublicKey", 5, True),
    ("2.1.330", "modelCatalogUrl", 5, False),
    ("2.1.331", "modelCatalogUrl", 5, True),
    ("2.1.332", "modelCatalogUrl", 5, True),
    ("2.1.209", "processWrapper", 5, False),
    ("2.1.210", "processWrapper", 5, True),
    ("2.1.273", "processWrapper", 5, True),
    ("2.1.332", "processWrapper", 5, True),
    ("2.1.312", "responseComparisonEnabled", "yes", False),
    ("2.1.314", "responseComparisonEnabled", "yes", True),
    ("2.1.324", "responseComparisonEnabled", "yes", True),
    ("2.1.332", "responseComparisonEnabled", "yes", True),
    ("2.1.245", "syncClaudeAiPlugins", "yes", False),
    ("2.1.246", "syncClaudeAiPlugins", "yes", True),
    ("2.1.291", "syncClaudeAiPlugins", "yes", True),
    ("2.1.332", "syncClaudeAiPlugins", "yes", True),
    ("2.1.233", "syncClaudeAiSkills", "yes", False),
    ("2.1.234", "syncClaudeAiSkills", "yes", True),
    ("2.1.286", "syncClaudeAiSkills", "yes", True),
    ("2.1.332", "syncClaudeAiSkills", "yes", True),
    ("2.1.252", "timeZone", 5, False),
    ("2.1.257", "timeZone", 5, True),
    ("2.1.294", "timeZone", 5, True),
    ("2.1.332", "timeZone", 5, True),
    ("2.1.201", "totalTokensReminderAfterUserTurn", "yes", False),
    ("2.1.202", "totalTokensReminderAfterUserTurn", "yes", True),
    ("2.1.269", "totalTokensReminderAfterUserTurn", "yes", True),
    ("2.1.332", "totalTokensReminderAfterUserTurn", "yes", True),
    ("2.1.218", "workflowSizeGuideline", "zzz", False),
    ("2.1.219", "workflowSizeGuideline", "zzz", True),
    ("2.1.278", "workflowSizeGuideline", "zzz", True),
    ("2.1.332", "workflowSizeGuideline", "zzz", True),
]


@pytest.mark.parametrize(("version", "key", "value", "refused"), PROBED_SINCE,
                         ids=[f"{v}-{k}" for v, k, _, _ in PROBED_SINCE])
def test_a_key_is_checked_from_the_release_that_brought_it(version: str, key: str, value: object,
                                                           refused: bool) -> None:
    found = refusal({"claudeMdExcludes": ["**/x.md"], key: value}, pick(version))
    assert (found is not None and found.keys == (key,)) if refused else found is None


def test_every_key_checked_from_a_release_has_its_release_and_its_check() -> None:
    assert set(settings_schema._SINCE) == set(SETTINGS_KEYS_SINCE)
    assert {key for _, key, _, _ in PROBED_SINCE} == set(SETTINGS_KEYS_SINCE)
    assert pick("2.1.197").settings_keys == frozenset() and pick("2.1.332").settings_keys == set(SETTINGS_KEYS_SINCE)
    assert pick("2.1.256").settings_keys < pick("2.1.257").settings_keys  # timeZone


def test_the_releases_page_lists_every_key_checked_from_a_release() -> None:
    page = (Path(__file__).resolve().parents[1] / "docs" / "releases.md").read_text(encoding="utf-8")
    for key, since in SETTINGS_KEYS_SINCE.items():
        row = next(line for line in page.splitlines() if f"`{key}`" in line and line.startswith("| 2.1."))
        assert row.startswith(f"| {'.'.join(map(str, since))} |"), key
