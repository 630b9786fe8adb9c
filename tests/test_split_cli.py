"""`memlint fix` on a real-shaped over-limit index: no backup unless `--backup` (`--no-backup` is
still accepted), a summary that counts problems fixed and files written, existing topic files
untouched, and a second run that changes nothing."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CASE = Path(__file__).parent / "rules/ML301-memory-index-truncated/real-shaped-over-limit"


def _fix(folder: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "memlint", "fix", str(folder), "--unsafe-fixes", *flags],
                          check=False, capture_output=True, text=True, timeout=120)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("flags", [(), ("--no-backup",), ("--backup",)])
def test_fix_writes_no_backup_unless_asked_and_counts_what_it_did(tmp_path: Path, flags: tuple[str, ...]) -> None:
    folder = tmp_path / "memory"
    shutil.copytree(CASE / "input", folder)
    before = _files(folder)
    run = _fix(folder, *flags)
    assert run.returncode in (0, 1), run.stderr
    after = _files(folder)
    created = sorted(set(after) - set(before) - {"MEMORY.md~"})
    assert created == sorted(p.name for p in (CASE / "fixed").iterdir() if p.name not in before)
    assert ("MEMORY.md~" in after) == ("--backup" in flags)
    if "--backup" in flags:
        assert after["MEMORY.md~"] == before["MEMORY.md"]
    assert all(after[name] == data for name, data in before.items() if name != "MEMORY.md"), "a topic file changed"
    summary = run.stderr.strip().splitlines()[-1]
    assert summary.startswith("Fixed ") and summary.endswith(f": 1 file rewritten, {len(created)} files created.")
    assert int(summary.split()[1]) >= 1
    again = _fix(folder, *flags)
    assert again.returncode in (0, 1), again.stderr
    assert _files(folder) == after, "a second run changed files"
    assert "Fixed" not in again.stderr
