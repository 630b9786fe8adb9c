"""The configuration resolved once per run: which files are checked, which codes apply to each
file, and each selected rule's options. The engine builds one `Selection` from the validated
`Config` at the start of a run and hands it to the rules (`ctx.selection`); nothing below the
engine asks the configuration anything.

Patterns (`exclude`, `per-file-ignores`) are compiled once here, and each path's answer is
computed once per run (a path asked about again, by another violation, is a look-up)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memlint.model.source.ignorefiles import gitignore_spec
from memlint.records import dataclass
from memlint.rules import Rule, all_rules

if TYPE_CHECKING:
    import pathspec

    from memlint.config import Config
    from memlint.model.loading.discovery import MemoryFile


@dataclass(frozen=True)
class Selection:
    """One run's rules, their options, and the files and codes that apply."""

    root: Path  # the configuration's folder: patterns are relative to it
    rules: tuple[Rule, ...]  # the selected rules, in registration order
    selected: frozenset[str]  # their codes
    options: Mapping[str, Mapping[str, Any]]  # by code (every rule): its defaults with the configuration's values
    memory_dirs: tuple[Path, ...] = ()  # extra auto-memory folders (`memory-dirs`)
    session_notes_template: Path | None = None
    files: tuple[MemoryFile, ...] = ()  # the files checked (set by the engine once discovered)
    _exclude: pathspec.GitIgnoreSpec | None = None
    _ignores: tuple[tuple[pathspec.GitIgnoreSpec, frozenset[str]], ...] = ()
    _answers: dict[Path, frozenset[str]] = field(default_factory=dict, repr=False, compare=False)

    def excluded(self, path: Path) -> bool:
        """`exclude` / `extend-exclude` matches `path`."""
        return self._exclude is not None and self._exclude.match_file(_relative(path, self.root))

    def ignored(self, path: Path) -> frozenset[str]:
        """The codes `per-file-ignores` turns off for `path` (once per path and run)."""
        if not self._ignores:
            return frozenset()
        found = self._answers.get(path)
        if found is None:
            rel = _relative(path, self.root)
            found = self._answers[path] = frozenset(
                code for spec, codes in self._ignores if spec.match_file(rel) for code in codes)
        return found

    def rule_options(self, rule: Rule) -> Mapping[str, Any]:
        return self.options.get(rule.code, rule.meta.options)


def select(config: Config, rules: Sequence[Rule] | None = None) -> Selection:
    """`config` resolved for one run; `rules`, when given, are the only rules the run may run (the
    write-time hook names its few: importing every rule would cost it more than its whole check)."""
    registered = all_rules() if rules is None else list(rules)
    selected, configured, exclude = config.selected, config.options, config.exclude
    rules = tuple(r for r in registered if r.code in selected)
    options = {r.code: {**r.meta.options, **configured.get(r.code, {})} for r in registered}
    return Selection(
        config.root, rules, selected, options, config.memory_dirs, config.session_notes_template,
        (), gitignore_spec(exclude) if exclude else None,
        tuple((gitignore_spec((pattern,)), codes) for pattern, codes in config.per_file_ignores),
    )


def _relative(path: Path, root: Path) -> str:
    try:
        return path.absolute().relative_to(root.absolute()).as_posix()
    except ValueError:
        return path.absolute().as_posix()

