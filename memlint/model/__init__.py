"""What exists on disk and what a Claude Code release makes of it.

Sub-packages, bottom to top; each may import the ones before it, never one after
(`tests/test_architecture.py` holds this order):

- `release` (a module): the release modelled, as named switches; imported by all the others;
- `cli_js`: emulations of the CLI's JavaScript (strings, regexes, globs, picomatch, gitignore, YAML);
- `source`: reading the repository's files safely, once, within bounds;
- `text`: one file's text as Claude Code reads it (markdown, frontmatter, tokens, instructions);
- `memory`: auto memory and session notes;
- `loading`: the workspace, the settings and the one loader;
- `run`: what a rule sees of a run.
"""
