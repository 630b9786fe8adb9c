"""Fault tests for the MEMORY.md split: an error between any two writes leaves the folder as it
was; `kill -9` at random moments never loses text nor leaves MEMORY.md pointing to a missing file,
and a second `memlint fix` then reaches exactly what an uninterrupted run writes."""

from __future__ import annotations

import os
import random
import re
import shutil
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


def make_folder(root: Path) -> Path:
    folder = root / "memory"
    folder.mkdir()
    (folder / "MEMORY.md").write_text(SPLIT, encoding="utf-8")
    for name, text in TOPICS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder  # (no MEMORY.md~: --backup never writes over one, it refuses the split)


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


@pytest.mark.slow  # fault injection: the second test command (README)
@pytest.mark.parametrize("backup", [None, "~"])
def test_an_error_between_any_two_writes_leaves_the_folder_as_it_was(tmp_path: Path, backup: str | None) -> None:
    (tmp_path / "probe").mkdir()
    probe = make_folder(tmp_path / "probe")
    total = count_writes(planned(probe), backup, tmp_path)
    assert total >= 3
    tried = 0
    for k in range(total):
        for what in ("replace", "link"):
            root = tmp_path / f"run-{k}-{what}"
            root.mkdir()
            folder = make_folder(root)
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


def memory_dir(base: Path) -> Path:
    """A subagent's memory folder under `base`: its MEMORY.md is an auto-memory index for memlint
    (a MEMORY.md in a plain folder is hand-kept, and is never split)."""
    folder = base / ".claude" / "agent-memory" / "notes"
    folder.mkdir(parents=True)
    return folder


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


def index_2000() -> str:
    """A 2,000-line MEMORY.md: one-line entries between sections with bodies and code (~200 blocks
    for the split to move), as people's indexes grow when nobody splits them."""
    out = ["# Memory", ""]
    i = 0
    while len(out) < 2000:
        if i % 30 == 0:
            out += [f"## Area {i // 30}", ""]  # entries grouped by area: the index can be made to load whole
        if i % 3 == 0:
            out += [f"### Topic {i}", "", f"Detail {i}: the service listens on port {8000 + i}.",
                    f"Run step {i} before deploying.", "```", f"make step-{i}", "```", ""]
        else:
            out.append(f"- [Entry {i}](entry-{i}.md) \u2014 short hook {i}")
        i += 1
    return "\n".join(out[:2000]) + "\n"


def check_entries_kept(folder: Path, original: str) -> None:
    """No entry of the old index is lost: the old index is intact, or every non-blank line of it is
    in the new index or in a topic file the new index links (itself or through a second-level index
    file); no new link points to a missing file."""
    files = memory_files(folder)
    index = files["MEMORY.md"]
    if index == original:
        return
    linked = set(LINK.findall(index))
    seen, todo = {"MEMORY.md"}, ["MEMORY.md"]  # through second-level index files too
    while todo:
        for target in LINK.findall(files.get(todo.pop(), "")):
            if target in files and target not in seen:
                seen.add(target)
                todo.append(target)
    reachable = {line for name, text in files.items() if name in seen for line in text.split("\n")}
    lost = [line for line in original.split("\n") if line.strip() and line not in reachable]
    assert not lost, f"{len(lost)} lines of the old index are in no linked file, e.g. {lost[:3]}"
    old_targets = set(LINK.findall(original))
    dangling = [t for t in linked if t not in old_targets and not (folder / t).is_file()]
    assert not dangling, f"MEMORY.md links missing files: {dangling[:5]}"


def kill_at_random_moments(tmp_path: Path, kills: int) -> None:
    """Split a 2,000-line MEMORY.md and SIGKILL the run at `kills` random moments (half of them in
    the write phase: a moment after the first new file appears); after each, no entry is lost and
    the next `memlint fix` reaches exactly what an uninterrupted run writes. A kill that left the
    folder as it was (it came before the first write) needs no second run: that run is the
    uninterrupted one, done once as the reference."""
    original = index_2000()
    reference = memory_dir(tmp_path / "reference")
    (reference / "MEMORY.md").write_text(original, encoding="utf-8")
    started = time.monotonic()
    proc = run_fix(reference)
    first_write = None
    while proc.poll() is None:
        if first_write is None and len(os.listdir(reference)) > 1:
            first_write = time.monotonic()
        time.sleep(0.001)
    assert proc.returncode in (0, 1)
    duration = time.monotonic() - started
    write_phase = max(0.05, time.monotonic() - (first_write or started))
    expected = memory_files(reference)
    assert len(expected) > 100, "the reference run split the index"
    rng = random.Random(2000)
    killed, changed = 0, 0
    for k in range(kills):
        folder = memory_dir(tmp_path / f"kill-{k}")
        (folder / "MEMORY.md").write_text(original, encoding="utf-8")
        proc, launched = run_fix(folder), time.monotonic()
        if k % 2:  # in the write phase: a moment after the first file of the split appears
            while proc.poll() is None and len(os.listdir(folder)) == 1 and time.monotonic() - launched < 300:
                time.sleep(0.001)
            time.sleep(rng.uniform(0.0, write_phase))
        else:
            time.sleep(duration * rng.uniform(0.0, 1.05))
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            killed += 1
        proc.wait(timeout=60)
        check_entries_kept(folder, original)
        if memory_files(folder) == {"MEMORY.md": original}:
            shutil.rmtree(folder)
            continue
        changed += 1
        assert run_fix(folder).wait(timeout=300) in (0, 1)
        assert memory_files(folder) == expected, f"kill {k}: the next run differs from an uninterrupted run"
        leftovers = [p.name for p in folder.iterdir() if p.suffix != ".md"]
        assert not leftovers, f"kill {k}: temp files left after the next run: {leftovers[:5]}"
        shutil.rmtree(folder)
    assert killed >= kills // 3, f"only {killed} of {kills} runs were interrupted"
    print(f"{kills} kills: {killed} interrupted a run, {changed} left a partly written folder")


