"""Standard output in trouble. `memlint ... | head`: when the reader goes away, memlint stops quietly
with 128 + SIGPIPE, as `cat big | head` does, and a run cut short is never stored in the run cache.
Standard output closed: the check still runs and decides the exit code. Output that cannot be written
(a full disk): one line and exit 2, never an "internal error"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXIT_READER_GONE = 141


def _env() -> dict[str, str]:
    """This checkout first on the path (no empty entry: that is the current folder, which one test removes)."""
    paths = [str(Path(__file__).resolve().parent.parent), *os.environ.get("PYTHONPATH", "").split(os.pathsep)]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p), "NO_COLOR": "1"}


def _tree(root: Path) -> Path:
    """300 CLAUDE.md files, each including a missing file: a report of 45 KiB."""
    (root / ".git").mkdir(parents=True)  # the run cache lives at the project root
    for i in range(300):
        folder = root / f"pkg{i:04d}"
        folder.mkdir()
        (folder / "CLAUDE.md").write_text(f"# Package {i}\n\nSee @docs/missing-{i}.md for the details.\n",
                                          encoding="utf-8")
    return root


def _cut_short(args: list[str], cwd: Path) -> tuple[int, str]:
    """Run memlint with a reader that is gone before it writes (the pipe closed at once: how much a
    pipe holds differs between kernels, up to a megabyte): (exit status, stderr)."""
    proc = subprocess.Popen([sys.executable, "-m", "memlint", *args], cwd=cwd, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    return proc.wait(timeout=300), err


@pytest.mark.parametrize("args", [["rules"], ["check", "."], ["check", ".", "--format", "json"],
                                  ["context", "--all", "pkg0001"]])
def test_a_reader_gone_away_stops_memlint_quietly(tmp_path: Path, args: list[str]) -> None:
    root = _tree(tmp_path / "tree")
    code, err = _cut_short(args, root)
    assert (code, err) == (EXIT_READER_GONE, "")


def test_a_run_cut_short_is_not_replayed_later(tmp_path: Path) -> None:
    root = _tree(tmp_path / "tree")
    assert _cut_short(["check", "."], root) == (EXIT_READER_GONE, "")
    full = subprocess.run([sys.executable, "-m", "memlint", "check", "."], cwd=root, env=_env(),
                          capture_output=True, check=False, timeout=300)
    again = subprocess.run([sys.executable, "-m", "memlint", "check", "."], cwd=root, env=_env(),
                           capture_output=True, check=False, timeout=300)
    computed = subprocess.run([sys.executable, "-m", "memlint", "check", ".", "--no-cache"], cwd=root, env=_env(),
                              capture_output=True, check=False, timeout=300)
    assert full.returncode == again.returncode == computed.returncode == 1
    assert full.stdout == again.stdout == computed.stdout and len(computed.stdout) > 40_000
    assert _cut_short(["check", "."], root) == (EXIT_READER_GONE, "")  # a replay cut short, too


def test_started_with_standard_output_closed_the_check_still_decides_the_exit(tmp_path: Path) -> None:
    root = _tree(tmp_path / "tree")
    done = subprocess.run(["sh", "-c", f'"{sys.executable}" -m memlint check . --no-cache >&-'], cwd=root, env=_env(),
                          capture_output=True, check=False, timeout=300)
    assert (done.returncode, done.stderr) == (1, b"")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", [["rules"], ["check", ".", "--no-cache"], ["explain", "ML101"]])
def test_output_that_cannot_be_written_is_one_line_and_exit_2(tmp_path: Path, args: list[str]) -> None:
    root = _tree(tmp_path / "tree")
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run([sys.executable, "-m", "memlint", *args], cwd=root, env=_env(), stdout=full,
                              stderr=subprocess.PIPE, check=False, timeout=300)
    assert done.returncode == 2
    assert done.stderr.decode().splitlines() == ["memlint: [Errno 28] No space left on device"]


@pytest.mark.parametrize("args", [["check"], ["check", "--no-cache"], ["fix"]])
def test_a_current_folder_removed_under_memlint_is_one_line_and_exit_2(tmp_path: Path, args: list[str]) -> None:
    root = _tree(tmp_path / "tree")
    gone = tmp_path / "gone"
    script = f'mkdir "{gone}" && cd "{gone}" && rmdir "{gone}" && exec "{sys.executable}" -m memlint {" ".join(args)} "{root}"'
    done = subprocess.run(["sh", "-c", script], env=_env(), capture_output=True, check=False, timeout=300)
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().splitlines() == [(
        "memlint: the current folder no longer exists (was it removed?); change to an existing folder and run "
        "memlint again")]


# memlint ends its process with os._exit once the output is written (memlint/__main__.py `_leave`):
# whatever is still buffered on the standard streams must get out first, and trouble writing it is
# handled as during the run.
_LEAVE = "import sys; from memlint.__main__ import _leave; sys.stdout.write({text!r}); sys.stderr.write('e'); _leave(1)"


def _buffered_env() -> dict[str, str]:
    """As `_env`, with standard output buffered (as it is by default, when no PYTHONUNBUFFERED is set)."""
    env = _env()
    env.pop("PYTHONUNBUFFERED", None)
    return env


def test_leaving_writes_what_is_still_buffered_first(tmp_path: Path) -> None:
    text = "report line\n" * 5000  # more than one buffer's worth, the end of it unwritten
    done = subprocess.run([sys.executable, "-c", _LEAVE.format(text=text)], env=_buffered_env(), capture_output=True,
                          check=False, timeout=60)
    assert (done.returncode, done.stdout.decode(), done.stderr.decode()) == (1, text, "e")


def test_leaving_with_the_reader_gone_is_quiet() -> None:
    proc = subprocess.Popen([sys.executable, "-c", _LEAVE.format(text="x" * 100)], env=_buffered_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    assert (proc.wait(timeout=60), proc.stderr.read().decode()) == (EXIT_READER_GONE, "e")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_leaving_with_output_that_cannot_be_written_is_one_line_and_exit_2() -> None:
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run([sys.executable, "-c", _LEAVE.format(text="x" * 100)], env=_buffered_env(), stdout=full,
                              stderr=subprocess.PIPE, check=False, timeout=60)
    assert done.returncode == 2
    assert done.stderr.decode() == "ememlint: [Errno 28] No space left on device\n"


def test_a_whole_report_reaches_a_pipe(tmp_path: Path) -> None:
    root = _tree(tmp_path / "tree")
    done = subprocess.run([sys.executable, "-m", "memlint", "check", ".", "--no-cache", "--format", "json"],
                          cwd=root, env=_env(), capture_output=True, check=False, timeout=300)
    assert done.returncode == 1 and done.stderr == b""
    assert len(json.loads(done.stdout)["violations"]) >= 300  # the whole document: it parses
