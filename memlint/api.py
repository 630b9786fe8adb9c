"""memlint's Python API: what the CLI calls, and what tests and plugins may call too.

    from memlint import api
    report = api.check(["."])                      # paths as str or os.PathLike
    for v in report.violations:
        print(v.path, v.line, v.code, v.message)
    outcome = api.fix(["."])                       # in memory; memlint.fixes.write_all writes it
    ctx = api.context(".", home="~")               # what Claude Code loads at start

Everything here is typed (the package ships `py.typed`)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from memlint import engine
from memlint.config import Config, load_config
from memlint.engine import Report
from memlint.model.loading.loader import MANAGED_DIR, LoadedContext, load
from memlint.model.loading.settings import Launch
from memlint.model.loading.workspace import Workspace
from memlint.model.release import DEFAULT, Release
from memlint.model.source.files import FileProblem
from memlint.records import dataclass
from memlint.violations import Violation

if TYPE_CHECKING:
    from memlint.fixes import FixResult
    from memlint.model.loading.windows import Window

__all__ = ["Context", "FixOutcome", "Report", "StrPath", "check", "check_staged", "context", "default_home", "fix"]

StrPath = Union[str, "os.PathLike[str]"]  # a path as str or any os.PathLike (pathlib.Path, ...)
# what stands for a file's content in `check` and `fix` (`stdin`): an editor's text, or bytes read
# from standard input as a file's are, or why they could not be (more than Claude Code reads)
Stdin = str | bytes | FileProblem


def _paths(paths: Sequence[StrPath] | StrPath) -> list[Path]:
    """One path or a sequence of them, as Paths; a lone str is one path, not its characters."""
    if isinstance(paths, (str, os.PathLike)):
        return [Path(paths)]
    return [Path(p) for p in paths] or [Path(".")]


def _home(home: StrPath | None) -> Path | None:
    return None if home is None else Path(os.path.expanduser(os.fspath(home)))


def _with_stdin(stdin: tuple[Path, Stdin] | None, config: Config) -> Workspace:
    """A workspace where `stdin`'s file (if any) holds what was given instead of what is on disk:
    text, or bytes read as a file's are (its problem when it cannot be read)."""
    workspace = Workspace(config.release, config.limits)
    if stdin is not None:
        path, given = stdin
        if isinstance(given, str):
            workspace.put(path, given)
        else:
            workspace.put_read(path, given)
    return workspace


class Context:
    """What Claude Code loads at start, with the output helpers of `memlint context`."""

    def __init__(self, loaded: LoadedContext) -> None:
        self.loaded = loaded

    def to_dict(self, tokenizer: str = "cl100k", window: Window | None = None) -> dict[str, Any]:
        from memlint.reporters.context import DEFAULT as DEFAULT_WINDOW
        from memlint.reporters.context import as_dict

        return as_dict(self.loaded, tokenizer, window or DEFAULT_WINDOW)


def default_home() -> Path:
    return Path(os.environ.get("HOME") or os.path.expanduser("~"))


def context(
    start: StrPath = ".",
    home: StrPath | None = None,
    managed_dir: StrPath = MANAGED_DIR,
    workspace: Workspace | None = None,
    release: Release = DEFAULT,
    launch: Launch | None = None,
) -> Context:
    """What Claude Code `release` loads when started in `start` with HOME `home`, launched with
    `launch` (its `--settings` file and environment; default: none)."""
    home_path = _home(home) or default_home()
    loaded = load(Path(start), home_path, workspace, Path(managed_dir), True, release, launch or Launch())
    return Context(loaded)


@dataclass(frozen=True)
class FixOutcome:
    """What `fix` did in memory: the changed files (not yet written) and what is left."""

    result: FixResult
    report: Report
    initial: tuple[Violation, ...] = ()  # what the first check found, before any fix


def check(
    paths: Sequence[StrPath] | StrPath = (".",), config: Config | None = None, home: StrPath | None = None,
    launch: Launch | None = None, *, stdin: tuple[Path, Stdin] | None = None,
) -> Report:
    """Check every memory file under `paths` (files or folders). `config` defaults to the nearest
    `.memlint.toml` / `pyproject.toml [tool.memlint]` above the first path; `home` adds that HOME's
    user memory and this project's auto memory; `launch` is Claude Code's `--settings` file and
    environment; `stdin` is (file, text) to check in place of the file on disk."""
    targets = _paths(paths)
    config = config or load_config(targets[0])
    workspace = _with_stdin(stdin, config)
    try:
        return engine.check(targets, config, _home(home), workspace, launch)
    finally:
        workspace.close()  # the run is over: its model is freed before the report is written


