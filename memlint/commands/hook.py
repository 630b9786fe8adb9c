"""`memlint hook` (Claude Code's PostToolUse hook), `memlint hook install` and `memlint hook uninstall`."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import click

from memlint.errors import MemlintError


@click.group(invoke_without_command=True)
@click.pass_context
def hook(ctx: click.Context) -> None:
    """Claude Code's PostToolUse hook: reads the hook input on stdin and, when a Write or Edit made a
    memory file worse, tells the agent in one or two lines; otherwise prints nothing. Exit 0."""
    if ctx.invoked_subcommand is not None:
        return
    from memlint.hook.guard import run

    sys.exit(run(sys.stdin.buffer, sys.stdout, sys.stderr, os.environ))


def _settings_path(user: bool, project: Path | None) -> Path:
    if user:
        base = Path(os.environ.get("CLAUDE_CONFIG_DIR") or Path.home() / ".claude")
        return base / "settings.json"
    return (project or Path.cwd()) / ".claude" / "settings.json"


_WHERE = [
    click.option("--user", "user", flag_value=True, default=False,
                 help="~/.claude/settings.json (every project of yours)."),
    click.option("--project", "user", flag_value=False, help="<project>/.claude/settings.json (the default)."),
    click.option("--project-dir", type=click.Path(file_okay=False, path_type=Path),
                 help="The project folder (default: the current folder)."),
]


def _where(func: Callable[..., None]) -> Callable[..., None]:
    for option in reversed(_WHERE):
        func = option(func)
    return func


@hook.command()
@_where
@click.option("--command", "command", default="memlint hook", show_default=True,
              help="The command Claude Code runs (e.g. a full path to memlint).")
def install(user: bool, project_dir: Path | None, command: str) -> None:
    """Add memlint's PostToolUse hook (Write|Edit|MultiEdit) to a Claude Code settings.json,
    keeping every other hook and key as it is."""
    from memlint.hook.settings_edit import install as add

    _edit(_settings_path(user, project_dir), lambda text: add(text, command), "added to")


@hook.command()
@_where
def uninstall(user: bool, project_dir: Path | None) -> None:
    """Remove memlint's hook from a Claude Code settings.json, keeping everything else as it is."""
    from memlint.hook.settings_edit import uninstall as remove

    _edit(_settings_path(user, project_dir), remove, "removed from")


def _edit(path: Path, change: Callable[[str], str], verb: str) -> None:
    try:
        raw = path.read_bytes() if path.exists() else b""
    except OSError as exc:
        raise MemlintError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise MemlintError(f"{path}: not UTF-8 text; fix it, or edit it by hand") from None
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    try:
        new = bom + change(text[len(bom):])
    except MemlintError as exc:
        raise MemlintError(f"{path}: {exc}") from None
    if new == text:
        click.echo(f"memlint: nothing to change in {path}", err=True)
        return
    if not path.exists() and verb == "removed from":
        return
    _write(path, new)
    click.echo(f"memlint: hook {verb} {path}", err=True)


def _write(path: Path, text: str) -> None:
    """All or nothing: a temp file beside the settings file (its real path when it is a link, as
    dotfile managers make it), then renamed over it, keeping its mode."""
    from memlint.safe_io import current_umask, write_temp

    target = Path(os.path.realpath(path))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        like = target.stat() if target.exists() else None
        temp = write_temp(target, text.encode("utf-8"), like, current_umask())
        try:
            os.replace(temp, target)
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise MemlintError(f"{path}: cannot write: {exc.strerror or exc}") from None
