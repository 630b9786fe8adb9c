"""The command line: parse options, call the API, pick a reporter, set the exit code."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from memlint import __version__
from memlint.conventions import Conventions, use_colour
from memlint.conventions import attach as attach_conventions
from memlint.errors import FixError, MemlintError, ReaderGone
from memlint.model.tokens import TOKENIZERS
from memlint.reporters import FORMATS
from memlint.reporters.escape import for_terminal
from memlint.safe_io import Interrupted

if TYPE_CHECKING:
    from collections.abc import Sequence

    from memlint.config import Config
    from memlint.engine import Report
    from memlint.model.settings import Launch
    from memlint.model.windows import Window
    from memlint.rules import Rule
    from memlint.rules.catalog import Entry

# The loader, the rules and the parsers are imported inside the commands that need them, so that
# `--version`, `clean` and a replayed cached run start fast.

EXIT_CLEAN, EXIT_PROBLEMS, EXIT_ERROR = 0, 1, 2


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


@main.command()
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
@click.option("--color", "--colour", "color", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True, help="Colour the text output (auto honours NO_COLOR and FORCE_COLOR).")
@click.option("--window", type=click.IntRange(min=1), help="Context window in tokens (default: the model's).")
@click.option("--model", help="Model id whose window to use, e.g. claude-opus-4-8 or claude-sonnet-4-6[1m].")
@click.option("--all", "show_all", is_flag=True, help="List every deferred file instead of counts per folder.")
@click.option("--reading", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Show instead what Claude Code attaches when Claude reads FILE in that session, and why.")
def context(start: Path, home: Path | None, no_home: bool, fmt: str, tokenizer: str, managed_dir: Path,
            claude_code: str | None, settings_file: Path | None, color: str, window: int | None, model: str | None,
            show_all: bool, reading: Path | None = None) -> None:
    """Show what Claude Code loads into context when started in START, against its context window
    (never cached); with --reading FILE, what it attaches when Claude reads FILE."""
    from memlint.api import context as build_context
    from memlint.config import load_config
    from memlint.engine import NO_HOME
    from memlint.model.release import pick
    from memlint.model.settings import Launch

    _set_colour(use_colour(color, sys.stdout.isatty()))
    try:
        if not start.exists():
            raise MemlintError(f"{start}: no such folder")
        if not start.is_dir():
            raise MemlintError(f"{start}: not a folder (give the folder Claude Code starts in)")
        modelled = _home_option(home, no_home)
        release = pick(claude_code) if claude_code else load_config(start).release
        launch = Launch.from_environ(os.environ, settings_file)
        if reading is not None:
            from memlint.commands.reading import show_reading

            show_reading(start, reading, modelled, managed_dir, release, launch, fmt)
            sys.exit(EXIT_CLEAN)
        if modelled is None:  # as `check --no-home`: no user settings either, wherever CLAUDE_CONFIG_DIR points
            launch = Launch(launch.settings_file, {k: v for k, v in launch.env.items() if k != "CLAUDE_CONFIG_DIR"})
        budget = context_window(start, window, model)
        ctx = build_context(start, modelled or NO_HOME, managed_dir, None, release, launch)
        if fmt == "json":
            click.echo(json.dumps(ctx.to_dict(tokenizer, budget), ensure_ascii=False, indent=1))
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
    from memlint.model.windows import Window, model_window
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


def _home_option(home: Path | None, no_home: bool) -> Path | None:
    """The HOME `check`, `fix` and `context` model: `--home DIR`, else $HOME; None with `--no-home`."""
    from memlint.api import default_home

    if no_home and home is not None:
        raise MemlintError("--home and --no-home cannot be combined")
    if no_home:
        return None
    return home if home is not None else default_home()


def _set_colour(on: bool) -> None:
    """Every click.echo of this run keeps or strips styles as decided (--color, NO_COLOR, FORCE_COLOR)."""
    ctx: click.Context | None = click.get_current_context()
    while ctx is not None:
        ctx.color = on
        ctx = ctx.parent


def _codes(values: tuple[str, ...]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


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
    staged: bool = False, no_findings: bool = False, **conventions: Any,
) -> int:
    from memlint.config import load_config
    from memlint.conventions import read_stdin
    from memlint.conventions import watch as watch_loop
    from memlint.model.settings import Launch
    from memlint.rules import all_rules

    opts = Conventions(**conventions)
    _set_colour(opts.colour)
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
        cli: dict[str, Any] = {"select": _codes(select), "extend-select": _codes(extend_select), "ignore": _codes(ignore),
                               "claude-code": claude_code}
        if opts.no_respect_gitignore:
            cli["respect-gitignore"] = False
        # every rule is imported for the run anyway: now, so that the configuration takes the rules'
        # defaults from them, not from parsing their sources again (`catalog.default_codes`: 12 ms)
        all_rules()
        config = load_config(targets[0], config_path, cli)
        launch = Launch.from_environ(os.environ, settings_file)
        home = _home_option(home, no_home)
    except (MemlintError, FixError) as exc:
        click.echo(f"memlint: {for_terminal(str(exc))}", err=True)
        return EXIT_ERROR

    def once() -> int:
        return _run_once(targets, home, fmt or "text", config, opts, stdin, launch, unsafe_fixes=unsafe_fixes,
                         diff=diff, backup=backup and not no_backup, allow_empty=allow_empty, apply_fix=apply_fix,
                         only_fix=only_fix, config_path=config_path, verified=verified, named=named, staged=staged,
                         no_findings=no_findings)

    return watch_loop(targets, once) if opts.watch else once()


def _run_once(
    targets: list[Path], home: Path | None, fmt: str, config: Config, opts: Conventions,
    stdin: tuple[Path, str] | None, launch: Launch, *, unsafe_fixes: bool, diff: bool, backup: bool,
    allow_empty: bool, apply_fix: bool, only_fix: tuple[str, ...], config_path: Path | None, verified: bool = False,
    named: tuple[Path, ...] = (), staged: bool = False, no_findings: bool = False,
) -> int:
    from memlint import api
    from memlint.reporters.check import display_path, render, render_statistics, text_lines
    from memlint.reporters.escape import diff_safe
    from memlint.reporters.fixes import explanations, fixed_summary, fixes_summary, resolved, unified_diff
    from memlint.safe_io import fix_lock

    try:
        not_written = 0
        if apply_fix or diff or only_fix:
            with fix_lock([] if diff or stdin is not None else [t if t.is_dir() else t.parent for t in targets]):
                outcome = api.fix(targets, config, home, unsafe=unsafe_fixes, fix_only=frozenset(_codes(only_fix)),
                                  launch=launch, stdin=stdin, verified=verified, named=named)
                if not outcome.result.converged:
                    raise MemlintError("fixes did not converge after 10 passes; nothing was written (please report this)")
                if stdin is not None and not diff:  # an editor gets the fixed text back, nothing is written
                    fixed_text = outcome.result.after.get(stdin[0])
                    click.echo(stdin[1] if fixed_text is None else fixed_text, nl=False)
                    return _exit_code(outcome.report, opts)
                if diff:
                    for line in explanations(outcome.result, display_path):  # the patch's preamble
                        click.echo(for_terminal(line))
                    click.echo(diff_safe(unified_diff(outcome.result, display_path)), nl=False)
                elif outcome.result.changed:
                    from memlint.fixes import write_changes, write_roots

                    roots = write_roots(targets, home, config.memory_dirs if config_path else ())
                    done = write_changes(outcome.result, "~" if backup else None, roots)
                    for item in done.not_written:
                        click.echo(f"memlint: not written: {for_terminal(display_path(item.path))}: "
                                   f"{for_terminal(item.reason)}", err=True)
                    not_written = len(done.not_written)
                    if fmt == "text" and done.written and not opts.quiet:
                        gone = sum(resolved(outcome.initial, outcome.report.violations).values())
                        click.echo(fixed_summary(outcome.result, done.written, gone), err=True)
                        for line in explanations(outcome.result, display_path,
                                                 [item.path for item in done.not_written]):
                            click.echo(for_terminal(line), err=True)
                if opts.show_fixes and not diff:
                    click.echo(fixes_summary(outcome.initial, outcome.report.violations, display_path,
                                             outcome.result.fixes, outcome.result.slugs), err=True)
            report = outcome.report
        else:
            with _progress(fmt):
                if staged:
                    report = api.check_staged(targets, config, home, launch)
                else:
                    report = api.check(targets, config, home, launch, stdin=stdin)
        if stdin is not None:
            report = replace(report, violations=tuple(v for v in report.violations if v.path == stdin[0]))
        for note in report.notes:
            click.echo(f"memlint: note: {for_terminal(note)}", err=True)
        if opts.write_baseline is not None or opts.baseline is not None:
            from memlint.baseline import Baseline, baseline_json  # only a baseline run needs it
        if opts.write_baseline is not None:
            _write(opts.write_baseline, baseline_json(report.violations, opts.write_baseline.absolute().parent))
            click.echo(f"memlint: recorded {len(report.violations)} finding(s) in {opts.write_baseline}", err=True)
            return EXIT_CLEAN
        if opts.baseline is not None:
            known = Baseline.read(opts.baseline)
            report = replace(report, violations=tuple(
                known.new_findings(report.violations, opts.baseline.absolute().parent)))
        if report.files_checked == 0 and not allow_empty and stdin is None:
            where = for_terminal(", ".join(str(t) for t in targets))
            click.echo(f"memlint: no memory files found under {where} (use --allow-empty to accept this)", err=True)
            if fmt != "text":
                opts.emit(render(report, fmt, colour=False))
            return EXIT_CLEAN if opts.exit_zero else EXIT_PROBLEMS
        if no_findings and not diff:
            left = sum(1 for v in report.violations if v.severity != "info")
            if left and not opts.quiet:
                click.echo(f"memlint: {left} problem{'s' if left != 1 else ''} left that no fix applied here removes "
                           "(`memlint check` lists them)", err=True)
            return _exit_code(report, opts, not_written)
        if opts.statistics:
            opts.emit(json.dumps(_statistics_json(report), indent=1) if fmt == "json" else render_statistics(report))
        else:
            if fmt == "text":
                opts.emit_lines(text_lines(report, opts.colour, opts.quiet, opts.verbose))
            else:
                opts.emit(render(report, fmt, colour=False, quiet=opts.quiet))
    except BrokenPipeError:
        raise  # the reader of the report went away: memlint/__main__.py stops quietly
    except (MemlintError, FixError, OSError) as exc:
        click.echo(f"memlint: {for_terminal(str(exc))}", err=True)
        return EXIT_ERROR
    except Interrupted as exc:
        click.echo("memlint: interrupted; every file is as it was or fully fixed", err=True)
        return 128 + exc.signum
    finally:
        _report_plugin_problems()
    return _exit_code(report, opts, not_written)


_REPORTED: set[str] = set()


def _report_plugin_problems() -> None:
    """Each skipped plugin once per process, on stderr: it never changes the exit code."""
    from memlint.rules import plugin_problems

    for problem in plugin_problems():
        if problem not in _REPORTED:
            _REPORTED.add(problem)
            click.echo(f"memlint: warning: {for_terminal(problem)}", err=True)


def _exit_code(report: Report, opts: Conventions, not_written: int = 0) -> int:
    if opts.exit_zero:
        return EXIT_CLEAN
    problems = not_written or any(v.severity != "info" for v in report.violations)
    return EXIT_PROBLEMS if problems else EXIT_CLEAN


def _statistics_json(report: Report) -> list[dict[str, Any]]:
    counts: dict[str, dict[str, Any]] = {}
    for v in report.violations:
        entry = counts.setdefault(v.code, {"code": v.code, "slug": v.slug, "count": 0, "fixable": False})
        entry["count"] += 1
        entry["fixable"] = entry["fixable"] or v.fix is not None
    return sorted(counts.values(), key=lambda e: (-e["count"], e["code"]))


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise MemlintError(f"{path}: cannot write: {exc.strerror}") from None


def _progress(fmt: str) -> Any:
    """Progress on stderr for text output on a terminal, after about two seconds."""
    from contextlib import nullcontext

    from memlint import progress

    stream = getattr(sys.stderr, "target", sys.stderr)  # past the run cache's recording
    if fmt != "text" or not stream.isatty():
        return nullcontext()
    return progress.shown(stream)


def _rule_pages(report_plugins: bool) -> Sequence[Rule | Entry]:
    """Every registered rule for `rules` and `explain`: read from the rule modules' sources when
    only the built-in rules are registered (importing the rules costs more than the rest of the
    command), else imported as `check` does, reporting skipped plugins when asked."""
    from memlint.rules.catalog import builtin_entries

    entries = builtin_entries()
    if entries is not None:
        return entries
    from memlint.rules import all_rules

    rules = all_rules()
    if report_plugins:
        _report_plugin_problems()
    return rules


@main.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def list_rules(fmt: str) -> None:
    """List every rule: code, slug, severity, fix, summary."""
    rules = _rule_pages(report_plugins=True)
    if fmt == "json":
        click.echo(json.dumps([{"code": r.code, "slug": r.slug, "severity": r.meta.severity, "fix": r.meta.fix,
                                "summary": r.meta.summary, "default": r.meta.default} for r in rules], indent=1))
        return
    for r in rules:
        fixable = {"safe": "fix", "unsafe": "fix (unsafe)"}.get(r.meta.fix or "", "")
        opt_in = "" if r.meta.default else " (opt-in: --select it)"
        click.echo(f"{r.code}  {r.slug:<40} {r.meta.severity:<8} {fixable:<13} {r.meta.summary}{opt_in}")


@main.command()
@click.argument("rule")
def explain(rule: str) -> None:
    """Print a rule's page (by code or slug)."""
    from memlint.rules import pick_rule

    found = pick_rule(_rule_pages(report_plugins=False), rule)
    if found is None:
        click.echo(f"memlint: unknown rule {rule!r} (see `memlint rules`)", err=True)
        sys.exit(EXIT_ERROR)
    click.echo(f"# {found.code} {found.slug}\n\n{found.doc}")


@main.command()
@click.option("--home", type=click.Path(file_okay=False, path_type=Path),
              help="Also model HOME's memory and the project's auto memory there (as `check --home`).")
def lsp(home: Path | None) -> None:
    """Run the language server on stdin/stdout, for editors (see docs/editors.md)."""
    from memlint.lsp.server import serve  # pygls loads only here

    serve(home)


def _add_commands() -> None:
    """Commands kept in their own modules (memlint/commands/): each imports its heavy parts when it runs."""
    from memlint.commands.hook import hook

    main.add_command(hook)


_add_commands()
