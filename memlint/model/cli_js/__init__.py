"""Emulations of the JavaScript inside Claude Code's CLI, byte for byte where memory loading depends on it.

Owns: JavaScript string semantics (`jstext`), JavaScript regular expressions run with Python's `re`
(`jsregex`, and `linearmatch`, which runs the glob matchers' regexes without backtracking), picomatch
(`picoglob`, for `claudeMdExcludes`), the gitignore matcher a conditional rule's `paths:` goes through
(`gitignore`), the reading of a permission rule's text (`permission_rules`, for Read deny rules), the two glob dialects of the loader (`globs`), and Bun's YAML parser (`bunyaml`, with
`simpleyaml` for the common frontmatter shapes read without PyYAML).

May import: the standard library and the runtime dependencies, nothing else of memlint. Everything in
`memlint.model` may import it.
"""
