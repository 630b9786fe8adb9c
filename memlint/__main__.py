"""`memlint` and `python -m memlint`. A `check` whose inputs did not change is replayed from the
run cache (memlint/cache.py) before anything heavy is imported; any other command goes straight
to the click command line."""

from __future__ import annotations

import gc
import os
import sys

TYPE_CHECKING = False  # typing itself is not imported: a replay must start fast
if TYPE_CHECKING:
    from typing import NoReturn


def _invoke(argv: list[str]) -> int:
    from memlint.cli import main

    try:
        main(args=argv, prog_name="memlint")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0


# The exit status of a process that a closed pipe stopped (128 + SIGPIPE), as a shell reports
# `cat big | head`: the report was cut short, which is neither clean, nor findings, nor an error.
EXIT_READER_GONE = 141


def run() -> None:
    # memlint builds one large model that lives for the whole run and makes next to no cyclic
    # garbage: the collector's passes over that heap were 7% of a run at 16,000 files and freed
    # nothing (peak memory is the same on every tree of benchmarks/bench_hostile.py without them).
    gc.disable()
    from memlint.errors import ReaderGone

    if sys.stdout is None:  # started with standard output closed (`memlint check >&-`): nothing to show
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - kept for the whole process

    try:
        code = _run(sys.argv[1:])
    except (BrokenPipeError, ReaderGone):  # (a replayed run writes straight to the pipe)
        code = _reader_gone()
    _leave(code)


def _leave(code: int) -> NoReturn:
    """End the process with `code` once what it printed is written, without tearing the interpreter
    down. The model the run built is garbage held in reference cycles (the collector is off), and
    Python's own exit would collect it and free every module: 5% of a check of bigtree, 0.3 s at
    16,000 files, for memory the system takes back anyway. Every file memlint writes (fixes, the
    run cache, `--output-file`) is closed before this point and no thread is left running, so only
    the standard streams can still hold anything; a reader gone or a failed write is handled as
    during the run."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        code = _reader_gone()
    except OSError as exc:  # a full disk (`> /dev/full`): one line and exit 2, as during the run
        from memlint.escape import for_terminal

        sys.stderr.write(f"memlint: {for_terminal(str(exc))}\n")
        code = 2
    except ValueError:
        pass  # a stream closed already: nothing is left to write
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)


def _reader_gone() -> int:
    """The reader of standard output went away (`memlint check . | head`): stop without a word.
    What is still buffered goes nowhere (else Python's own flush at exit would complain), and a
    run cut short is never stored in the run cache (`_run` did not get to store it)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return EXIT_READER_GONE


def _run(argv: list[str]) -> int:
    from memlint import compiled
    from memlint.cache_folders import rank_folder

    if "--no-cache" not in argv:  # what Python compiles in every process, kept once per user
        compiled.FOLDER_OF = rank_folder
    try:
        return _command(argv)
    finally:
        compiled.store()
        compiled.FOLDER = compiled.FOLDER_OF = None  # (a run called in-process, as the tests do, leaves none behind)


def _command(argv: list[str]) -> int:
    if argv == ["hook"]:  # Claude Code runs it after every write: answered without the command line
        from memlint.hook.guard import run as hook

        return hook(sys.stdin.buffer, sys.stdout, sys.stderr, os.environ)
    from memlint import cache

    if not cache.cacheable(argv):  # `fix`, `context`, `lsp`: never cached, yet they count tokens too
        ranks = None if "--no-cache" in argv else _rank_tables()
        status = _invoke(argv)
        if ranks is not None:
            cache.prune_rank_tables(ranks)
        return status
    try:
        folder = cache.cache_folder(cache.first_path(argv))
        entry = None if folder is None else cache.Entry(argv, folder)
    except OSError:  # no current folder (it was removed): the run goes on without a cache
        return _invoke(argv)
    if entry is None:  # only Claude Code's own folder would hold it: no cache
        return _invoke(argv)
    code = entry.replay(sys.stdout, sys.stderr)
    if code is not None:
        return code
    try:
        cache.prepare(entry.folder)
    except OSError:
        pass  # a read-only tree: the run goes on without a cache
    ranks = _rank_tables()
    with entry.recording() as (recorder, out, err):
        code = _invoke(argv)
    entry.store(recorder, out.parts, "".join(err.parts), code)
    if ranks is not None:
        cache.prune_rank_tables(ranks)  # the tables other Pythons and venvs kept there: the newest stay
    return code


def _rank_tables() -> str | None:
    """The user's cache folder, made ready to keep the tokenizer's rank table (None: there is none,
    and the table is decoded in each run that counts cl100k tokens)."""
    from memlint import cache

    ranks = cache.rank_folder()
    if ranks is None:
        return None
    try:
        cache.prepare(ranks)
    except OSError:
        return None
    from memlint.model.text import tokens

    tokens.RANK_CACHE_DIR = ranks
    return ranks


if __name__ == "__main__":
    run()
