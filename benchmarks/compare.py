#!/usr/bin/env python3
"""memlint beside agnix on the same tree: CPU time, wall time and peak memory, cold and warm.

    python benchmarks/compare.py --scale 1 [--runs 3]          # builds benchmarks/make_tree.py's tree
    python benchmarks/compare.py --tree DIR [--runs 3]         # any existing tree (e.g. a corpus copy)

Each repetition is a paired run: memlint cold (its `.memlint_cache/` removed first), agnix, memlint
warm (the cache the cold run left: nothing changed), then memlint after an edit (the stored runs
removed, the tokenizer's rank table kept: what a run costs once a file changed). CPU is user + system time of the child alone, peak RSS
its maximum resident set (both from `os.wait4`). The table shows medians over the repetitions and
the median of the per-pair ratios; the load average is printed because the machine may be shared.
`--memlint "python -m memlint"` measures another memlint (e.g. with PYTHONPATH set to an old tree).
`--installed DIR` measures memlint as a user installs it: this checkout built and installed (not
editable) into a virtual environment at DIR (made when missing; its dependencies come from the
package index once). An editable install, and the `.pth` files of the interpreter it was made
with, run at every start: pip's editable finder imports pathlib and urllib before memlint does
anything (on this machine the interpreter's own start was 26 ms there against 9 ms in a venv).

agnix spreads its work over threads (rayon), and their CPU time depends on what ran just before:
on bigtree it is 0.23-0.25 s run back to back, 0.32-0.35 s right after memlint's runs (which
write the cache) or after a pause. memlint's own time moves by a few percent. `--agnix-threads 1`
(RAYON_NUM_THREADS) gives agnix's work without the thread overhead: the steadiest baseline.
agnix runs with `--max-files 0`: past 10,000 files it otherwise refuses to check anything.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bytecode import ensure_bytecode

HERE = Path(__file__).resolve().parent
# agnix refuses a tree of more than 10,000 files ("Too many files to validate", exit 1) unless its
# limit is lifted: at scale 8 (15,995 files) its default run checks nothing, and times its refusal.
AGNIX_ARGS = ("--max-files", "0")


@dataclass(frozen=True)
class Sample:
    wall: float
    cpu: float
    rss_mib: float
    exit_code: int


def run_once(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> Sample:
    """One run of `cmd`, output discarded, measured from the outside."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=None if env is None else {**os.environ, **env})
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode)


def find_tool(name: str) -> str | None:
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def row(name: str, samples: list[Sample]) -> str:
    return (f"{name:<16} cpu {median([s.cpu for s in samples]):7.3f} s   wall {median([s.wall for s in samples]):7.3f} s"
            f"   peak RSS {max(s.rss_mib for s in samples):7.1f} MiB   exit {samples[-1].exit_code}")


def compare(tree: Path, memlint: list[str], agnix: str | None, runs: int, warm: bool,
            agnix_env: dict[str, str] | None = None) -> None:
    cache = tree / ".memlint_cache"
    check = [*memlint, "check", "."]
    cold: list[Sample] = []
    hot: list[Sample] = []
    edited: list[Sample] = []
    other: list[Sample] = []
    print(f"tree {tree}   load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for _ in range(runs):
        shutil.rmtree(cache, ignore_errors=True)
        cold.append(run_once(check, tree))
        if agnix:
            other.append(run_once([agnix, *AGNIX_ARGS, "."], tree, agnix_env))
        if warm:
            hot.append(run_once(check, tree))
            for entry in cache.glob("run-*"):
                entry.unlink()
            edited.append(run_once(check, tree))
    print(row("memlint cold", cold))
    if warm:
        print(row("memlint warm", hot))
        print(row("memlint edited", edited))
    if other:
        print(row("agnix", other))
        for name, mine in (("cold", cold), ("warm", hot), ("edited", edited)):
            if not mine:
                continue
            cpu = median([m.cpu / a.cpu for m, a in zip(mine, other)])
            wall = median([m.wall / a.wall for m, a in zip(mine, other)])
            rss = max(m.rss_mib for m in mine) / max(a.rss_mib for a in other)
            print(f"memlint {name} / agnix: cpu {cpu:5.2f}x   wall {wall:5.2f}x   peak RSS {rss:5.2f}x")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}   ({runs} paired runs)")


def install(venv: Path) -> str:
    """memlint installed from this checkout into the virtual environment `venv`, as a user gets it."""
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", str(HERE.parent)], check=True)
    else:  # this checkout's code now; the dependencies are there already
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(HERE.parent)],
                       check=True)
    return str(venv / "bin" / "memlint")


def main() -> int:
    ensure_bytecode()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scale", type=float, default=1.0, help="build make_tree.py's tree at this scale")
    where.add_argument("--tree", type=Path, help="an existing tree to check")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--memlint", default=None, help="memlint command (default: the one beside this Python)")
    parser.add_argument("--installed", type=Path, default=None, metavar="DIR",
                        help="install this checkout (not editable) into a venv at DIR and time that memlint")
    parser.add_argument("--no-agnix", action="store_true")
    parser.add_argument("--no-warm", action="store_true")
    parser.add_argument("--agnix-threads", type=int, default=None,
                        help="run agnix with RAYON_NUM_THREADS set to this (1: its work without thread overhead)")
    args = parser.parse_args()
    if args.installed is not None:
        memlint = [install(args.installed)]
    else:
        memlint = shlex.split(args.memlint) if args.memlint else [find_tool("memlint") or "memlint"]
    agnix = None if args.no_agnix else find_tool("agnix")
    if agnix is None and not args.no_agnix:
        print("agnix not found (pip install agnix); timing memlint alone", file=sys.stderr)
    tree = args.tree
    if tree is None:
        tree = Path(tempfile.mkdtemp(prefix="memlint-bench-")) / f"tree-x{args.scale:g}"
        subprocess.run([sys.executable, str(HERE / "make_tree.py"), str(tree), str(args.scale)], check=True)
    agnix_env = None if args.agnix_threads is None else {"RAYON_NUM_THREADS": str(args.agnix_threads)}
    compare(tree.resolve(), memlint, agnix, args.runs, not args.no_warm, agnix_env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
