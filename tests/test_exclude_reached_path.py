"""`excludes_match_reached_path` (2.1.239, bisected with the real CLI): a rule reached through a linked
rules folder is excluded by the path the walk reached it by (tests/differential: x02_exclude_linked_rules_folder)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from memlint.api import context
from memlint.model.release import pick

sys.path.insert(0, str(Path(__file__).resolve().parent / "differential"))

from cases import BY_NAME, build, case_launch


@pytest.mark.parametrize(("version", "loaded"), [
    ("2.1.238", ["CLAUDE.md", "team-rules/t.md"]),  # only the real path, team-rules/t.md, was tried
    ("2.1.239", ["CLAUDE.md"]),
])
def test_linked_rules_folder_excluded_by_the_path_reached(version: str, loaded: list[str], tmp_path: Path) -> None:
    case = BY_NAME["x02_exclude_linked_rules_folder"]
    tree, home = build(case, tmp_path)
    ctx = context(start=tree, home=home, managed_dir=tmp_path / "no-managed", release=pick(version),
                  launch=case_launch(case, tree, home))
    assert [str(f.path.relative_to(tree)) for f in ctx.loaded.files] == loaded
    if version == "2.1.239":
        [skipped] = [s for s in ctx.loaded.skipped if s.reason == "excluded"]
        assert skipped.path == tree / "team-rules" / "t.md"
        assert str(tree / ".claude" / "rules" / "t.md") in skipped.detail
