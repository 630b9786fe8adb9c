"""One memory file's text as Claude Code reads it, and what memlint parses from it.

Owns: `document` (a file's bytes, its decoded text, its parses, made lazily), `markdown` (`@include`
references and HTML-comment stripping as Claude Code does them, with `plain_markdown`: the tokens of
a plain file made without markdown-it-py), `frontmatter` (YAML frontmatter as
Claude Code finds and parses it), `comments` (the HTML comments Claude Code cuts), `tokens` (token counts from the bundled cl100k_base table) and
`instructions` (the one multilingual detector of a standing instruction, shared by the split and the
rules).

May import: `release`, `cli_js`, `source`. Knows nothing of folders, start folders or loading.
"""
