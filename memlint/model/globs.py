"""The two glob dialects of Claude Code's loader.

- `claudeMdExcludes` use picomatch (`dot: true`) against the absolute path with `/` separators
  (`memlint.model.picoglob`, as picomatch 4.0.7, which matches the library bundled in Claude Code);
- rules' `paths:` use gitignore semantics (the matcher bundled in Claude Code, ported in
  `memlint.model.gitignore`), against the path relative to the folder that holds `.claude/`.
"""

from __future__ import annotations

from memlint.model.gitignore import ignores, ignores_any
from memlint.model.picoglob import compile_glob


def picomatch(path: str, patterns: tuple[str, ...]) -> bool:
    """Whether `path` (absolute, `/` separators) matches any pattern, as picomatch with dot files."""
    return any(compile_glob(p)(path) for p in patterns if p)


def rule_matches(patterns: tuple[str, ...], relative_path: str) -> bool:
    """Whether Claude Code loads a conditional rule when a file at `relative_path` is read."""
    return ignores(patterns, relative_path)


def any_matches(patterns: tuple[str, ...], relative_paths: tuple[str, ...]) -> bool:
    """Whether a conditional rule matches any of `relative_paths` (each folder tested once)."""
    return ignores_any(patterns, relative_paths)
