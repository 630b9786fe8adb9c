"""Which settings files Claude Code ignores whole.

Claude Code checks a user, project, local or `--settings` file against its settings schema and, when
one value breaks it, uses nothing of the file: neither its `claudeMdExcludes` nor its deny rules, its
`autoMemoryDirectory` or the AGENTS.md plugin's options. Managed settings are read value by value (a
bad value there drops no file).

memlint checks the values below, each seen refused with the real CLI, the same on 2.1.197 and
2.1.332, most on 2.1.268 and 2.1.290 too (tests/differential, cases `s01`-`s04`, and
tests/test_settings_schema.py); the keys of `_STRING_KEYS`, `_BOOLEAN_KEYS` and `_STRING_LIST_KEYS`,
read from the schemas of 2.1.197 and 2.1.332 (the same plain type in both, no fallback value), were
each tried with a value of the wrong type on 2.1.197, 2.1.267, 2.1.301 and 2.1.332, and refused on
all four (`s05`); so were the enums, numbers and objects of strings below them, each value tried
on those four releases (tests/test_settings_schema.py lists them), and the objects of `_OBJECTS`
(`statusLine` without its `command`, `quietHours` at `25:00`, ...). JSON `null` is no value of any
of them. A value of another key, or another field of those objects, is taken as Claude Code takes a
well-formed one.

Accepted: an `env` value of any type, an `enabledPlugins` value that is true, false or a list of
strings, any entry of a permission list (one that is no rule is dropped alone), a `hooks` or `theme`
of any shape. The keys of `_SINCE` are checked from the release that brought them
(`Release.settings_keys`, memlint.model.release.SETTINGS_KEYS_SINCE): before it, Claude Code does not know
the key and takes any value. Not checked: a key whose check depends on the account (`permissions.defaultMode`). Two
checks changed between releases, each a release switch: `attribution` may be true or false from 2.1.281
on (`attribution_may_be_boolean`), `enabledMcpjsonServers` one string from 2.1.299 on
(`mcpjson_servers_string`; a list of strings on every release, nothing else).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from memlint.model.release import DEFAULT, Release


class Refusal(NamedTuple):
    """The first value of a settings file that Claude Code's schema refuses."""

    keys: tuple[str, ...]  # where it stands: ("cleanupPeriodDays",), ("permissions", "deny"), ...
    expected: str  # what the value must be, in words
    value: Any

    @property
    def key(self) -> str:
        """The keys joined with dots (`permissions.deny`, `pluginConfigs.<id>.options`)."""
        return ".".join(self.keys)

    def message(self) -> str:
        return f"`{self.key}` must be {self.expected}"


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _boolean(value: Any) -> bool:
    return isinstance(value, bool)


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _number(value: Any) -> bool:
    """A JSON number (`true` is none)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _whole(least: int) -> Callable[[Any], bool]:
    """A whole number of at least `least` (`1.0` is one; `true` is no number in JSON)."""
    return lambda value: _number(value) and value == int(value) and value >= least


_days = _whole(1)


def _fraction(value: Any) -> bool:
    """Over 0, at most 1."""
    return _number(value) and 0 < value <= 1


def _rate(value: Any) -> bool:
    """From 0 to 1."""
    return _number(value) and 0 <= value <= 1


def _one_of(*allowed: str) -> tuple[Callable[[Any], bool], str]:
    """A check that the value is one of `allowed` (as written: `"RC"` is not `"rc"`), and its words."""
    return (lambda value: isinstance(value, str) and value in allowed,
            "one of " + ", ".join(f"`{a}`" for a in allowed))


def _string_record(value: Any) -> bool:
    """An object whose every value is a string."""
    return isinstance(value, dict) and all(isinstance(item, str) for item in value.values())


_SKILL_LISTINGS = ("on", "name-only", "user-invocable-only", "off")


# keys whose value must be a string, true or false, or a list of strings on every release (see above)
_STRING_KEYS = (
    "proxyAuthHelper", "awsCredentialExport", "awsAuthRefresh", "gcpAuthRefresh", "prUrlTemplate",
    "otelHeadersHelper", "advisorModel", "agent", "minimumVersion", "requiredMinimumVersion",
    "requiredMaximumVersion", "plansDirectory", "claudeMd", "pluginTrustMessage",
)
_BOOLEAN_KEYS = (
    "wslInheritsWindowsSettings", "includeGitInstructions", "enforceAvailableModels",
    "disableClaudeAiConnectors", "disableBundledSkills", "disableAgentView", "disableRemoteControl",
    "disableWorkflows", "disableArtifact", "enableArtifact", "enableWorkflows", "workflowKeywordTriggerEnabled",
    "disableSkillShellExecution", "respondToBashCommands", "allowManagedHooksOnly",
    "allowManagedPermissionRulesOnly", "allowManagedMcpServersOnly", "allowAllClaudeAiMcps",
    "disableSideloadFlags", "forceRemoteSettingsRefresh", "skipWebFetchPreflight", "spinnerTipsEnabled",
    "syntaxHighlightingDisabled", "terminalTitleFromRename", "fastMode", "fastModePerSessionOptIn",
    "promptSuggestionEnabled", "awaySummaryEnabled", "showClearContextOnPlanAccept", "channelsEnabled",
    "prefersReducedMotion", "doneMeansMerged", "autoDreamEnabled", "showThinkingSummaries",
    "skipDangerousModePermissionPrompt", "skipWorkflowUsageWarning", "autoCompactEnabled",
    "precomputeCompactionEnabled", "switchModelsOnFlag", "autoScrollEnabled", "wheelScrollAccelerationEnabled",
    "fileCheckpointingEnabled", "showTurnDuration", "showMessageTimestamps", "terminalProgressBarEnabled",
    "todoFeatureEnabled", "remoteControlAtStartup", "isolatePeerMachines", "autoUploadSessions",
    "inputNeededNotifEnabled", "agentPushNotifEnabled",
)
_STRING_LIST_KEYS = (
    "fallbackModel", "availableModels", "allowedHttpHookUrls", "httpHookAllowedEnvVars",
    "pluginSuggestionMarketplaces", "companyAnnouncements",
)

_SCALARS: dict[str, tuple[Callable[[Any], bool], str]] = {
    **{key: (_string, "a string") for key in _STRING_KEYS},
    **{key: (_boolean, "true or false") for key in _BOOLEAN_KEYS},
    **{key: (_strings, "a list of strings") for key in _STRING_LIST_KEYS},
    "defaultShell": _one_of("bash", "powershell"),
    "parentSettingsBehavior": _one_of("first-wins", "merge"),
    "autoUpdatesChannel": _one_of("latest", "stable", "rc"),
    "tui": _one_of("default", "fullscreen"),
    "totalTokensReminder": _one_of("off", "infinite", "fixed", "countdown", "padded-countdown"),
    "disableAutoMode": _one_of("disable"),
    "daemonColdStart": _one_of("transient", "ask"),
    "skillListingMaxDescChars": (_days, "a whole number of at least 1"),
    "totalTokensReminderBudget": (_days, "a whole number of at least 1"),
    "skillListingBudgetFraction": (_fraction, "a number over 0 and at most 1"),
    "feedbackSurveyRate": (_rate, "a number from 0 to 1"),
    "modelOverrides": (_string_record, "an object of strings"),
    "forceLoginOrgUUID": (lambda value: isinstance(value, str) or _strings(value), "a string or a list of strings"),
    "skillOverrides": (lambda value: isinstance(value, dict) and all(v in _SKILL_LISTINGS for v in value.values()),
                       "an object of " + ", ".join(f"`{a}`" for a in _SKILL_LISTINGS)),
    "$schema": (_string, "a string"),
    "model": (_string, "a string"),
    "outputStyle": (_string, "a string"),
    "autoMemoryDirectory": (_string, "a string"),
    "autoMemoryEnabled": (_boolean, "true or false"),
    "includeCoAuthoredBy": (_boolean, "true or false"),
    "claudeMdExcludes": (_strings, "a list of strings"),
    "cleanupPeriodDays": (_days, "a whole number of at least 1"),
    "apiKeyHelper": (_string, "a string"),
    "language": (_string, "a string"),
    "verbose": (_boolean, "true or false"),
    "respectGitignore": (_boolean, "true or false"),
    "enableAllProjectMcpServers": (_boolean, "true or false"),
    "disableAllHooks": (_boolean, "true or false"),
    "alwaysThinkingEnabled": (_boolean, "true or false"),
    "disabledMcpjsonServers": (_strings, "a list of strings"),
}


def _permissions(value: Any) -> Refusal | None:
    if not isinstance(value, dict):
        return Refusal(("permissions",), "an object", value)
    for key in ("allow", "deny", "ask"):  # (an entry that is no rule is dropped alone)
        if key in value and not isinstance(value[key], list):
            return Refusal(("permissions", key), "a list", value[key])
    if "additionalDirectories" in value and not _strings(value["additionalDirectories"]):
        return Refusal(("permissions", "additionalDirectories"), "a list of strings", value["additionalDirectories"])
    return None


def _env(value: Any) -> Refusal | None:
    return None if isinstance(value, dict) else Refusal(("env",), "an object", value)


def _enabled_plugins(value: Any) -> Refusal | None:
    if not isinstance(value, dict):
        return Refusal(("enabledPlugins",), "an object", value)
    for plugin, on in value.items():
        if not (isinstance(on, bool) or _strings(on)):
            return Refusal(("enabledPlugins", plugin), "true, false or a list of strings", on)
    return None


def _plugin_configs(value: Any) -> Refusal | None:
    if not isinstance(value, dict):
        return Refusal(("pluginConfigs",), "an object", value)
    for plugin, config in value.items():
        if not isinstance(config, dict):
            return Refusal(("pluginConfigs", plugin), "an object", config)
        if "options" in config and not isinstance(config["options"], dict):
            return Refusal(("pluginConfigs", plugin, "options"), "an object", config["options"])
    return None


def _object_of(key: str, whole: str, fields: Mapping[str, tuple[Callable[[Any], bool], str]],
               required: tuple[str, ...] = ()) -> Callable[[Any], Refusal | None]:
    """The check of an object whose `fields` Claude Code checks (other keys it lets be), `required` there."""

    def check(value: Any) -> Refusal | None:
        if not isinstance(value, dict) or any(name not in value for name in required):
            return Refusal((key,), whole, value)
        for name, (ok, words) in fields.items():
            if name in value and not ok(value[name]):
                return Refusal((key, name), words, value[name])
        return None

    return check


_COMMAND = {"type": ((lambda value: value == "command"), "`command`"), "command": (_string, "a string")}
_CLOCK = (lambda value: isinstance(value, str) and re.fullmatch(r"([01]?[0-9]|2[0-3]):[0-5][0-9]", value) is not None,
          "a 24-hour time (HH:MM)")
_ATTRIBUTION_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "commit": (_string, "a string"), "pr": (_string, "a string"), "sessionUrl": (_boolean, "true or false")}
_ATTRIBUTION = _object_of("attribution", "an object", _ATTRIBUTION_FIELDS)
_ATTRIBUTION_OR_BOOLEAN = _object_of("attribution", "true, false or an object", _ATTRIBUTION_FIELDS)

_OBJECTS: dict[str, Callable[[Any], Refusal | None]] = {
    "statusLine": _object_of("statusLine", "an object with a `type` and a `command`", {
        **_COMMAND, "padding": (_number, "a number"), "hideVimModeIndicator": (_boolean, "true or false")},
        ("type", "command")),
    "fileSuggestion": _object_of("fileSuggestion", "an object with a `type` and a `command`", _COMMAND,
                                 ("type", "command")),
    "spinnerVerbs": _object_of("spinnerVerbs", "an object with a `mode` and `verbs`", {
        "mode": _one_of("append", "replace"), "verbs": (_strings, "a list of strings")}, ("mode", "verbs")),
    "worktree": _object_of("worktree", "an object", {
        "symlinkDirectories": (_strings, "a list of strings"), "sparsePaths": (_strings, "a list of strings"),
        "baseRef": _one_of("fresh", "head")}),
    "breakReminder": _object_of("breakReminder", "an object", {
        "enabled": (_boolean, "true or false"), "intervalMinutes": (_days, "a whole number of at least 1"),
        "breakThresholdMinutes": (_days, "a whole number of at least 1"), "message": (_string, "a string")}),
    "quietHours": _object_of("quietHours", "an object", {
        "enabled": (_boolean, "true or false"), "start": _CLOCK, "end": _CLOCK}),
    "permissions": _permissions,
    "env": _env,
    "enabledPlugins": _enabled_plugins,
    "pluginConfigs": _plugin_configs,
}


def _attribution(value: Any, release: Release) -> Refusal | None:
    """An object of texts; from `attribution_may_be_boolean` true or false as well."""
    if release.attribution_may_be_boolean:
        return None if isinstance(value, bool) else _ATTRIBUTION_OR_BOOLEAN(value)
    return _ATTRIBUTION(value)


def _mcpjson_servers(value: Any, release: Release) -> Refusal | None:
    """A list of strings; from `mcpjson_servers_string` one string as well."""
    if _strings(value) or (release.mcpjson_servers_string and isinstance(value, str)):
        return None
    words = "a string or a list of strings" if release.mcpjson_servers_string else "a list of strings"
    return Refusal(("enabledMcpjsonServers",), words, value)


# keys Claude Code's schema checks from a release on (`Release.settings_keys`; unknown, so taken, before)
_SINCE: dict[str, tuple[Callable[[Any], bool], str]] = {
    **{key: (_boolean, "true or false") for key in (
        "totalTokensReminderAfterUserTurn", "emojiCompletionEnabled", "disableCommandPluginSources",
        "syncClaudeAiSkills", "autoContinueAtUsageLimit", "syncClaudeAiPlugins", "bashEditDiffEnabled",
        "allowClaudeInChromeWithManagedMcp", "idleCompaction", "responseComparisonEnabled", "disableReplyCheck",
        "disableWindowsBashCommandSplit", "clawdFileProgressEnabled", "allowNestedModelAccessUnderForceLogin")},
    **{key: (_string, "a string") for key in (
        "processWrapper", "timeZone", "attributionProject", "modelCatalogUrl", "modelCatalogPublicKey",
        "downloadsMirrorUrl")},
    "feedbackDrafts": _one_of("notify", "quiet", "off"),
    "workflowSizeGuideline": _one_of("unrestricted", "small", "medium", "large"),
    "managedSourcesBehavior": _one_of("first-wins", "merge"),
    "desktopSessionCleanupPeriodDays": (_whole(0), "a whole number of at least 0"),
}

# keys whose check changed between releases (each change a release switch)
_BY_RELEASE: dict[str, Callable[[Any, Release], Refusal | None]] = {
    "attribution": _attribution,
    "enabledMcpjsonServers": _mcpjson_servers,
}


def refusal(data: Mapping[str, Any], release: Release = DEFAULT) -> Refusal | None:
    """The first value of `data` (in the file's order) that makes `release` ignore the file, or None."""
    for key, value in data.items():
        scalar = _SCALARS.get(key)
        if scalar is not None:
            if not scalar[0](value):
                return Refusal((key,), scalar[1], value)
            continue
        nested = _OBJECTS.get(key)
        since = _SINCE.get(key) if key in release.settings_keys else None
        if since is not None:
            if not since[0](value):
                return Refusal((key,), since[1], value)
            continue
        changed = _BY_RELEASE.get(key)
        found = nested(value) if nested is not None else changed(value, release) if changed is not None else None
        if found is not None:
            return found
    return None
