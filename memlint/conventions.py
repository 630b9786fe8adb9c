"""The command-line conventions of `check` and `fix` that users of ruff and flake8 reach for:
`--exit-zero`, `--output-file`, `-q`, `--statistics`, `--show-fixes`, `--color`, `--stdin-filename`,
baselines and `--watch`. The click options live here; cli.py attaches them."""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import click

from memlint.errors import MemlintError
from memlint.model.source.files import MAX_FILE_BYTES, FileProblem
from memlint.records import dataclass

OPTIONS = [
    click.option("--exit-zero", is_flag=True, help="Exit 0 even when problems are found (2 still means an error)."),
    click.option("--output-file", "-o", type=click.Path(dir_okay=False, path_type=Path),
                 help="Write the report to this file instead of standard output."),
    click.option("--quiet", "-q", is_flag=True, help="Print the findings and nothing else (no summary)."),
    click.option("--verbose", "-v", is_flag=True,
                 help="Below a finding whose message was shortened to its first 300 characters, print it whole."),
    click.option("--statistics", is_flag=True, help="Print how many findings each rule has, not the findings."),
    click.option("--show-fixes", is_flag=True, help="With --fix: list what was fixed, per file and rule."),
    click.option("--color", "--colour", "color", type=click.Choice(["auto", "always", "never"]), default="auto",
                 show_default=True, help="Colour the text output (auto honours NO_COLOR and FORCE_COLOR)."),
    click.option("--stdin-filename", type=click.Path(dir_okay=False, path_type=Path),
                 help="With the path `-`: check standard input as the content of this file (for editors)."),
    click.option("--baseline", type=click.Path(dir_okay=False, path_type=Path),
                 help="Report only findings not recorded in this baseline file."),
    click.option("--write-baseline", type=click.Path(dir_okay=False, path_type=Path),
                 help="Record today's findings in this baseline file and exit 0."),
    click.option("--watch", is_flag=True, help="Check again whenever a file under PATHS changes; Ctrl-C stops."),
    click.option("--no-respect-gitignore", is_flag=True, help="Also check files ignored by .gitignore / .ignore."),
]


def attach(func: Any) -> Any:
    for option in reversed(OPTIONS):
        func = option(func)
    return func


def use_colour(choice: str, stream_isatty: bool, environ: dict[str, str] | None = None) -> bool:
    """`always`/`never` win; `auto` is off when NO_COLOR is set (no-color.org), on when FORCE_COLOR
    is set, else on for a terminal."""
    env = os.environ if environ is None else environ
    if choice != "auto":
        return choice == "always"
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    return stream_isatty


@dataclass(frozen=True)
class Conventions:
    """The output conventions of a run (exit code, output file, verbosity), as the command line set them."""

    exit_zero: bool = False
    output_file: Path | None = None
    quiet: bool = False
    verbose: bool = False
    statistics: bool = False
    show_fixes: bool = False
    color: str = "auto"
    stdin_filename: Path | None = None
    baseline: Path | None = None
    write_baseline: Path | None = None
    watch: bool = False
    no_respect_gitignore: bool = False

    @property
    def colour(self) -> bool:
        if self.output_file is not None:
            return self.color == "always"
        return use_colour(self.color, sys.stdout.isatty())

    def emit(self, text: str) -> None:
        """The report: to --output-file, or standard output."""
        if self.output_file is not None:
            try:
                self.output_file.write_text(text + "\n" if text else "", encoding="utf-8")
            except OSError as exc:
                raise MemlintError(f"--output-file {self.output_file}: cannot write: {exc.strerror}") from None
        elif text:
            echo_in_pieces(text, self.colour)

    def emit_lines(self, lines: Iterable[str]) -> None:
        """`emit("\\n".join(lines))`, to standard output a megabyte of lines at a time, so a big
        report is never held both as lines and as one text."""
        if self.output_file is not None:
            self.emit("\n".join(lines))
        else:
            _echo_groups(_line_groups(lines), self.colour)


PIECE = 1 << 20  # characters of a report written at a time


def echo_in_pieces(text: str, colour: bool | None) -> None:
    """`click.echo(text, color=colour)`, about a megabyte of whole lines at a time: echoing a big
    report whole copies it three times over (the newline added, the colour codes stripped, the
    encoding), and a report can be tens of megabytes."""
    _echo_groups(_text_groups(text), colour, empty_too=True)


def _text_groups(text: str) -> Iterator[str]:
    """`text` cut at the first line break past every PIECE characters (the breaks cut at left out)."""
    start = 0
    while len(text) - start > PIECE:
        cut = text.find("\n", start + PIECE)
        if cut == -1:
            break
        yield text[start:cut]
        start = cut + 1
    yield text[start:]


