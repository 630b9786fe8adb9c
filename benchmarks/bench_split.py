#!/usr/bin/env python3
"""Time the MEMORY.md split (`plan_split`, what `memlint fix` computes and verifies before writing)
on 100,000-line indexes: notes in sections (bench_hostile's shape), entries only, and a realistic
mix of entries, detail, instructions, tables and entries listed again. Goal: under 2 s each.

    python benchmarks/bench_split.py [--runs N]

Prints per index the best and median CPU time of planning in a fresh process (imports excluded),
the lines before and after, the files the plan writes, and whether it loads whole.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from memlint.rules.automem.split import plan_split, measure
text = Path(sys.argv[2]).read_text(encoding="utf-8")
start = time.process_time()
plan = plan_split(text, Path("/memory"), lambda p: None, ())
cpu = time.process_time() - start
after = plan.truncation if plan is not None and plan.floor is None else None
print(json.dumps({"cpu": cpu, "files": len(plan.topics) if plan else 0,
                  "after": after.line_count if after else None, "whole": bool(after and not after.truncated)}))
"""


def notes(n: int) -> str:
    lines = ["# Memory", ""]
    for i in range(n):
        if i % 50 == 0:
            lines.append(f"## Section {i}")
        lines.append(f"- n{i}: use t{i}")
    return "\n".join(lines[:n]) + "\n"


def entries(n: int) -> str:
    return "\n".join(["# Memory", ""] + [f"- [N{i}](n{i}.md) \u2014 f{i}" for i in range(n - 2)]) + "\n"


def mixed(n: int) -> str:
    lines = ["# Memory", "", "- NEVER push to main", "- Always run the tests first", ""]
    k = 0
    while len(lines) < n:
        lines.append(f"## Area {k}")
        lines += [f"- [Topic {k}.{j}](topic-{k}-{j}.md) \u2014 what we know about {k}.{j}" for j in range(6)]
        lines += [f"- [Topic {k}.0](topic-{k}-0.md) \u2014 revised note on {k}.0"]
        lines += [f"- the {k} service keeps its queue in region {j}; rewritten after the outage" for j in range(8)]
        lines += ["", "| Date | Change |", "|---|---|"] + [f"| 2026-01-{1 + j:02d} | change {j} |" for j in range(5)]
        lines.append("")
        k += 1
    return "\n".join(lines[:n]) + "\n"


def code_log(n: int) -> str:
    head = ["# Memory", "", "- NEVER push to main", ""] + [f"- [Topic {j}](topic-{j}.md) \u2014 note {j}" for j in range(10)]
    body = ["", "## Build log", "```text"] + [f"step {i}: compiled module {i % 97} in {i % 13} ms" for i in range(n)]
    return "\n".join((head + body)[: n - 1] + ["```"]) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        cases = (("notes", notes, 100_000), ("entries", entries, 100_000), ("mixed", mixed, 100_000),
                 ("code-log", code_log, 100_000), ("mixed-3k", mixed, 3_000))
        for name, make, size in cases:
            path = Path(tmp) / f"{name}.md"
            path.write_text(make(size), encoding="utf-8")
            results = []
            for _ in range(args.runs):
                out = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), str(path)], capture_output=True,
                                     text=True, check=True)
                results.append(json.loads(out.stdout))
            cpus = [r["cpu"] for r in results]
            last = results[-1]
            print(f"{name:<9} best {min(cpus):6.2f} s  median {statistics.median(cpus):6.2f} s  "
                  f"{size:,} lines -> {last['after']} lines, {last['files']} files, "
                  f"{'loads whole' if last['whole'] else 'refused (floor named)'}")


if __name__ == "__main__":
    main()
