"""`claudeMdExcludes` against the real Claude Code: which rule files it leaves out (live, opt-in:
MEMLINT_ORACLE=1; ~10 s per pattern). Last run (2.1.332): 64/64."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memlint.model.cli_js.globs import picomatch

ORACLE = Path(__file__).resolve().parents[3] / "shared/oracle/cc_oracle.py"
FOLDERS = ["a", "b", "1", "2", "!", ".h", "c", "ab"]
PATTERNS = ["**/a/**", "**/[!a]/*.md", "**/{1..3}/*.md", "!**/b/*.md", "**/@(a|b)/*.md", "**/.*/*.md",
            "**/rules/[[:digit:]]/*", "**/!(a)/r.md"]


@pytest.mark.oracle
@pytest.mark.parametrize("pattern", PATTERNS)
def test_excluded_files_as_claude_code_excludes_them(pattern: str, tmp_path: Path) -> None:
    if os.environ.get("MEMLINT_ORACLE") != "1":
        pytest.skip("live Claude Code runs only with MEMLINT_ORACLE=1")
    if not ORACLE.exists():
        pytest.skip(f"oracle not found at {ORACLE}")
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
    r = subprocess.run([sys.executable, str(ORACLE), str(tree), "--home", str(home)],
                       check=False, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    if r.returncode == 3:
        pytest.skip("oracle cannot fetch the Claude Code CLI (exit 3)")
    assert r.returncode == 0, r.stderr[-800:]
    assert {k: k in r.stdout for k in expected} == expected
