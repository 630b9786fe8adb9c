"""Fault tests for the MEMORY.md split: an error between any two writes leaves the folder as it
was; `kill -9` at random moments never loses text nor leaves MEMORY.md pointing to a missing file,
and a second `memlint fix` then reaches exactly what an uninterrupted run writes."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memlint import api
from memlint.config import load_config
from memlint.fixes import FixError, FixResult, write_all

MEMLINT = [sys.executable, "-m", "memlint"]
# Over the write-guard target (140 lines), so the split has to move the detail below.
NOTES = "".join(f"- [Note {n}](note-{n}.md) \u2014 fact number {n}\n" for n in range(140))
SPLIT = """# Memory

- [Deploy](deploy.md) — blue/green on Fridays only
""" + NOTES + """
## Build steps

Run make build. It takes a while.
```
make build
```

- [Testing](testing.md) — integration tests hit a real database
  - details about fixtures
  - more details

A paragraph of detail that belongs in a topic file.
"""
TOPICS = {
    "deploy.md": "---\nname: deploy\ndescription: Deploys.\nmetadata:\n  type: project\n---\n\nDeploys.\n",
    "testing.md": "---\nname: testing\ndescription: Tests.\nmetadata:\n  type: project\n---\n\nTests.\n",
}


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def make_folder(root: Path, backup: bool) -> Path:
    folder = root / "memory"
    folder.mkdir()
    (folder / "MEMORY.md").write_text(SPLIT, encoding="utf-8")
    for name, text in TOPICS.items():
        (folder / name).write_text(text, encoding="utf-8")
    if backup:
        (folder / "MEMORY.md~").write_text("an older backup\n", encoding="utf-8")
    return folder


def planned(folder: Path) -> FixResult:
    outcome = api.fix([folder], load_config(folder), None, unsafe=True)
    assert outcome.result.converged
    assert sum(1 for p, old in outcome.result.before.items() if old is None) >= 2, "the split makes topic files"
    return outcome.result


def count_writes(result: FixResult, backup: str | None, tmp: Path) -> int:
    """How many os.replace / os.link calls a successful write_all makes."""
    calls = 0
    real_replace, real_link = os.replace, os.link

    def replace(*a: Any, **k: Any) -> None:
        nonlocal calls
        calls += 1
        real_replace(*a, **k)

    def link(*a: Any, **k: Any) -> None:
        nonlocal calls
        calls += 1
        real_link(*a, **k)

    mp = pytest.MonkeyPatch()
    mp.setattr(os, "replace", replace)
    mp.setattr(os, "link", link)
    try:
        write_all(result, backup)
    finally:
        mp.undo()
    return calls


@pytest.mark.parametrize("backup", [None, "~"])
def test_an_error_between_any_two_writes_leaves_the_folder_as_it_was(tmp_path: Path, backup: str | None) -> None:
    (tmp_path / "probe").mkdir()
    probe = make_folder(tmp_path / "probe", backup is not None)
    total = count_writes(planned(probe), backup, tmp_path)
    assert total >= 3
    tried = 0
    for k in range(total):
        for what in ("replace", "link"):
            root = tmp_path / f"run-{k}-{what}"
            root.mkdir()
            folder = make_folder(root, backup is not None)
            before = snapshot(folder)
            result = planned(folder)
            calls = 0
            real: Callable[..., None] = getattr(os, what)

            def failing(*a: Any, _real: Callable[..., None] = real, _k: int = k, **kw: Any) -> None:
                nonlocal calls
                calls += 1
                if calls == _k + 1:
                    raise OSError(28, "No space left on device", str(a[-1]))
                _real(*a, **kw)

            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(os, what, failing)
                try:
                    write_all(result, backup)
                except FixError:
                    failed = True
                else:
                    failed = False
                    assert calls <= k, f"the injected {what} error #{k + 1} was swallowed"
            if failed:
                assert snapshot(folder) == before, f"folder changed after a failed {what} #{k + 1}"
            tried += failed
    assert tried == total, "every write was made to fail once"


# --- kill -9 during splits of a 5,000-entry index -------------------------------------------------

LINK = re.compile(r"\]\(([^)\s]+\.md)\)")
KILL_BUDGET = 20.0  # seconds for all the interrupted runs together
SEEDS = range(12)


def big_index() -> str:
    out = ["# Memory", ""]
    for i in range(5000):
        out.append(f"- [Note {i}](note-{i}.md) \u2014 fact number {i} about the system")
        if i % 250 == 0:
            out += ["", f"## Details {i}", "", f"Paragraph about {i}. More text here.", "```", f"code {i}", "```", ""]
        elif i % 97 == 0:
            out += [f"  - detail line for {i}", f"  - second detail for {i}"]
    return "\n".join(out) + "\n"


def memory_files(folder: Path) -> dict[str, str]:
    """The .md files of the folder (temp files of a killed run are not memory files)."""
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.md"))}


def run_fix(folder: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*MEMLINT, "fix", str(folder), "--unsafe-fixes", "--no-backup"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def check_invariants(folder: Path, original: str) -> None:
    files = memory_files(folder)
    index = files["MEMORY.md"]
    everything = "\n".join(files.values())
    lines = {line for text in files.values() for line in text.split("\n")}
    lost = [line for line in original.split("\n") if line.strip() and line not in lines]
    assert not lost, f"{len(lost)} lines lost, e.g. {lost[:3]}"
    old_targets = set(LINK.findall(original))
    dangling = [t for t in LINK.findall(index) if t not in old_targets and not (folder / t).is_file()]
    assert not dangling, f"MEMORY.md points to missing files: {dangling[:5]}"
    assert everything


def test_kill_9_during_a_big_split_loses_nothing_and_a_rerun_converges(tmp_path: Path) -> None:
    original = big_index()
    reference = tmp_path / "reference"
    reference.mkdir()
    (reference / "MEMORY.md").write_text(original, encoding="utf-8")
    started = time.monotonic()
    assert run_fix(reference).wait(timeout=120) in (0, 1)
    duration = time.monotonic() - started
    expected = memory_files(reference)
    assert len(expected) > 10, "the reference run split the index"
    spent, interrupted = 0.0, 0
    states: list[tuple[int, bool]] = []  # (files after the kill, MEMORY.md untouched)
    for seed in SEEDS:
        if spent + duration * 2.2 > KILL_BUDGET:
            break
        rng = random.Random(seed)
        folder = tmp_path / f"seed-{seed}"
        folder.mkdir()
        (folder / "MEMORY.md").write_text(original, encoding="utf-8")
        t0 = time.monotonic()
        proc = run_fix(folder)
        time.sleep(rng.uniform(0.3, 1.05) * duration)  # mostly late: the writes come at the end
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            interrupted += 1
        proc.wait(timeout=60)
        check_invariants(folder, original)
        states.append((len(memory_files(folder)), memory_files(folder)["MEMORY.md"] == original))
        assert run_fix(folder).wait(timeout=120) in (0, 1)
        spent += time.monotonic() - t0
        assert memory_files(folder) == expected, f"seed {seed}: the second run differs from an uninterrupted run"
        leftovers = [p.name for p in folder.iterdir() if p.suffix != ".md"]
        assert all(name.endswith(".memlint-tmp") for name in leftovers), leftovers
    assert interrupted >= 1, "no run was interrupted: the kill came too late every time"
    print(f"kill -9 states (files, index untouched): {states}")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_rerun_after_a_kill_between_two_writes_reaches_the_uninterrupted_result(tmp_path: Path, seed: int) -> None:
    """The states a kill -9 leaves inside write_all, built directly (a random kill rarely lands in
    the short write phase): some new topic files linked, temp files left, MEMORY.md not replaced."""
    original = big_index()
    reference = tmp_path / "reference"
    reference.mkdir()
    (reference / "MEMORY.md").write_text(original, encoding="utf-8")
    assert run_fix(reference).wait(timeout=120) in (0, 1)
    expected = memory_files(reference)
    written = sorted(name for name in expected if name != "MEMORY.md")
    rng = random.Random(seed)
    folder = tmp_path / "killed"
    folder.mkdir()
    (folder / "MEMORY.md").write_text(original, encoding="utf-8")
    for name in rng.sample(written, rng.randint(1, len(written))):
        (folder / name).write_text(expected[name], encoding="utf-8")
    (folder / ".MEMORY.md.x1y2z3.memlint-tmp").write_text(expected["MEMORY.md"], encoding="utf-8")
    check_invariants(folder, original)
    assert run_fix(folder).wait(timeout=120) in (0, 1)
    assert memory_files(folder) == expected
