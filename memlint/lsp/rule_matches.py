"""Which files of the tree a conditional rule's `paths:` matches: the files Claude Code loads the
rule for when it reads one of them (the rule's `paths:` hover).

One small function over the model (the project's file listing and the loader's own matcher), kept
here so that a shared "what loads when Claude reads this file" answer can replace it."""

from __future__ import annotations

from pathlib import Path

from memlint.model.cli_js.globs import rule_matches
from memlint.model.loading.projectfiles import project_files
from memlint.model.loading.workspace import Workspace
from memlint.records import dataclass
from memlint.rules.layout._common import rule_base


@dataclass(frozen=True)
class RuleMatches:
    """The files under `base` (the folder holding `.claude/`) that the rule's patterns match."""

    base: Path
    patterns: tuple[str, ...]
    total: int  # files listed under `base`
    count: int  # of them, how many match
    first: tuple[str, ...]  # the first matches in listing order, relative to `base`


def matching_files(workspace: Workspace, rule: Path, patterns: tuple[str, ...], keep: int = 5,
                   home: Path | None = None, project: Path | None = None) -> RuleMatches | None:
    """The files of the tree that `patterns` (a rule's `paths:`) match; None when `rule` is not
    under `.claude/rules/` or its folder is too large to list. A rule of HOME's `.claude/rules/`
    (user memory) matches files of the project Claude Code is started in (`project`), as the
    loader has it, not files of HOME."""
    base = rule_base(rule)
    if base is not None and base in (home, Path.home()):
        base = project
    if base is None:
        return None
    files = project_files(workspace, base)
    if files is None:
        return None
    first: list[str] = []
    count = 0
    for relative in files:
        if rule_matches(patterns, relative):
            count += 1
            if len(first) < keep:
                first.append(relative)
    return RuleMatches(base, patterns, len(files), count, tuple(first))
