"""The one loader: what a Claude Code release loads from a start folder, and what it attaches later.

Owns: the workspace of every file a run looks at (`workspace`) and which of them are memory files
(`discovery`); the paths one loading walks (`walkpaths`, `projectfiles`, `nested_worktree`); Claude
Code's settings and launch environment (`settings`, with the keys its schema reads: `settings_keys`, and
the values that make it ignore a whole settings file: `settings_schema`),
the paths it refuses (`guards`) and the folders that hold another project's copy (`vendored`); the loading
itself (`loader`, built from one folder's contribution computed once and shared by every start folder
below it: `replay`, `prefix`, `chain`, `shared`, `facts`), its result (`loaded`), what loads later on a
read (`deferred`, `reads`), and the context window around it (`windows`, `compaction`).

May import: `release`, `cli_js`, `source`, `text`, `memory`. Rules read its results through `run`.
"""
