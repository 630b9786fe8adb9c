#!/usr/bin/env python3
"""Time memlint on hostile trees (docs/limits.md): a 100,000-line MEMORY.md, a MEMORY.md of 100,000
links to missing files, a memory folder of 10,000 topic files, a CLAUDE.md with 50,000 and 100,000
includes, 20,000 rules files, a 10,000-deep tree, 1,000 nested CLAUDE.md folders, a 3.9 MB line,
and the pathological frontmatter and `paths:` patterns. Run it from a folder outside the checkout.

    python benchmarks/bench_hostile.py [--runs N] [--only NAME] [--timeout S]

Prints, per tree, the best and median wall time, the CPU time (user + system) and peak memory of
the `memlint check --no-cache` process (from wait4: every run cold), its exit code, and `TIMEOUT` when
it ran past --timeout.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bytecode import ensure_bytecode


def index_100k_notes(root: Path) -> None:
    folder = root / ".claude" / "agent-memory" / "reviewer"
    folder.mkdir(parents=True)
    lines = ["# Memory", ""]
    for i in range(100_000):
        if i % 50 == 0:
            lines.append(f"## Section {i}")
        lines.append(f"- n{i}: use t{i}")
    (folder / "MEMORY.md").write_text("\n".join(lines[:100_000]) + "\n", encoding="utf-8")


def index_100k_entries(root: Path) -> None:
    folder = root / ".claude" / "agent-memory" / "reviewer"
    folder.mkdir(parents=True)
    lines = ["# Memory", ""] + [f"- [N{i}](n{i}.md) \u2014 f{i}" for i in range(99_998)]
    (folder / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def topics_10k(root: Path) -> None:
    """An agent's memory folder of 10,000 topic files, 300 of them indexed."""
    folder = root / ".claude" / "agent-memory" / "reviewer"
    folder.mkdir(parents=True)
    (root / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    (folder / "MEMORY.md").write_text("# Memory\n" + "".join(f"- [T{i}](t{i}.md) \u2014 topic {i}\n" for i in range(300)),
                                      encoding="utf-8")
    for i in range(10_000):
        (folder / f"t{i}.md").write_text(f"---\nname: t{i}\ndescription: topic {i}\nmetadata:\n  type: project\n---\n\n"
                                        f"Topic {i} body.\n", encoding="utf-8")


def includes(count: int) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        (root / "CLAUDE.md").write_text("\n".join(f"@docs/f{i}.md" for i in range(count)) + "\n", encoding="utf-8")
    return make


def rules_20k(root: Path) -> None:
    folder = root / ".claude" / "rules"
    folder.mkdir(parents=True)
    (root / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    for i in range(20_000):
        (folder / f"r{i}.md").write_text(f"# Rule {i}\nDo thing {i}.\n", encoding="utf-8")


def deep_10k(root: Path) -> None:
    (root / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    fd = os.open(root, os.O_RDONLY)
    for _ in range(10_000):
        os.mkdir("d", dir_fd=fd)
        new = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = new
    os.close(fd)


def remove_deep(top: Path) -> None:
    """Remove the 10,000-deep chain without recursion (shutil.rmtree recurses per level)."""
    child, spare = top / "d", top / "d.up"
    while child.is_dir():
        for entry in os.listdir(child):
            if entry != "d":
                os.unlink(child / entry)
        if (child / "d").is_dir():
            os.rename(child / "d", spare)
            os.rmdir(child)
            os.rename(spare, child)
        else:
            os.rmdir(child)


def nested_claude_md_1000(root: Path) -> None:
    """1,000 nested folders, each with a CLAUDE.md: 1,000 start folders, each loading every
    CLAUDE.md above it (half a million loaded files in all)."""
    folder = root
    for level in range(1000):
        folder = folder / "d"
        folder.mkdir()
        (folder / "CLAUDE.md").write_text(f"# Level {level}\n\nRule {level}.\n", encoding="utf-8")


def long_line(root: Path) -> None:
    (root / "CLAUDE.md").write_bytes(b"# Project\n" + b"word @a " * 480_000)


def _rule(root: Path, frontmatter: str) -> None:
    (root / ".claude" / "rules").mkdir(parents=True)
    (root / ".claude" / "rules" / "r.md").write_text(f"---\n{frontmatter}\n---\nUse tabs.\n", encoding="utf-8")
    (root / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    (root / "src").mkdir()
    (root / "src" / ("a" * 200 + ".ts")).write_text("x\n", encoding="utf-8")


def alias_bomb(root: Path) -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 9):
        lines.append(f"{chr(97 + i)}: &{chr(97 + i)} [" + ",".join([f"*{chr(96 + i)}"] * 9) + "]")
    _rule(root, "\n".join(lines) + "\npaths: *i")


TREES: dict[str, Callable[[Path], None]] = {
    "memory-index-100k-lines": index_100k_notes,
    "memory-index-100k-entries": index_100k_entries,
    "memory-folder-10k-topics": topics_10k,
    "includes-50k": includes(50_000),
    "includes-100k": includes(100_000),
    "rules-files-20k": rules_20k,
    "folders-10k-deep": deep_10k,
    "nested-claude-md-1000": nested_claude_md_1000,
    "line-3.9MB": long_line,
    "yaml-alias-bomb": alias_bomb,
    "braces-x22": lambda root: _rule(root, 'paths: "' + "{a,b}" * 22 + '"'),
    "backtracking-wildcard": lambda root: _rule(root, 'paths: "' + "*a" * 40 + 'b"'),
}


def run_once(tree: Path, timeout: float) -> tuple[float, float, float, int | None]:
    """(wall s, CPU s, peak RSS MiB, exit code or None on timeout) of one `memlint check`."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "memlint", "check", str(tree), "--format", "json", "--no-cache"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    code: int | None = None
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            code = os.waitstatus_to_exitcode(status)
            break
        if time.perf_counter() - start > timeout:
            proc.kill()
            _pid, _status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.005)
    proc.returncode = code if code is not None else -9
    wall = time.perf_counter() - start
    peak = usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)
    return wall, usage.ru_utime + usage.ru_stime, peak, code


def main() -> int:
    ensure_bytecode()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", action="append", choices=sorted(TREES))
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    print(f"{'tree':<28} {'best s':>7} {'median s':>9} {'CPU s':>7} {'peak MiB':>9}  exit")
    with tempfile.TemporaryDirectory(prefix="memlint-hostile-") as tmp:
        for name, make in TREES.items():
            if args.only and name not in args.only:
                continue
            tree = Path(tmp) / name
            tree.mkdir()
            make(tree)
            runs = [run_once(tree, args.timeout) for _ in range(args.runs)]
            walls = [r[0] for r in runs]
            cpu = min(r[1] for r in runs)
            peak = max(r[2] for r in runs)
            codes = {r[3] for r in runs}
            shown = "TIMEOUT" if None in codes else ",".join(str(c) for c in sorted(c for c in codes if c is not None))
            if name in ("folders-10k-deep", "nested-claude-md-1000"):  # shutil.rmtree recurses per level
                remove_deep(tree)
            print(f"{name:<28} {min(walls):>7.2f} {statistics.median(walls):>9.2f} {cpu:>7.2f} {peak:>9.0f}  {shown}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
