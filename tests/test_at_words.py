"""`@types/node`, `@octocat`: what Claude Code does with an @-word that names no file is said the same way by
`check` (nothing), `context` (one line; `names_no_file` in JSON) and the editor's hover (recorded in
tests/differential, case mi02_at_words: Claude Code tries each as a path)."""

from __future__ import annotations

from pathlib import Path

from memlint.config import load_config
from memlint.engine import build_context
from memlint.lsp.hover import include_hover


def test_hover_on_an_at_word_says_what_context_says(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("Install @types/node, ask @octocat\nSee @docs/guide.md\n", encoding="utf-8")
    ctx = build_context([tmp_path], load_config(tmp_path), None)
    refs = {r.path: r for r in ctx.document(tmp_path / "CLAUDE.md").scan().includes}
    word = include_hover(ctx, tmp_path / "CLAUDE.md", refs["types/node,"])
    assert "An @-word that names no file" in word and "check reports nothing for it" in word
    missing = include_hover(ctx, tmp_path / "CLAUDE.md", refs["docs/guide.md"])
    assert "does not exist" in missing and "@-word" not in missing
