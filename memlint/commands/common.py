"""What the commands share: exit codes, the HOME option, colour, and plugin warnings."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from memlint.errors import MemlintError
from memlint.escape import for_terminal

EXIT_CLEAN, EXIT_PROBLEMS, EXIT_ERROR = 0, 1, 2


def home_option(home: Path | None, no_home: bool) -> Path | None:
    """The HOME `check`, `fix` and `context` model: `--home DIR`, else $HOME; None with `--no-home`."""
    from memlint.api import default_home

    if no_home and home is not None:
        raise MemlintError("--home and --no-home cannot be combined")
    if no_home:
        return None
    return home if home is not None else default_home()


def _setting_sources(_ctx: click.Context, _param: click.Parameter, value: str | None) -> frozenset[str] | None:
    """`--setting-sources` read as Claude Code reads it, refused with its message (exit 2)."""
    if value is None:
        return None
    from memlint.model.loading.settings import parse_setting_sources

    try:
        return parse_setting_sources(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def setting_sources_option() -> Any:
    """`--setting-sources user,project,local`, as Claude Code takes it (None when not given: all three)."""
    return click.option(
        "--setting-sources", "setting_sources", metavar="SOURCES", callback=_setting_sources,
        help="Model Claude Code started with `--setting-sources SOURCES` (comma-separated user, project, "
             "local; \"\" for none): the memory and settings files of the others are not read.")


def add_dir_option() -> Any:
    """`--add-dir DIR` (repeatable), as Claude Code takes it; the folders as absolute paths."""
    return click.option(
        "--add-dir", "add_dirs", multiple=True, metavar="DIR", type=click.Path(path_type=Path),
        callback=lambda _ctx, _param, value: tuple(Path(os.path.abspath(v)) for v in value),
        help="Model Claude Code started with `--add-dir DIR` (repeatable): with "
             "CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD=1 in the environment or a settings `env` block, the "
             "folder's CLAUDE.md, .claude/CLAUDE.md, rules and CLAUDE.local.md load after the project's.")


def set_colour(on: bool) -> None:
    """Every click.echo of this run keeps or strips styles as decided (--color, NO_COLOR, FORCE_COLOR)."""
    ctx: click.Context | None = click.get_current_context()
    while ctx is not None:
        ctx.color = on
        ctx = ctx.parent


def codes(values: tuple[str, ...]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


_REPORTED: set[str] = set()


def report_plugin_problems() -> None:
    """Each skipped plugin once per process, on stderr: it never changes the exit code."""
    from memlint.rules import plugin_problems

    for problem in plugin_problems():
        if problem not in _REPORTED:
            _REPORTED.add(problem)
            click.echo(f"memlint: warning: {for_terminal(problem)}", err=True)