def check_staged(
    paths: Sequence[StrPath] | StrPath = (".",), config: Config | None = None, home: StrPath | None = None,
    launch: Launch | None = None,
) -> Report:
    """`check` of what the git index holds (memlint/staged.py): files as staged, untracked and
    ignored files missing; while a commit is being made, only the findings it is answerable for."""
    from dataclasses import replace

    from memlint.staged import read_view

    targets = _paths(paths)
    config = config or load_config(targets[0])
    view = read_view(targets[0])
    staged = Workspace(config.release, config.limits)
    view.apply(staged, "index")
    report = engine.check(targets, config, _home(home), staged, launch)
    if view.head is not None and view.changed:
        committed = Workspace(config.release, config.limits)
        view.apply(committed, "head")
        before = engine.check(targets, config, _home(home), committed, launch)
        report = replace(report, violations=tuple(view.committed(report.violations, before.violations)))
    return replace(report, notes=view.notes(report.violations))


def fix(
    paths: Sequence[StrPath] | StrPath = (".",), config: Config | None = None, home: StrPath | None = None,
    unsafe: bool = False, fix_only: frozenset[str] = frozenset(), launch: Launch | None = None, *,
    stdin: tuple[Path, Stdin] | None = None, verified: bool = False, named: Sequence[StrPath] = (),
) -> FixOutcome:
    """Apply fixes in memory until nothing is left to apply; `memlint.fixes.write_all` puts them on
    disk. Safe fixes are applied; unsafe ones with `unsafe`, or when they verified themselves
    (`Fix.verified`, the MEMORY.md split) and `verified` is set, as `memlint fix` does. `fix_only`
    names rules (code or slug) or fixes (e.g. `split-memory-index`) to apply, unsafe ones included,
    and nothing else. `named` holds the paths the user named (`memlint fix PATH`): a MEMORY.md among
    them, or in one of them, is fixed as an auto-memory index even where memlint would judge it
    kept by hand (`model.memory_identity`, kind "named"). With `stdin`, only fixes that change that
    file alone are applied: the editor gets its text back and nothing else is written."""
    from memlint.fixes import fix_loop, wanted  # imported by the fix path only: a check does not need it

    targets = _paths(paths)
    config = config or load_config(targets[0])
    workspace = _with_stdin(stdin, config)
    ctx_holder: list[engine.RuleContext] = []
    initial: list[Violation] = []
    home_path = _home(home)
    indexes = named_indexes(named)

    def run() -> list[Violation]:
        with engine.settled_heap():
            ctx = engine.build_context(targets, config, home_path, workspace, launch, named_indexes=indexes)
            ctx_holder[:] = [ctx]
            found = engine.run_rules(ctx)
        if not initial:
            initial.extend(found)
        return found

    def accept(v: Violation) -> bool:
        if v.fix is None:
            return False
        chosen = bool({v.code, v.slug, v.fix.name} & fix_only)
        if fix_only and not chosen:
            return False
        if stdin is not None and any(edit.path != stdin[0] for edit in v.fix.edits):
            return False  # its other files would never be written: the editor would get a text that lost lines
        return wanted(v.fix, unsafe, verified, chosen)

    result, violations = fix_loop(workspace, run, accept)
    files = len(ctx_holder[0].files) if ctx_holder else 0
    folders = engine.auto_memory(ctx_holder[0]) if ctx_holder else ()
    report = Report(tuple(violations), files, tuple(p.absolute() for p in targets), config.release, home_path, folders)
    return FixOutcome(result, report, tuple(initial))


def named_indexes(named: Sequence[StrPath]) -> frozenset[Path]:
    """The MEMORY.md files the user named: a path to one, or a folder that holds one (absolute, as
    the run's files are)."""
    out: set[Path] = set()
    for item in named:
        path = Path(item).absolute()
        if path.name == "MEMORY.md" and path.is_file():
            out.add(path)
        elif path.is_dir() and (path / "MEMORY.md").is_file():
            out.add(path / "MEMORY.md")
    return frozenset(out)
