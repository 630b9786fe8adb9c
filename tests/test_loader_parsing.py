"""The loader runs markdown-it-py only on files that can need it: those with an `@` or a `<!--`."""

from __future__ import annotations

from pathlib import Path

from memlint.model.loading.loader import load
from memlint.model.loading.workspace import Workspace


def test_only_files_with_at_or_comment_are_parsed(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("# Root\n\nSee @a.md for more.\n", encoding="utf-8")
    (tmp_path / "a.md").write_text("# A\n\nPlain text, an email user@example.com.\n", encoding="utf-8")
    (tmp_path / "CLAUDE.local.md").write_text("---\nname: x\n---\n# Local\n\nPlain.\n", encoding="utf-8")
    rules = tmp_path / ".claude" / "rules"
    rules.mkdir(parents=True)
    (rules / "plain.md").write_text("# Plain rule\n\nNothing special.\n", encoding="utf-8")
    (rules / "commented.md").write_text("# Rule\n<!-- note -->\nText.\n", encoding="utf-8")
    workspace = Workspace()
    ctx = load(tmp_path, tmp_path / "home", workspace, tmp_path / "no-managed")
    parsed = {f.path.name: f.document._tokens is not None for f in ctx.files}
    assert parsed == {"CLAUDE.md": True, "a.md": True, "plain.md": False, "commented.md": True,
                      "CLAUDE.local.md": False}
    assert [f.path.name for f in ctx.files if f.path.name == "commented.md"]
    assert "note" not in next(f.content for f in ctx.files if f.path.name == "commented.md")


def test_any_matches_agrees_with_rule_matches() -> None:
    from memlint.model.cli_js.globs import any_matches, rule_matches

    files = ("src/a/b.ts", "docs/x.md", "lib/y.py", "README.md", "a/b/c/d.txt")
    for patterns in [("src/**/*.ts",), ("*.md",), ("/src",), ("lib",), ("docs/*.py",), ("x/**",),
                     ("[unclosed",), ("**/d.txt",), ("src/a",), ("!x", "*.md"), ("*.md", "!README.md"),
                     ("*.md", "!*.md")]:
        assert any_matches(patterns, files) == any(rule_matches(patterns, f) for f in files), patterns
