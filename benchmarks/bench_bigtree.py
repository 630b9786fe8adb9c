#!/usr/bin/env python3
"""Time memlint on the 2,002-file synthetic tree of benchmarks/make_tree.py, beside agnix.

    python benchmarks/bench_bigtree.py [--runs N] [--tree DIR]

Builds the tree (once) in a temporary folder, then prints the best and median wall time of
`memlint context`, `memlint context --tokenizer chars4`, `memlint check`, and `agnix` (when it is
on PATH or installed beside this Python), and memlint check's ratio to agnix.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAKER = HERE / "make_tree.py"


def timed(cmd: list[str], cwd: Path, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tree", type=Path)
    args = parser.parse_args()
    tree = args.tree or Path(tempfile.mkdtemp(prefix="memlint-bigtree-")) / "bigtree"
    if not tree.exists():
        if not MAKER.exists():
            print(f"cannot find {MAKER}", file=sys.stderr)
            return 2
        subprocess.run([sys.executable, str(MAKER), str(tree)], check=True)
    memlint = str(Path(sys.executable).parent / "memlint")
    home = tree.parent / "empty-home"
    home.mkdir(exist_ok=True)
    commands = {
        "memlint context (cl100k)": [memlint, "context", ".", "--home", str(home)],
        "memlint context (chars4)": [memlint, "context", ".", "--home", str(home), "--tokenizer", "chars4"],
        "memlint check": [memlint, "check", "."],
        "memlint --version (start-up)": [memlint, "--version"],
    }
    agnix = shutil.which("agnix") or str(Path(sys.executable).parent / "agnix")
    if Path(agnix).exists():
        commands["agnix"] = [agnix, "--max-files", "0", "."]  # past 10,000 files it checks nothing otherwise
    results = {}
    for name, cmd in commands.items():
        best, median = timed(cmd, tree, args.runs)
        results[name] = best
        print(f"{name:<30} best {best:6.3f} s   median {median:6.3f} s   ({args.runs} runs)")
    if "agnix" in results:
        print(f"memlint check / agnix = {results['memlint check'] / results['agnix']:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
