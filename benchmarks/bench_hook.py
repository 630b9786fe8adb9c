#!/usr/bin/env python3
"""Time `memlint hook` (Claude Code's PostToolUse hook) on harmless writes in the 2,002-file tree of
benchmarks/make_tree.py. Goal: under 150 ms wall per write.

    python benchmarks/bench_hook.py [--runs N] [--tree DIR]

Each case feeds one hook input on stdin to a fresh `memlint hook` process, as Claude Code does
after every Write or Edit, and prints the best and median wall time:
- a write to a source file (no memory file: the commonest write, answered without a model);
- an Edit of a README.md (a Markdown file, but no memory file: the start folder is loaded to tell);
- an Edit of the root CLAUDE.md that breaks nothing (its checks run on it);
- an Edit of a rule file that breaks nothing;
- an Edit of a file the root CLAUDE.md includes that breaks nothing;
- a Write of the project's MEMORY.md that stays under the write guard's warning point.
Each must print nothing (a harmless write is silent); the script says so when one does not.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bytecode import ensure_bytecode

HERE = Path(__file__).resolve().parent
MAKER = HERE / "make_tree.py"


def timed(cmd: list[str], payload: bytes, env: dict[str, str], runs: int) -> tuple[float, float, float, bytes]:
    """Best and median wall time, median CPU time (user + system) of the process, its last output."""
    times, cpu, out = [], [], b""
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(cmd, input=payload, capture_output=True, env=env, check=False)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        out = done.stdout + done.stderr
    return min(times), statistics.median(times), statistics.median(cpu), out


def hook_input(tree: Path, path: Path, tool: str, old: str | None) -> bytes:
    data = {"session_id": "bench", "cwd": str(tree), "hook_event_name": "PostToolUse", "tool_name": tool,
            "tool_input": {"file_path": str(path)}, "tool_response": {"filePath": str(path), "originalFile": old}}
    return json.dumps(data).encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--tree", type=Path)
    args = parser.parse_args()
    ensure_bytecode()  # time what a user runs: an installed memlint has its .pyc files
    base = Path(tempfile.mkdtemp(prefix="memlint-bench-hook-"))
    tree = (args.tree or base / "bigtree").resolve()
    if not tree.exists():
        subprocess.run([sys.executable, str(MAKER), str(tree)], check=True, capture_output=True)
    home = base / "home"
    from memlint.model.memory.automem import sanitize_project_path

    memory = home / ".claude" / "projects" / sanitize_project_path(str(tree)) / "memory"
    memory.mkdir(parents=True, exist_ok=True)
    index = memory / "MEMORY.md"
    entries = "".join(f"- [Note {i}](note-{i}.md) — fact {i}\n" for i in range(1, 81))
    index.write_text(entries)
    (tree / "src").mkdir(exist_ok=True)
    source = tree / "src" / "bench_app.py"
    source.write_text("x = 2\n")
    claude = tree / "CLAUDE.md"
    claude_old = claude.read_text()
    claude.write_text(claude_old + "\nOne more harmless line.\n")
    rules = sorted((tree / ".claude" / "rules").glob("*.md"))
    rule = rules[0] if rules else tree / ".claude" / "rules" / "bench.md"
    rule_old = rule.read_text() if rule.exists() else ""
    rule.parent.mkdir(parents=True, exist_ok=True)
    rule.write_text(rule_old + "\nAnother harmless line.\n")
    readme = tree / "README.md"
    readme_old = readme.read_text() if readme.exists() else ""
    readme.write_text(readme_old + "A line for readers.\n")
    included = tree / "docs" / "doc0003.md"  # the root CLAUDE.md includes it
    included_old = included.read_text()
    included.write_text(included_old + "\nA harmless line.\n")
    cases = {
        "source file (no memory)": hook_input(tree, source, "Write", "x = 1\n"),
        "README.md edit (no memory)": hook_input(tree, readme, "Edit", readme_old),
        "CLAUDE.md edit": hook_input(tree, claude, "Edit", claude_old),
        "rule file edit": hook_input(tree, rule, "Edit", rule_old),
        "included file edit": hook_input(tree, included, "Edit", included_old),
        "MEMORY.md write (80 lines)": hook_input(tree, index, "Write", entries[: entries.rfind("- [Note 80]")]),
    }
    memlint = str(Path(sys.executable).parent / "memlint")
    env = dict(os.environ, HOME=str(home))
    print(f"tree: {tree} ({sum(1 for _ in tree.rglob('*.md'))} .md files); {args.runs} runs each")
    for name, payload in cases.items():
        best, median, cpu, out = timed([memlint, "hook"], payload, env, args.runs)
        note = "" if not out else f"   NOT SILENT: {out[:200]!r}"
        print(f"memlint hook, {name:<28} wall best {best * 1000:5.0f} ms, median {median * 1000:5.0f} ms; "
              f"cpu median {cpu * 1000:5.0f} ms{note}")
    best, median, cpu, _ = timed([memlint, "--version"], b"", env, args.runs)
    print(f"{'memlint --version (start-up)':<42} wall best {best * 1000:5.0f} ms, median {median * 1000:5.0f} ms; "
          f"cpu median {cpu * 1000:5.0f} ms")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
          "(wall time above CPU time is waiting for a core)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
