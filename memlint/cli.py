"""The command line: parse options, call the API, pick a reporter, set the exit code."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import click

from memlint import __version__
from memlint.commands.common import (
    EXIT_ERROR,
    add_dir_option,
    codes,
    home_option,
    set_colour,
    setting_sources_option,
)
from memlint.conventions import Conventions
from memlint.conventions import attach as attach_conventions
from memlint.errors import FixError, MemlintError, ReaderGone
from memlint.escape import for_terminal
from memlint.reporters import FORMATS

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command Ctrl-C stopped (and SIGTERM: 143)
_FIX_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")  # a fix's name or a rule's slug

# The loader, the rules and the parsers are imported inside the commands that need them, so that
# `--version`, `clean` and a replayed cached run start fast.


class _Group(click.Group):
    """Any MemlintError (a broken plugin, an unreadable config) is one line on stderr and exit 2.
    So is, as a last resort, any other error that escapes a command: a bug in memlint (a file
    it should have reported but could not model), never a traceback for the user to read."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except MemlintError as exc:
            click.echo(f"memlint: {for_terminal(str(exc))}", err=True)
            sys.exit(EXIT_ERROR)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except KeyboardInterrupt:  # Ctrl-C: a fix being written is undone first (memlint.safe_io)
            click.echo("memlint: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except BrokenPipeError as exc:  # `memlint rules | head`: memlint/__main__.py stops quietly
            raise ReaderGone() from exc
        except OSError as exc:  # writing the output failed (a full disk, `> /dev/full`): not a bug
            click.echo(f"memlint: {for_terminal(str(exc))}", err=True)
            sys.exit(EXIT_ERROR)
        except Exception as exc:  # noqa: BLE001 - the last resort named in the docstring
            import traceback

            where = traceback.extract_tb(exc.__traceback__)[-1]
            click.echo(f"memlint: internal error: {type(exc).__name__}: {for_terminal(str(exc))[:300]} "
                       f"at {os.path.basename(where.filename)}:{where.lineno}; this is a bug in memlint, "
                       "please report it with the file it was checking", err=True)
            sys.exit(EXIT_ERROR)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="memlint")
def main() -> None:
    """Lint and fix Claude Code memory: CLAUDE.md, rules, @includes, MEMORY.md, session notes."""


def _check_options(func: Any) -> Any:
    options = [
        click.argument("paths", nargs=-1, type=click.Path(path_type=Path)),
        click.option("--home", type=click.Path(file_okay=False, path_type=Path),
                     help="HOME to model: its user memory and this project's auto memory (default: $HOME)."),
        click.option("--no-home", is_flag=True,
                     help="Check the repository alone: no user memory, no auto memory (for hooks and CI)."),
        click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
                     help="Output format (default: text; github when GITHUB_ACTIONS=true)."),
        click.option("--select", multiple=True, help="Only these rules (codes, slugs or prefixes; comma-separated)."),
        click.option("--extend-select", multiple=True, help="Add rules to the configured selection."),
        click.option("--ignore", multiple=True, help="Skip these rules."),
        click.option("--config", "config_path", type=click.Path(exists=True, path_type=Path),
                     help="Config file (default: nearest .memlint.toml or pyproject.toml [tool.memlint])."),
        click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes that change what the agent reads "
                     "(`memlint fix` applies the MEMORY.md split, verified lossless, without it)."),
        click.option("--only-fix", multiple=True,
                     help="Apply only these fixes (rule codes, slugs or fix names like split-memory-index), unsafe ones too."),
        click.option("--diff", is_flag=True, help="Show the fixes as a diff; write nothing."),
        click.option("--backup", is_flag=True, help="Keep the old MEMORY.md as MEMORY.md~ when a fix rewrites it."),
        click.option("--no-backup", is_flag=True, hidden=True, help="Accepted for compatibility: no backup is the default."),
        click.option("--allow-empty", is_flag=True, help="Exit 0 when no memory file is found."),
        click.option("--no-cache", is_flag=True,
                     help="Do not replay or store this run in .memlint_cache/ (fixes are never cached)."),
        click.option("--claude-code", "claude_code", metavar="VERSION",
                     help="Claude Code release to model (default: config `claude-code`, else the newest modelled)."),
        click.option("--settings", "settings_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
                     help="Model Claude Code started with `--settings FILE`."),
        setting_sources_option(),
        add_dir_option(),
    ]
    for option in reversed(options):
        func = option(func)
    return attach_conventions(func)


_NO_FINDINGS = click.option(
    "--no-findings", is_flag=True,
    help="With fixes: print what was fixed and how many problems are left, not the findings "
         "(the fix hook beside the check hook, which lists them).")


@main.command()
@_check_options
@click.option("--fix", "apply_fix", is_flag=True, help="Apply safe fixes (and unsafe ones, the MEMORY.md split "
              "included, with --unsafe-fixes).")
@click.option("--staged", is_flag=True,
              help="Check what the git index holds (what the commit will hold), not the working tree; while a "
                   "commit is being made, only what it changes or breaks. Never cached.")
@_NO_FINDINGS
def check(apply_fix: bool, no_cache: bool, staged: bool, **kwargs: Any) -> None:
    """Check the memory files under PATHS (default: .) and how Claude Code loads them.

    A run with the same arguments over unchanged files is replayed from .memlint_cache/ at the
    project root (`--no-cache` skips it, `memlint clean` removes it)."""
    sys.exit(_run(apply_fix=apply_fix, staged=staged, **kwargs))


