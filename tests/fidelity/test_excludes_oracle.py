"""`claudeMdExcludes` against the real Claude Code: which rule files it leaves out (live, opt-in:
MEMLINT_ORACLE=1; ~10 s per pattern). Last run (2.1.332): 64/64."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from memlint.model.cli_js.globs import picomatch
from tests.oracle_live import live_output, require_live

FOLDERS = ["a", "b", "1", "2", "!", ".h", "c", "ab"]
PATTERNS = ["**/a/**", "**/[!a]/*.md", "**/{1..3}/*.md", "!**/b/*.md", "**/@(a|b)/*.md", "**/.*/*.md",
            "**/rules/[[:digit:]]/*", "**/!(a)/r.md"]


@pytest.mark.oracle
@pytest.mark.parametrize("pattern", PATTERNS)
def test_excluded_files_as_claude_code_excludes_them(pattern: str, tmp_path: Path) -> None:
    require_live()
    tree, home = (tmp_path / "t").resolve(), (tmp_path / "h").resolve()
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"claudeMdExcludes": [pattern]}), encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(tree)], check=True)
    expected = {}
    for i, folder in enumerate(FOLDERS):
        path = tree / ".claude" / "rules" / folder / "r.md"
        path.parent.mkdir(parents=True)
        path.write_text(f"RULE{i:02d}\n", encoding="utf-8")
        expected[f"RULE{i:02d}"] = not picomatch(str(path), (pattern,))
    seen = live_output(tree, "--home", str(home))
    assert {k: k in seen for k in expected} == expected
