"""Auto memory and session notes: Claude Code's own memory files and what it does to them.

Owns: `automem` (where a project's MEMORY.md lives and how Claude Code truncates it), `sanitise` (the
sanitising of the auto-memory text, C08), `topicscan` (the memory scan of an auto-memory folder), and
the session-notes template and budgets (`notes_template`, `notes_budget`).

May import: `release`, `cli_js`, `source`, `text`. Imported by `loading` (which loads MEMORY.md) and above.
"""
