"""One `check` or `fix` run once its options are read: call the API, write fixes, format the report."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from memlint.commands.common import EXIT_CLEAN, EXIT_ERROR, EXIT_PROBLEMS, codes, report_plugin_problems
from memlint.conventions import Conventions
from memlint.errors import FixError, MemlintError
from memlint.escape import for_terminal
from memlint.model.source.files import FileProblem
from memlint.safe_io import Interrupted

if TYPE_CHECKING:
    from memlint.api import Stdin
    from memlint.config import Config
    from memlint.engine import Report
    from memlint.model.loading.settings import Launch


def run_once(
    targets: list[Path], home: Path | None, fmt: str, config: Config, opts: Conventions,
    stdin: tuple[Path, Stdin] | None, launch: Launch, *, unsafe_fixes: bool, diff: bool, backup: bool,
    allow_empty: bool, apply_fix: bool, only_fix: tuple[str, ...], config_path: Path | None, verified: bool = False,
    named: tuple[Path, ...] = (), staged: bool = False, no_findings: bool = False,
) -> int:
    from memlint import api
    from memlint.escape import diff_safe
    from memlint.reporters.check import display_path, render, render_statistics, text_lines
    from memlint.reporters.fixes import explanations, fixed_summary, fixes_summary, resolved, unified_diff
    from memlint.safe_io import fix_lock

    try:
        not_written = 0
        if apply_fix or diff or only_fix:
            with fix_lock([] if diff or stdin is not None else [t if t.is_dir() else t.parent for t in targets]):
                outcome = api.fix(targets, config, home, unsafe=unsafe_fixes, fix_only=frozenset(codes(only_fix)),
                                  launch=launch, stdin=stdin, verified=verified, named=named)
                if not outcome.result.converged:
                    raise MemlintError("fixes did not converge after 10 passes; nothing was written (please report this)")
                if stdin is not None and not diff:  # an editor gets the fixed text back, nothing is written
                    _give_back(stdin, outcome.result.after.get(stdin[0]))
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
            # what the fixes left, as written; when a file was not written, the files as they are
            report = outcome.report if not not_written else api.check(targets, config, home, launch)
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
        report_plugin_problems()
    return _exit_code(report, opts, not_written)


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


def _give_back(stdin: tuple[Path, Stdin], fixed: str | None) -> None:
    """`fix -`: the fixed text, else exactly the bytes read (an editor puts what it gets in place
    of its buffer): a text memlint could not read is given back untouched, one over Claude Code's
    4 MiB (not read whole) is an error, never a part of it."""
    given = stdin[1]
    if isinstance(given, FileProblem):
        raise MemlintError(f"standard input is {given.reason.replace('-', ' ')} ({given.detail}): nothing fixed")
    data = fixed.encode("utf-8", "surrogatepass") if fixed is not None else (
        given if isinstance(given, bytes) else given.encode("utf-8", "surrogatepass"))
    stream = getattr(sys.stdout, "buffer", None)
    if stream is None:
        click.echo(data.decode("utf-8", "surrogateescape"), nl=False)
        return
    sys.stdout.flush()
    stream.write(data)
    stream.flush()
