"""A plain `check` of a small project imports only what it uses: the fix, split, baseline and
session-notes machinery, the language server, and the TOML, decimal, difflib and hashlib modules,
load on the paths that need them (each import at start is paid by every run)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

NOT_AT_START = (
    "memlint.fixes", "memlint.baseline", "memlint.rules.automem.split", "memlint.rules.automem._split_units",
    "memlint.model.memory.notes_template", "tomllib", "decimal", "difflib", "hashlib",
    "memlint.lsp", "pygls", "lsprotocol",  # the language server: `memlint lsp` only
)

_PROBE = """
import json, sys
from memlint.__main__ import _invoke
code = _invoke(sys.argv[1:])
print(json.dumps([code, sorted(sys.modules)]), file=sys.stderr)
"""


def test_a_small_check_imports_none_of_the_machinery_it_does_not_use(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("# P\nBuild with make.\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    done = subprocess.run([sys.executable, "-c", _PROBE, "check", str(tmp_path), "--no-cache", "--home", str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    code, modules = json.loads(done.stderr.strip().splitlines()[-1])
    assert code == 0, done.stdout + done.stderr
    assert [m for m in NOT_AT_START if m in modules] == []

