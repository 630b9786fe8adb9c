"""memlint as a Claude Code hook: `guard` answers a PostToolUse hook after a Write or Edit of a
memory file; `settings_edit` adds the hook to a settings.json and removes it again."""