def _line_groups(lines: Iterable[str]) -> Iterator[str]:
    """`lines` joined by line breaks about PIECE characters at a time."""
    group: list[str] = []
    size = 0
    for line in lines:
        group.append(line)
        size += len(line) + 1
        if size > PIECE:
            yield "\n".join(group)
            group, size = [], 0
    if group:
        yield "\n".join(group)


def _echo_groups(groups: Iterable[str], colour: bool | None, empty_too: bool = False) -> None:
    """What one `click.echo` of the groups joined by line breaks prints (for an empty text, a line
    break with `empty_too`, else nothing, as `emit`), one echo per group. A colour code never holds
    a line break, so each group strips the same codes."""
    iterator = iter(groups)
    first = next(iterator, "")
    second = next(iterator, None)
    if second is None:
        if first or empty_too:
            click.echo(first, color=colour)
        return
    click.echo(first, color=colour)
    click.echo(second, color=colour)
    for group in iterator:
        click.echo(group, color=colour)


def read_stdin(paths: tuple[Path, ...], stdin_filename: Path | None) -> tuple[Path, bytes | FileProblem] | None:
    """(the file standard input stands for, its bytes) when the only path is `-`: read as a file
    is, at most Claude Code's 4 MiB (more is a `too-large` problem, and the rest is never read:
    `/dev/zero` piped in ends), then decoded as a file's bytes are (UTF-16, NUL bytes and invalid
    UTF-8 are the file's problems, not replaced)."""
    if str(Path("-")) not in {str(p) for p in paths}:
        if stdin_filename is not None:
            raise MemlintError("--stdin-filename needs the path `-` (read standard input)")
        return None
    if len(paths) != 1:
        raise MemlintError("`-` (standard input) cannot be mixed with other paths")
    if stdin_filename is None:
        raise MemlintError("reading standard input (`-`) needs --stdin-filename NAME")
    stream = getattr(sys.stdin, "buffer", None)
    data = sys.stdin.read(MAX_FILE_BYTES + 1).encode("utf-8", "surrogatepass") if stream is None else b""
    while stream is not None and len(data) <= MAX_FILE_BYTES:
        chunk = stream.read(MAX_FILE_BYTES + 1 - len(data))
        if not chunk:
            break
        data += chunk
    if len(data) > MAX_FILE_BYTES:
        return stdin_filename.absolute(), FileProblem("too-large", f"over {MAX_FILE_BYTES:,} bytes")
    return stdin_filename.absolute(), data


def snapshot(roots: list[Path]) -> dict[str, tuple[float, int]]:
    """mtime and size of every file under `roots` (version-control and dependency folders pruned)."""
    from memlint.model.loading.loader import PRUNED_FOLDERS

    state: dict[str, tuple[float, int]] = {}
    for root in roots:
        walk: Iterator[tuple[str, list[str], list[str]]] = (
            iter([(str(root.parent), [], [root.name])]) if root.is_file() else os.walk(root))
        for folder, subfolders, names in walk:
            subfolders[:] = [d for d in subfolders if d not in PRUNED_FOLDERS]
            for name in names:
                path = os.path.join(folder, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                state[path] = (st.st_mtime, st.st_size)
    return state


def _ran(run_once: Callable[[], int]) -> bool:
    """`run_once()`; False when a file changed under it (said on stderr)."""
    from memlint.model.source.residency import FileChanged

    try:
        run_once()
    except FileChanged as exc:
        click.echo(f"memlint: {exc}", err=True)
        return False
    return True


def watch(roots: list[Path], run_once: Callable[[], int], interval: float = 0.5,
          rounds: int | None = None) -> int:
    """Run, then run again after every change under `roots` (polling), until Ctrl-C: exit 0. A
    run that a file edited under it stops (`FileChanged`, a large run) is said in one line and
    made again at the next poll: the edit it met is not waited for twice."""
    try:
        state = snapshot(roots) if _ran(run_once) else None
        n = 0
        while rounds is None or n < rounds:
            n += 1
            time.sleep(interval)
            now = snapshot(roots)
            if now != state:
                click.echo(f"[{time.strftime('%H:%M:%S')}] change detected; checking again", err=True)
                state = now if _ran(run_once) else None
                gc.collect()  # the command line runs without the automatic collector (memlint/__main__.py)
    except KeyboardInterrupt:
        click.echo("memlint: watch stopped", err=True)
    return 0
