#!/usr/bin/env python3
"""Where one `memlint check` spends its time: imports, discovery and loading, then each rule.

    python benchmarks/rule_times.py TREE [--top 15]

Times are wall seconds in this process (one run, cold: no run cache is read or written). Rules
share facts computed once per run (`RuleContext.once`), so the first rule that asks pays for them.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    start = time.perf_counter()
    from memlint import engine
    from memlint.config import load_config
    from memlint.rules import all_rules

    rules = [r for r in all_rules()]
    imported = time.perf_counter()
    config = load_config(args.tree)
    ctx = engine.build_context([args.tree], config, None)
    modelled = time.perf_counter()
    timings: list[tuple[float, str, int]] = []
    for rule in rules:
        if rule.code not in ctx.selection.selected:
            continue
        began = time.perf_counter()
        ctx.options = dict(ctx.selection.rule_options(rule))
        found = list(rule.check(ctx))  # as engine.run_rules does, without its once-per-run suppression pass
        timings.append((time.perf_counter() - began, f"{rule.code} {rule.slug}", len(found)))
    began = time.perf_counter()
    engine.run_rules(ctx, [])  # the suppression pass and sorting, on no findings
    timings.append((time.perf_counter() - began, "(suppressions, once per run)", 0))
    done = time.perf_counter()
    print(f"imports {imported - start:6.3f} s   model ({len(ctx.files)} files, {len(ctx.loads)} start folders) "
          f"{modelled - imported:6.3f} s   rules {done - modelled:6.3f} s   total {done - start:6.3f} s")
    for seconds, name, count in sorted(timings, reverse=True)[: args.top]:
        print(f"  {seconds:6.3f} s  {name}  ({count} findings)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
