"""ML321 depends on modification times, which a checkout does not keep: its failing case is built
here with set mtimes instead of as a fixture folder."""

from __future__ import annotations

import os
from pathlib import Path

from tests.rules.harness import run_check


def test_too_many_topic_files_names_the_oldest(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text("# Memory\n", encoding="utf-8")
    for n in range(203):
        path = tmp_path / f"n{n:03}.md"
        path.write_text(f"---\nname: n{n:03}\ndescription: Fact {n}.\n---\n", encoding="utf-8")
        os.utime(path, (1_700_000_000 + n, 1_700_000_000 + n))  # n000 oldest
    found = run_check(tmp_path.resolve(), "ML321", None).violations
    assert [(v.path.name, v.line, v.code) for v in found] == [("MEMORY.md", 1, "ML321")]
    assert found[0].message == (
        "the memory folder holds 203 topic files: Claude Code's memory scan lists only the newest 200, so "
        "`n002.md`, `n001.md`, `n000.md` are never listed; merge or delete stale memories"
    )


def test_two_hundred_topic_files_are_all_listed(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text("# Memory\n", encoding="utf-8")
    for n in range(200):
        (tmp_path / f"n{n:03}.md").write_text("x\n", encoding="utf-8")
    assert not run_check(tmp_path.resolve(), "ML321", None).violations