@main.command()
@_check_options
@_NO_FINDINGS
def fix(no_cache: bool, **kwargs: Any) -> None:
    """Fix what can be fixed without losing text: safe fixes, and the MEMORY.md split (verified
    lossless before it is written); `--unsafe-fixes` adds the other unsafe fixes. A MEMORY.md named
    in PATHS (or in a folder named there) is fixed as an auto-memory index. Never cached."""
    sys.exit(_run(apply_fix=True, verified=True, **kwargs))


@main.command()
@click.argument("path", default=".", type=click.Path(path_type=Path))
def clean(path: Path) -> None:
    """Remove the run cache of PATH: .memlint_cache/ at its project root, or its folder in your
    cache folder outside a project."""
    from memlint.cache import clean as remove_cache

    if not os.path.exists(path):  # (its folder's cache is not its: `clean /gone` removed the cache of `/`)
        raise MemlintError(f"{path}: no such file or folder")
    try:
        removed = remove_cache(str(path))
    except OSError as exc:
        raise MemlintError(f"cannot remove the cache: {exc}") from exc
    click.echo(f"Removed {removed}." if removed else "No cache to remove.", err=True)


def _run(
    paths: tuple[Path, ...], home: Path | None, no_home: bool, fmt: str | None, select: tuple[str, ...],
    extend_select: tuple[str, ...], ignore: tuple[str, ...], config_path: Path | None, unsafe_fixes: bool,
    diff: bool, no_backup: bool, allow_empty: bool, apply_fix: bool, only_fix: tuple[str, ...],
    claude_code: str | None = None, settings_file: Path | None = None, backup: bool = False, verified: bool = False,
    staged: bool = False, no_findings: bool = False, setting_sources: frozenset[str] | None = None,
    add_dirs: tuple[Path, ...] = (), **conventions: Any,
) -> int:
    from memlint.commands.run import run_once
    from memlint.config import load_config
    from memlint.conventions import read_stdin
    from memlint.conventions import watch as watch_loop
    from memlint.rules import all_rules

    opts = Conventions(**conventions)
    set_colour(opts.colour)
    try:
        os.getcwd()
    except OSError:  # paths are shown relative to it, and relative paths read from it
        raise MemlintError("the current folder no longer exists (was it removed?); change to an existing "
                           "folder and run memlint again") from None
    try:
        stdin = read_stdin(paths, opts.stdin_filename)
        named = paths if stdin is None else ()  # `memlint fix PATH`: a MEMORY.md named is fixed as an index
        if stdin is not None:
            cwd = Path.cwd().absolute()
            paths = (cwd if cwd in stdin[0].parents else stdin[0].parent,)
        targets = list(paths) or [Path(".")]
        for target in targets:
            if not target.exists():
                raise MemlintError(f"{target}: no such file or folder")
        fmt = fmt or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" and not diff else "text")
        if diff and fmt != "text":
            raise MemlintError(f"--diff prints a patch; it cannot be combined with --format {fmt}")
        if staged and (apply_fix or diff or only_fix or stdin is not None or opts.watch):
            raise MemlintError("--staged checks what the git index holds; it cannot be combined with fixes, "
                               "--diff, standard input or --watch")
        if no_findings and not (apply_fix or only_fix):
            raise MemlintError("--no-findings goes with fixes (memlint fix, check --fix)")
        _known_fixes(codes(only_fix))
        cli: dict[str, Any] = {"select": codes(select), "extend-select": codes(extend_select), "ignore": codes(ignore),
                               "claude-code": claude_code}
        if opts.no_respect_gitignore:
            cli["respect-gitignore"] = False
        all_rules()  # every rule runs (and is imported) anyway: the default selection is then read from them
        config = load_config(targets[0], config_path, cli)
        launch = config.launch(os.environ, settings_file, setting_sources, add_dirs)
        home = home_option(home, no_home)
    except (MemlintError, FixError) as exc:
        click.echo(f"memlint: {for_terminal(str(exc))}", err=True)
        return EXIT_ERROR

    def once() -> int:
        return run_once(targets, home, fmt or "text", config, opts, stdin, launch, unsafe_fixes=unsafe_fixes,
                         diff=diff, backup=backup and not no_backup, allow_empty=allow_empty, apply_fix=apply_fix,
                         only_fix=only_fix, config_path=config_path, verified=verified, named=named, staged=staged,
                         no_findings=no_findings)

    return watch_loop(targets, once) if opts.watch else once()


@main.command()
@click.option("--home", type=click.Path(file_okay=False, path_type=Path),
              help="Also model HOME's memory and the project's auto memory there (as `check --home`).")
def lsp(home: Path | None) -> None:
    """Run the language server on stdin/stdout, for editors (see docs/editors.md)."""
    from memlint.lsp.server import serve  # pygls loads only here

    serve(home)


def _add_commands() -> None:
    """Commands kept in their own modules (memlint/commands/): each imports its heavy parts when it runs."""
    from memlint.commands.context import context
    from memlint.commands.hook import hook
    from memlint.commands.pages import explain, list_rules

    for command in (context, explain, hook, list_rules):
        main.add_command(command)


_add_commands()


def _known_fixes(names: list[str]) -> None:
    """`--only-fix` names rules (a code, slug or prefix) or fixes (`split-memory-index`: lower-case
    words, told apart from rules by their shape, as fixes have no list to check them against): a
    name shaped like a code that no rule has (`ML999`, `ML11O`) is a usage error, not a silent no-op."""
    from memlint.config import resolve_selector

    for name in names:
        if not _FIX_NAME.fullmatch(name):
            resolve_selector(name, "--only-fix")
