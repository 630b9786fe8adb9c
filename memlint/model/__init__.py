"""What exists on disk and what Claude Code makes of it."""
