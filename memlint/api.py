"""memlint's Python API: what the CLI calls, and what tests and plugins may call too."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memlint import engine
from memlint.config import Config, load_config
from memlint.engine import Report
from memlint.fixes import FixResult, fix_loop
from memlint.model.loader import MANAGED_DIR, LoadedContext, load
from memlint.model.release import DEFAULT, Release
from memlint.model.settings import Launch
from memlint.model.workspace import Workspace
from memlint.violations import Applicability, Violation


class Context:
    """What Claude Code loads at start, with the output helpers of `memlint context`."""

    def __init__(self, loaded: LoadedContext) -> None:
        self.loaded = loaded

    def to_dict(self, tokenizer: str = "cl100k") -> dict[str, Any]:
        from memlint.reporters.context import as_dict

        return as_dict(self.loaded, tokenizer)


def default_home() -> Path:
    return Path(os.environ.get("HOME") or os.path.expanduser("~"))


def context(
    start: Path | str = ".",
    home: Path | str | None = None,
    managed_dir: Path | str = MANAGED_DIR,
    workspace: Workspace | None = None,
    release: Release = DEFAULT,
    launch: Launch | None = None,
) -> Context:
    """What Claude Code `release` loads when started in `start` with HOME `home`, launched with
    `launch` (its `--settings` file and environment; default: none)."""
    home_path = Path(home) if home else default_home()
    loaded = load(Path(start), home_path, workspace, Path(managed_dir), True, release, launch or Launch())
    return Context(loaded)


@dataclass(frozen=True)
class FixOutcome:
    """What `fix` did in memory: the changed files (not yet written) and what is left."""

    result: FixResult
    report: Report


def check(
    paths: list[Path], config: Config | None = None, home: Path | None = None, launch: Launch | None = None
) -> Report:
    """Check every memory file under `paths`."""
    config = config or load_config(paths[0] if paths else Path("."))
    return engine.check(paths, config, home, None, launch)


def fix(
    paths: list[Path], config: Config | None = None, home: Path | None = None, unsafe: bool = False,
    fix_only: frozenset[str] = frozenset(), launch: Launch | None = None,
) -> FixOutcome:
    """Apply fixes in memory until nothing is left to apply; `write_all` puts them on disk.
    `fix_only` names rules (code or slug) or fixes (e.g. `split-memory-index`) to apply, unsafe
    ones included, and nothing else."""
    config = config or load_config(paths[0] if paths else Path("."))
    workspace = Workspace(config.release, config.limits)
    ctx_holder: list[engine.RuleContext] = []

    def run() -> list[Violation]:
        ctx = engine.build_context(paths, config, home, workspace, launch)
        ctx_holder[:] = [ctx]
        return engine.run_rules(ctx)

    def accept(v: Violation) -> bool:
        if v.fix is None:
            return False
        named = {v.code, v.slug, v.fix.title.split(":", 1)[0].strip()} & fix_only
        if fix_only and not named:
            return False
        if v.fix.applicability is Applicability.SAFE:
            return True
        return v.fix.applicability is Applicability.UNSAFE and (unsafe or bool(named))

    result, violations = fix_loop(workspace, run, accept)
    files = len(ctx_holder[0].files) if ctx_holder else 0
    report = Report(tuple(violations), files, tuple(p.absolute() for p in paths), config.release)
    return FixOutcome(result, report)
