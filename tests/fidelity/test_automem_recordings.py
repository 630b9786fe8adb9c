"""MEMORY.md as Claude Code 2.1.332 gives it to the model (C07 notice, C08 sanitising), against the
real CLI's output for the auto-memory differential cases (automem_2.1.332.json), and as 2.1.197
gives it (tests/differential/recordings/2.1.197)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from memlint.api import Context
from memlint.model.loading.loader import load
from memlint.model.release import pick

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "differential"))
from cases import BY_NAME, build, normalize

NEW = json.loads((HERE / "automem_2.1.332.json").read_text(encoding="utf-8"))


def _automem(name: str, version: str, tmp_path: Path) -> list[dict[str, Any]]:
    tree, home = build(BY_NAME[name], tmp_path)
    data = Context(load(tree / BY_NAME[name].cwd, home, release=pick(version))).to_dict()
    return [f for f in normalize(data["files"], tree, home) if f["kind"] == "automem"]


@pytest.mark.parametrize("name", sorted(NEW["cases"]))
def test_memory_index_as_2_1_332_gives_it(name: str, tmp_path: Path) -> None:
    got = [(f["path"], f["content"]) for f in _automem(name, "2.1.332", tmp_path)]
    assert got == [(f["path"], f["content"]) for f in NEW["cases"][name]]


@pytest.mark.parametrize("name", sorted(NEW["cases"]))
def test_memory_index_as_2_1_197_gives_it(name: str, tmp_path: Path) -> None:
    old = json.loads((HERE.parent / "differential" / "recordings" / "2.1.197" / f"{name}.json").read_text(encoding="utf-8"))
    expected = [(f["path"], f["content"]) for f in old["files"] if f["kind"] == "automem"]
    assert [(f["path"], f["content"]) for f in _automem(name, "2.1.197", tmp_path)] == expected
