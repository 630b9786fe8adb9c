"""The configuration is resolved once per run into a Selection the engine hands to rules; nothing
below the engine asks the configuration anything (issue 27, point 2)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from memlint import api, engine
from memlint.config import Config, load_config
from memlint.selection import Selection, select

PACKAGE = Path(__file__).resolve().parent.parent / "memlint"


def _tree(tmp_path: Path) -> Path:
    (tmp_path / ".memlint.toml").write_text(
        'exclude = ["drafts/"]\nextend-select = ["ML315"]\n'
        '[per-file-ignores]\n"pkg/CLAUDE.md" = ["ML101"]\n'
        "[options.ML315]\nmax-chars = 20\n", encoding="utf-8")
    for folder in ("pkg", "drafts", "other"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "CLAUDE.md").write_text(f"# {folder}\n\nSee @missing-{folder}.md first.\n", encoding="utf-8")
    return tmp_path


def test_the_selection_holds_files_codes_per_file_and_options_per_rule(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    ctx = engine.build_context([root], load_config(root), None)
    selection = ctx.selection
    assert isinstance(selection, Selection)
    assert selection.files == ctx.files
    assert {f.path.parent.name for f in selection.files} == {"pkg", "other"}  # drafts/ excluded
    assert selection.ignored(root / "pkg" / "CLAUDE.md") == {"ML101"}
    assert selection.ignored(root / "other" / "CLAUDE.md") == frozenset()
    ml315 = next(r for r in selection.rules if r.code == "ML315")
    assert selection.rule_options(ml315) == {"max-chars": 20}
    found = {(v.path.parent.name, v.code) for v in engine.run_rules(ctx)}
    assert ("other", "ML101") in found and ("pkg", "ML101") not in found


def test_nothing_asks_the_configuration_once_the_selection_is_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run reads each value of the configuration a bounded number of times, whatever the
    number of files: the per-file answers come from the selection."""
    root = _tree(tmp_path)
    for n in range(40):
        (root / "other" / f"sub{n}").mkdir()
        (root / "other" / f"sub{n}" / "CLAUDE.md").write_text("# Sub\n\nSee @gone.md.\n", encoding="utf-8")
    config = load_config(root)
    reads: list[str] = []
    original = Config.__getattribute__

    def counted(self: Config, name: str) -> object:
        if not name.startswith("__"):
            reads.append(name)
        return original(self, name)

    monkeypatch.setattr(Config, "__getattribute__", counted)
    report = api.check([root], config)
    monkeypatch.undo()
    assert report.files_checked > 40
    assert len(reads) < 30, sorted(set(reads))


def test_select_compiles_the_patterns_once(tmp_path: Path) -> None:
    config = load_config(_tree(tmp_path))
    selection = select(config)
    assert selection.excluded(tmp_path / "drafts" / "CLAUDE.md")
    assert not selection.excluded(tmp_path / "pkg" / "CLAUDE.md")


def _imports_config(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.ImportFrom) and node.module == "memlint.config"
        or isinstance(node, ast.Import) and any(a.name == "memlint.config" for a in node.names)
        for node in ast.walk(tree))


def test_rules_and_model_never_import_the_configuration() -> None:
    below = [*(PACKAGE / "rules").rglob("*.py"), *(PACKAGE / "model").rglob("*.py")]
    assert [str(p) for p in below if _imports_config(p)] == []
    assert not hasattr(Config, "excluded") and not hasattr(Config, "ignored_codes") and not hasattr(Config, "rule_options")
