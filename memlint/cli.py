"""The command line: parse options, call the API, pick a reporter, set the exit code."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from memlint import __version__
from memlint.api import context as build_context
from memlint.api import default_home
from memlint.errors import MemlintError
from memlint.model.tokens import TOKENIZERS

EXIT_CLEAN, EXIT_PROBLEMS, EXIT_ERROR = 0, 1, 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="memlint")
def main() -> None:
    """Lint and fix Claude Code memory: CLAUDE.md, rules, @includes, MEMORY.md, session notes."""


@main.command()
@click.argument("start", default=".", type=click.Path(file_okay=False, path_type=Path))
@click.option("--home", type=click.Path(file_okay=False, path_type=Path), help="HOME to model (default: yours).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--tokenizer", type=click.Choice(TOKENIZERS), default="cl100k", show_default=True)
@click.option("--managed-dir", type=click.Path(file_okay=False, path_type=Path), default="/etc/claude-code",
              show_default=True, help="Folder of the managed policy CLAUDE.md.")
def context(start: Path, home: Path | None, fmt: str, tokenizer: str, managed_dir: Path) -> None:
    """Show what Claude Code loads into context when started in START."""
    try:
        if not start.is_dir():
            raise MemlintError(f"{start}: not a folder")
        ctx = build_context(start, home or default_home(), managed_dir)
        if fmt == "json":
            click.echo(json.dumps(ctx.to_dict(tokenizer), ensure_ascii=False, indent=1))
        else:
            from memlint.reporters.context import render_text

            render_text(ctx.loaded, tokenizer)
    except MemlintError as exc:
        click.echo(f"memlint: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_CLEAN)
