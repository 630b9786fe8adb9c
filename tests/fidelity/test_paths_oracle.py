"""Rules' `paths:` against the real Claude Code: which conditional rules attach when Claude reads a
file (live, opt-in: MEMLINT_ORACLE=1; ~10 s per read). Last run (2.1.332): 184/184."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from memlint.model.cli_js.globs import rule_matches
from memlint.model.text.frontmatter import parse_frontmatter, rule_paths
from tests.oracle_live import live_output, require_live

PATTERNS = ["*.md", "*.PY", "src/**", "src/**/*.ts", "**/*.test.js", "/root.md", "docs/", "a/**/b", "*.{js,ts}",
            "[!a]*.md", "[a-c].md", "\\#hash.md", "file?.md", "*/x.md", "**/node_modules/**", "src/*.ts",
            "Docs/**", "[z-a].md", "*.m[!d]", "**/guide/*.md", "a/*/c", "src", "x.md/"]
READS = ["src/a/b/c.ts", "Docs/x.md", "root.md", "a/x/y/b/c", "b.PY", "file1.md", "src/x.test.js", "docs/guide/x.md"]


@pytest.mark.oracle
@pytest.mark.parametrize("read", READS)
def test_conditional_rules_attach_as_claude_code_attaches_them(read: str, tmp_path: Path) -> None:
    require_live()
    tree, home = tmp_path / "t", tmp_path / "h"
    (tree / ".claude" / "rules").mkdir(parents=True)
    home.mkdir()
    subprocess.run(["git", "init", "-q", str(tree)], check=True)
    expected = {}
    for i, pattern in enumerate(PATTERNS):
        text = f"---\npaths: {json.dumps(pattern)}\n---\nRULE{i:02d}\n"
        (tree / ".claude" / "rules" / f"r{i:02d}.md").write_text(text, encoding="utf-8")
        found = parse_frontmatter(text)
        globs = rule_paths(found.data) if found is not None else None
        expected[f"RULE{i:02d}"] = globs is not None and rule_matches(tuple(globs), read)
    target = tree / read
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("x\n", encoding="utf-8")
    seen = live_output(tree, "--home", str(home), "--read", str(target))
    assert {k: k in seen for k in expected} == expected
