#!/usr/bin/env python3
"""Time `memlint lsp`: diagnostics after an edit in the 2,002-file tree, with a warm server.

    python benchmarks/bench_lsp.py [--edits N] [--tree DIR] [--debounce MS]

Builds the tree of benchmarks/make_tree.py (once) in a temporary folder, starts the server as an
editor does (stdio), opens the root CLAUDE.md and waits for its first diagnostics (the cold run),
then makes N edits of the open document, one after the other, each adding or removing an include
of a missing file. For each edit it times the wait from sending `didChange` to receiving the
diagnostics for that version of the document (debounce included), and prints the best, median
and worst; then the CPU time of the same runs inside this process (on a shared machine wall times
wander with the load). Goal: the median within 300 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

HERE = Path(__file__).resolve().parent
MAKER = HERE / "make_tree.py"


async def bench(tree: Path, edits: int, debounce: int) -> list[float]:
    client = LanguageClient("bench", "1")
    published: dict[int, asyncio.Event] = {}
    findings: dict[int, list[str]] = {}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_publish(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == uri and params.version is not None:
            findings[params.version] = [str(d.code) for d in params.diagnostics]
            published.setdefault(params.version, asyncio.Event()).set()

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: types.RegistrationParams) -> None:
        return None

    async def diagnostics_for(version: int) -> None:
        await asyncio.wait_for(published.setdefault(version, asyncio.Event()).wait(), 120)

    claude = tree / "CLAUDE.md"
    uri = claude.as_uri()
    text = claude.read_text(encoding="utf-8")
    await client.start_io(sys.executable, "-m", "memlint", "lsp")
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=tree.as_uri(),
        workspace_folders=[types.WorkspaceFolder(tree.as_uri(), "bigtree")],
        initialization_options={"debounce": debounce}))
    client.initialized(types.InitializedParams())
    start = time.perf_counter()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "markdown", 1, text)))
    await diagnostics_for(1)
    print(f"cold: first diagnostics {time.perf_counter() - start:.3f} s after didOpen "
          f"({len(findings[1])} findings on CLAUDE.md)")
    times = []
    for version in range(2, edits + 2):
        edited = text + ("\nAlso see @docs/not-there.md.\n" if version % 2 == 0 else "")
        start = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [types.TextDocumentContentChangeWholeDocument(edited)]))
        await diagnostics_for(version)
        times.append(time.perf_counter() - start)
        expected = version % 2 == 0
        if ("ML101" in findings[version]) != expected:  # the edit's finding comes and goes
            raise SystemExit(f"edit {version}: ML101 {'missing' if expected else 'still there'}: {findings[version]}")
        await asyncio.sleep(0.2)  # an editor's pause between edits
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times


def in_process(tree: Path, edits: int) -> list[float]:
    """The CPU time of the same warm runs inside this process (no protocol, no debounce): what a
    run costs when the machine is shared and wall times wander."""
    from memlint.lsp.session import Session

    session = Session()
    session.folders = [tree]
    claude = tree / "CLAUDE.md"
    text = claude.read_text(encoding="utf-8")
    session.opened(claude, text, 1)
    session.run()
    session.changed(claude, text + "\n", 2)
    session.run()
    times = []
    for version in range(3, edits + 3):
        session.changed(claude, text + ("\nAlso see @docs/not-there.md.\n" if version % 2 else ""), version)
        start = time.process_time()
        session.run()
        times.append(time.process_time() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--tree", type=Path)
    parser.add_argument("--debounce", type=int, default=30, help="the server's debounce in ms (30: its default)")
    args = parser.parse_args()
    tree = args.tree or Path(tempfile.mkdtemp(prefix="memlint-bigtree-")) / "bigtree"
    if not tree.exists():
        subprocess.run([sys.executable, str(MAKER), str(tree)], check=True, stdout=subprocess.DEVNULL)
    files = sum(1 for p in tree.rglob("*") if p.is_file() and not {".git", ".memlint_cache"} & set(p.parts))
    print(f"tree: {tree} ({files} files)")
    times = asyncio.run(bench(tree, args.edits, args.debounce))
    ms = sorted(t * 1000 for t in times)
    print(f"diagnostics after an edit (warm, debounce {args.debounce} ms included), {len(ms)} edits: "
          f"best {ms[0]:.0f} ms, median {statistics.median(ms):.0f} ms, worst {ms[-1]:.0f} ms (goal: 300 ms)")
    cpu = sorted(t * 1000 for t in in_process(tree, args.edits))
    print(f"the same runs in process, CPU time: best {cpu[0]:.0f} ms, median {statistics.median(cpu):.0f} ms, "
          f"worst {cpu[-1]:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
