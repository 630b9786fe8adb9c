"""`memlint` and `python -m memlint`. A `check` whose inputs did not change is replayed from the
run cache (memlint/cache.py) before anything heavy is imported; any other command goes straight
to the click command line."""

from __future__ import annotations

import gc
import sys


def _invoke(argv: list[str]) -> int:
    from memlint.cli import main

    try:
        main(args=argv, prog_name="memlint")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0


def run() -> None:
    # memlint builds one large model that lives for the whole run and makes next to no cyclic
    # garbage: the collector's passes over that heap were 7% of a run at 16,000 files and freed
    # nothing (peak memory is the same on every tree of benchmarks/bench_hostile.py without them).
    gc.disable()
    argv = sys.argv[1:]
    from memlint import cache

    if not cache.cacheable(argv):
        sys.exit(_invoke(argv))
    entry = cache.Entry(argv)
    code = entry.replay(sys.stdout, sys.stderr)
    if code is not None:
        sys.exit(code)
    try:
        cache.prepare(entry.folder)
    except OSError:
        pass  # a read-only tree: the run goes on without a cache
    else:
        from memlint.model import tokens

        tokens.RANK_CACHE_DIR = entry.folder
    with entry.recording() as (recorder, out, err):
        code = _invoke(argv)
    entry.store(recorder, out.parts, "".join(err.parts), code)
    sys.exit(code)


if __name__ == "__main__":
    run()
