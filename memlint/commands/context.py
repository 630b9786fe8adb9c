"""`memlint context`: what Claude Code loads when started in a folder, against its context window."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from memlint.commands.common import (
    EXIT_CLEAN,
    EXIT_ERROR,
    add_dir_option,
    home_option,
    set_colour,
    setting_sources_option,
)
from memlint.conventions import use_colour
from memlint.errors import MemlintError
from memlint.escape import for_terminal, json_safe
from memlint.model.text.tokens import TOKENIZERS

if TYPE_CHECKING:
    from memlint.model.loading.windows import Window


@click.command()
@click.argument("start", default=".", type=click.Path(file_okay=False, path_type=Path))
@click.option("--home", type=click.Path(file_okay=False, path_type=Path),
              help="HOME to model: its user memory and this project's auto memory (default: $HOME).")
@click.option("--no-home", is_flag=True, help="Model the repository alone: no user memory, no auto memory.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--tokenizer", type=click.Choice(TOKENIZERS), default="cl100k", show_default=True)
@click.option("--managed-dir", type=click.Path(file_okay=False, path_type=Path), default="/etc/claude-code",
              show_default=True, help="Folder of the managed policy CLAUDE.md.")
@click.option("--claude-code", "claude_code", metavar="VERSION",
              help="Claude Code release to model (default: config `claude-code`, else the newest modelled).")
@click.option("--settings", "settings_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Model Claude Code started with `--settings FILE`.")
@setting_sources_option()
@add_dir_option()
@click.option("--color", "--colour", "color", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True, help="Colour the text output (auto honours NO_COLOR and FORCE_COLOR).")
@click.option("--window", type=click.IntRange(min=1), help="Context window in tokens (default: the model's).")
@click.option("--model", help="Model id whose window to use, e.g. claude-opus-4-8 or claude-sonnet-4-6[1m].")
@click.option("--all", "show_all", is_flag=True, help="List every deferred file instead of counts per folder.")
@click.option("--reading", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Show instead what Claude Code attaches when Claude reads FILE in that session, and why.")
def context(start: Path, home: Path | None, no_home: bool, fmt: str, tokenizer: str, managed_dir: Path,
            claude_code: str | None, settings_file: Path | None, color: str, window: int | None, model: str | None,
            show_all: bool, reading: Path | None = None, setting_sources: frozenset[str] | None = None,
            add_dirs: tuple[Path, ...] = ()) -> None:
    """Show what Claude Code loads into context when started in START, against its context window
    (never cached); with --reading FILE, what it attaches when Claude reads FILE."""
    from memlint.api import context as build_context
    from memlint.config import load_config
    from memlint.engine import NO_HOME
    from memlint.model.release import pick

    set_colour(use_colour(color, sys.stdout.isatty()))
    try:
        if not start.exists():
            raise MemlintError(f"{start}: no such folder")
        if not start.is_dir():
            raise MemlintError(f"{start}: not a folder (give the folder Claude Code starts in)")
        modelled = home_option(home, no_home)
        config = load_config(start)
        release = pick(claude_code) if claude_code else config.release
        launch = config.launch(os.environ, settings_file, setting_sources, add_dirs)
        if reading is not None:
            if not str(reading) or str(reading) == "." or reading.is_dir():
                raise MemlintError(f"--reading {str(reading)!r}: give the file Claude reads, not a folder")
            from memlint.commands.reading import show_reading

            show_reading(start, reading, modelled, managed_dir, release, launch, fmt)
            sys.exit(EXIT_CLEAN)
        if modelled is None:  # as `check --no-home`: no user settings either, wherever CLAUDE_CONFIG_DIR points
            launch = launch.without("CLAUDE_CONFIG_DIR")
        budget = context_window(start, window, model)
        ctx = build_context(start, modelled or NO_HOME, managed_dir, None, release, launch)
        if fmt == "json":
            click.echo(json.dumps(json_safe(ctx.to_dict(tokenizer, budget)), ensure_ascii=False, indent=1))
        else:
            from memlint.reporters.context import render_text

            render_text(ctx.loaded, tokenizer, window=budget, show_all=show_all)
    except MemlintError as exc:
        click.echo(f"memlint: {for_terminal(str(exc))}", err=True)
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_CLEAN)


def context_window(start: Path, window: int | None, model: str | None) -> Window:
    """--window, else --model's window, else `window` of context-over-budget in the configuration,
    else 200,000 (what `memlint check` assumes)."""
    from memlint.config import load_config
    from memlint.model.loading.windows import Window, model_window
    from memlint.reporters.context import DEFAULT as DEFAULT_CONTEXT_WINDOW

    if window is not None:
        return Window(window, "--window")
    if model is not None:
        found = model_window(model)
        if found is None:
            raise MemlintError(f"--model: {model!r} is not a Claude model id (like claude-opus-4-8 or "
                               "claude-sonnet-4-6[1m]); give --window TOKENS instead")
        return found
    config = load_config(start)
    configured = config.options.get("ML202", {}).get("window")
    if isinstance(configured, int):
        return Window(configured, f"{config.path}: options.context-over-budget.window")
    return DEFAULT_CONTEXT_WINDOW
