"""The top-level keys of a Claude Code settings file that Claude Code reads.

The union of the keys of the settings schema in the CLI of every release memlint models (2.1.197,
2.1.332), read from the CLI bundle (its `$schema` ... object: tests/differential/test_misses.py
checks, where the CLI is cached, that no key of it is missing here). A key outside this set is kept
in the file and never used: text written under it reaches neither Claude Code nor the model
(observed with the real CLI: tests/differential/cases_misses.py, `mi03_settings_unread_keys`).
"""

from __future__ import annotations

SETTINGS_KEYS = frozenset({
    "$schema", "additionalDirectoryConfigRoots", "additionalMarketplaces", "advisorModel", "agent",
    "agentPushNotifEnabled", "allowAllClaudeAiMcps", "allowClaudeInChromeWithManagedMcp", "allowedChannelPlugins",
    "allowedHttpHookUrls", "allowedMarketplaces", "allowedMcpServers", "allowedProviders", "allowManagedHooksOnly",
    "allowManagedMcpServersOnly", "allowManagedPermissionRulesOnly", "allowNestedModelAccessUnderForceLogin",
    "alwaysThinkingEnabled", "apiKeyHelper", "appendPlugins", "askUserQuestionTimeout", "attribution",
    "attributionProject", "attributionProjectPolicy", "autoCompactEnabled", "autoCompactOfferAnswer",
    "autoCompactRaisedForLoad", "autoCompactWindow", "autoContinueAtUsageLimit", "autoDreamEnabled",
    "autoMemoryDirectory", "autoMemoryEnabled", "autoScrollEnabled", "autoUpdatesChannel", "autoUploadSessions",
    "availableModels", "availableModelsMatch", "awaySummaryEnabled", "awsAuthRefresh", "awsCredentialExport",
    "bashEditDiffEnabled", "bashOutputMaxChars", "blockedMarketplaces", "breakReminder", "channelsEnabled",
    "claudeMd", "claudeMdExcludes", "clawdFileProgressEnabled", "cleanupPeriodDays", "companyAnnouncements",
    "crossSessionInbound", "daemonColdStart", "defaultShell", "deniedMcpServers", "deniedModels",
    "desktopMcpServersListScope", "desktopSessionCleanupPeriodDays", "dialogExpiry", "disableAgentView",
    "disableAllHooks", "disableArtifact", "disableAutoMode", "disableBundledSkills", "disableClaudeAiConnectors",
    "disableCommandPluginSources", "disabledMcpjsonServers", "disableRemoteControl", "disableReplyCheck",
    "disableSideloadFlags", "disableSkillShellExecution", "disableWindowsBashCommandSplit", "disableWorkflows",
    "doneMeansMerged", "downloadsMirrorUrl", "editorMode", "effortLevel", "emojiCompletionEnabled",
    "enableAllProjectMcpServers", "enableArtifact", "enabledMcpjsonServers", "enabledPlugins", "enableWorkflows",
    "enforceAvailableModels", "env", "extraKnownMarketplaces", "fallbackModel", "fastMode", "fastModePerSessionOptIn",
    "feedbackDrafts", "feedbackSurveyRate", "fileCheckpointingEnabled", "fileSuggestion", "footerLinksRegexes",
    "forceLoginGatewayUrl", "forceLoginMethod", "forceLoginOrgUUID", "forceRemoteSettingsRefresh",
    "gatewayInternalNetworks", "gcpAuthRefresh", "hooks", "httpHookAllowedEnvVars", "idleCompaction",
    "includeCoAuthoredBy", "includeGitInstructions", "inputNeededNotifEnabled", "isolatePeerMachines",
    "keybindingFlavor", "language", "managedMcpServers", "managedSourcesBehavior", "maxEffortLevel", "maxProseWidth",
    "minimumVersion", "model", "modelCatalogPublicKey", "modelCatalogUrl", "modelOverrides", "modelPicker",
    "modelPricing", "modelProposedGoals", "modelSettings", "otelHeadersHelper", "outputStyle",
    "parentSettingsBehavior", "permissions", "plansDirectory", "pluginConfigs", "pluginSuggestionMarketplaces",
    "pluginTrustMessage", "policyHelper", "policyHelpers", "precomputeArmTokens", "precomputeCompactionEnabled",
    "preferredNotifChannel", "prefersReducedMotion", "prependPlugins", "processWrapper", "promptCacheTtl",
    "promptSuggestionEnabled", "proxyAuthHelper", "prUrlTemplate", "quietHours", "remote", "remoteControl",
    "remoteControlAtStartup", "remoteMessageReceipts", "remoteTools", "requiredMaximumVersion",
    "requiredMinimumVersion", "respectGitignore", "respondToBashCommands", "responseComparisonEnabled", "sandbox",
    "showClearContextOnPlanAccept", "showMessageTimestamps", "showThinkingSummaries", "showTurnDuration",
    "skillListingBudgetFraction", "skillListingMaxDescChars", "skillOverrides", "skipDangerousModePermissionPrompt",
    "skipWebFetchPreflight", "skipWorkflowUsageWarning", "spellcheck", "spinnerTipsEnabled", "spinnerTipsOverride",
    "spinnerVerbs", "sshConfigs", "sshHostCommands", "statusLine", "strictKnownMarketplaces",
    "strictPluginOnlyCustomization", "subagentPromptCacheTtl", "subagentStatusLine", "switchModelsOnFlag",
    "syncClaudeAiPlugins", "syncClaudeAiSkills", "syntaxHighlightingDisabled", "taskOutputMaxChars", "teammateMode",
    "terminalProgressBarEnabled", "terminalTitleFromRename", "theme", "timeFormat", "timeZone", "todoFeatureEnabled",
    "totalTokensReminder", "totalTokensReminderAfterUserTurn", "totalTokensReminderBudget", "tui", "ultracode",
    "verbose", "viewMode", "vimInsertModeRemaps", "voice", "wheelScrollAccelerationEnabled",
    "workflowKeywordTriggerEnabled", "workflowSizeGuideline", "worktree", "wslInheritsWindowsSettings",
})

# Keys Claude Code reads only from managed settings (organization policy): `claudeMd`, CLAUDE.md-style
# text sent as organization-managed memory. From user, project, local and `--settings` files the
# text is not sent (observed: `mi03_settings_unread_keys` and by hand for user and flag settings).
MANAGED_ONLY_KEYS = frozenset({"claudeMd"})