@pytest.mark.slow  # fault injection: the second test command (README)
def test_kill_9_at_14_random_moments_of_a_2000_line_split(tmp_path: Path) -> None:
    kill_at_random_moments(tmp_path, 14)


@pytest.mark.faults_long
def test_kill_9_at_200_random_moments_of_a_2000_line_split(tmp_path: Path) -> None:
    kill_at_random_moments(tmp_path, 200)


@pytest.mark.slow  # fault injection: the second test command (README)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_rerun_after_a_kill_between_two_writes_reaches_the_uninterrupted_result(tmp_path: Path, seed: int) -> None:
    """The states a kill -9 leaves inside write_all, built directly (a random kill rarely lands in
    the short write phase): some new topic files linked, temp files left, MEMORY.md not replaced."""
    original = big_index()
    reference = memory_dir(tmp_path / "reference")
    (reference / "MEMORY.md").write_text(original, encoding="utf-8")
    assert run_fix(reference).wait(timeout=120) in (0, 1)
    expected = memory_files(reference)
    written = sorted(name for name in expected if name != "MEMORY.md")
    rng = random.Random(seed)
    folder = memory_dir(tmp_path / "killed")
    (folder / "MEMORY.md").write_text(original, encoding="utf-8")
    for name in rng.sample(written, rng.randint(1, len(written))):
        (folder / name).write_text(expected[name], encoding="utf-8")
    (folder / ".MEMORY.md.x1y2z3.memlint-tmp").write_text(expected["MEMORY.md"], encoding="utf-8")
    check_invariants(folder, original)
    assert run_fix(folder).wait(timeout=120) in (0, 1)
    assert memory_files(folder) == expected


@pytest.mark.slow  # fault injection: the second test command (README)
def test_memory_md_rewritten_while_a_fix_runs_is_never_silently_overwritten(tmp_path: Path) -> None:
    """A line appended to MEMORY.md at a random moment of the split survives: the fix either read
    it (it is then in the index or a topic file) or refuses to replace the file and says so."""
    original = index_2000()
    rng = random.Random(11)
    refused = 0
    for k in range(4):
        folder = memory_dir(tmp_path / f"race-{k}")
        (folder / "MEMORY.md").write_text(original, encoding="utf-8")
        added = f"- [Added {k}](added-{k}.md) \u2014 a line the user wrote during the fix"
        proc = subprocess.Popen([*MEMLINT, "fix", str(folder), "--unsafe-fixes", "--no-backup"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.2, 2.5))
        with open(folder / "MEMORY.md", "a", encoding="utf-8") as handle:
            handle.write(added + "\n")
        _out, err = proc.communicate(timeout=300)
        files = memory_files(folder)
        assert any(added in text for text in files.values()), f"race {k}: the appended line was lost"
        if added in files["MEMORY.md"] and "changed on disk" in err.decode():
            refused += 1
            assert proc.returncode == 1
        check_entries_kept(folder, original + added + "\n")
    print(f"4 races: {refused} refused to overwrite")


@pytest.mark.slow  # fault injection: the second test command (README)
@pytest.mark.parametrize("limit", [1_000, 2_000])  # (the split's files stay under a recall's 4,096 bytes)
def test_a_file_size_limit_mid_split_leaves_the_folder_as_it_was(tmp_path: Path, limit: int) -> None:
    """`ulimit -f`: a write past the limit fails (EFBIG); the split is undone, the run says so."""
    resource = pytest.importorskip("resource")
    original = index_2000()
    folder = memory_dir(tmp_path / "limited")
    (folder / "MEMORY.md").write_text(original, encoding="utf-8")
    assert len(original.encode()) > limit

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    proc = subprocess.run([*MEMLINT, "fix", str(folder), "--unsafe-fixes", "--no-backup"], capture_output=True,
                          preexec_fn=small_files, timeout=300, check=False)
    err = proc.stderr.decode()
    assert "Traceback" not in err and proc.returncode == 1, err
    assert "not written" in err
    assert memory_files(folder) == {"MEMORY.md": original}
    assert [p.name for p in folder.iterdir()] == ["MEMORY.md"]
