"""The language server's runs, without a client: an open document's findings are `check`'s for
the same text, unsaved text counts, a change on disk counts once the server hears of it, and
positions are counted in the encoding agreed with the editor."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from memlint import api
from memlint.lsp import positions
from memlint.lsp.positions import Lines
from memlint.lsp.session import Session

ROOT = "# Shop\n\nRead @docs/api.md and @docs/gone.md first.\n"
API = "# API\n\nThe notes live in /Users/mkowalski/work/notes/api.md.\n"
PACKAGE = "# Billing\n\nUse tabs.\u200b Never log card numbers.\n"


def _tree(root: Path) -> dict[str, Path]:
    (root / ".git").mkdir()
    files = {"CLAUDE.md": ROOT, "docs/api.md": API, "billing/CLAUDE.md": PACKAGE}
    out = {}
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        out[name] = path
    return out


def _found(violations: object, path: Path) -> list[tuple[int, int, str, str]]:
    return sorted((v.line, v.column, v.code, v.message) for v in violations if v.path == path)  # type: ignore[attr-defined]


def test_open_documents_get_the_findings_check_reports(tmp_path: Path) -> None:
    files = _tree(tmp_path)
    report = api.check([tmp_path])
    session = Session()
    session.folders = [tmp_path]
    for path in files.values():
        session.opened(path, path.read_text(encoding="utf-8"), 1)
    snapshot = session.run()
    for path in files.values():
        expected = _found(report.violations, path)
        assert expected, path  # each file has findings: whole-tree rules and per-file rules alike
        assert _found([v for vs in snapshot.violations.values() for v in vs], path) == expected
    codes = {v.code for vs in snapshot.violations.values() for v in vs}
    assert {"ML101", "ML602", "ML606"} <= codes


def test_unsaved_text_counts_and_disk_changes_count_once_heard(tmp_path: Path) -> None:
    files = _tree(tmp_path)
    session = Session()
    session.folders = [tmp_path]
    root = files["CLAUDE.md"]
    session.opened(root, ROOT, 1)
    assert "ML101" in {v.code for v in session.run().violations.get(root, [])}
    session.changed(root, "# Shop\n\nRead @docs/api.md first.\n", 2)  # the missing include removed, unsaved
    snapshot = session.run()
    assert "ML101" not in {v.code for v in snapshot.violations.get(root, [])}
    assert snapshot.versions[root] == 2 and root.read_text(encoding="utf-8") == ROOT
    files["docs/api.md"].unlink()
    session.disk_changed([files["docs/api.md"]])
    missing = [v for v in session.run().violations.get(root, []) if v.code == "ML101"]
    assert [v.line for v in missing] == [3] and "docs/api.md" in missing[0].message


def test_per_file_findings_of_closed_files_are_not_computed(tmp_path: Path) -> None:
    files = _tree(tmp_path)
    session = Session()
    session.folders = [tmp_path]
    session.opened(files["CLAUDE.md"], ROOT, 1)
    snapshot = session.run()
    assert not snapshot.violations.get(files["billing/CLAUDE.md"])  # ML602 there: a per-file rule
    assert snapshot.violations.get(files["CLAUDE.md"])


@pytest.mark.parametrize(("encoding", "before_x", "before_at"), [("utf-16", 3, 4), ("utf-8", 6, 7), ("utf-32", 2, 3)])
def test_positions_count_in_the_agreed_encoding(encoding: str, before_x: int, before_at: int) -> None:
    positions.use_encoding(encoding)
    try:
        lines = Lines("ab\n\U0001f600\u00e9x@y\r\nz")  # an emoji (2 UTF-16 units, 4 UTF-8 bytes), an é (1, 2)
        assert lines.at(2, 3) == types.Position(1, before_x)
        at = lines.at(2, 4)
        assert at == types.Position(1, before_at)
        assert lines.column(at) == 4 and lines.offset(at) == 6
        assert lines.position(lines.text.index("z")) == types.Position(2, 0)
    finally:
        positions.use_encoding("utf-16")


def test_a_point_finding_covers_the_rest_of_its_line() -> None:
    lines = Lines("# T\n\nsee @a.md now\n")
    assert lines.span(3, 5, 3, 5) == types.Range(types.Position(2, 4), types.Position(2, 13))
    assert lines.span(2, 1, 2, 1) == types.Range(types.Position(1, 0), types.Position(1, 0))


def test_a_bom_read_from_disk_is_not_counted() -> None:
    lines = Lines("\ufeff# T\nx", skip_bom=True)
    assert lines.position(3) == types.Position(0, 2)
    assert lines.at(1, 3) == types.Position(0, 1)


def test_clients_that_cannot_create_files_are_not_offered_the_split(tmp_path: Path) -> None:
    from memlint.lsp import convert

    (tmp_path / ".git").mkdir()
    (tmp_path / ".memlint.toml").write_text('memory-dirs = ["."]\n', encoding="utf-8")
    detail = "\n".join(f"Step {n}: check the dashboard, then the logs." for n in range(60))
    entries = "\n".join(f"- [Note {n}](note-{n}.md) \u2014 fact {n}" for n in range(170))
    text = f"# Memory\n\n## Deploy\n{detail}\n\n## Notes\n{entries}\n"
    index = tmp_path / "MEMORY.md"
    index.write_text(text, encoding="utf-8")
    session = Session()
    session.folders = [tmp_path]
    session.opened(index, text, 1)
    snapshot = session.run()
    everywhere = types.Range(types.Position(0, 0), types.Position(400, 0))
    full = convert.code_actions(snapshot, index, everywhere, None)
    assert any(a.title.endswith("(unsafe)") and "split" in a.title for a in full)
    plain = convert.code_actions(snapshot, index, everywhere, None, convert.EditSupport(True, False))
    assert not any("split" in a.title for a in plain)
    old = types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(
        workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=False)))
    assert convert.EditSupport.of(old) == convert.EditSupport(False, False)


def test_a_long_lived_process_remembers_token_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    from memlint.model.text import tokens

    count = tokens.counter("cl100k")
    text = "Deploy with `make release` after the tests pass.\n" * 40
    expected = count(text)
    monkeypatch.setattr(tokens, "REMEMBERED", {})
    monkeypatch.setattr(tokens, "REMEMBER_CHARS", len(text) * 2)
    monkeypatch.setattr(tokens, "_remembered_chars", [0])
    assert count(text) == expected and tokens.REMEMBERED == {text: expected}
    monkeypatch.setattr(tokens, "_cl100k", lambda: pytest.fail("counted again"))
    assert tokens.counter("cl100k")(text) == expected  # from the memo: the encoding is not asked
    other = text.upper()
    monkeypatch.undo()
    monkeypatch.setattr(tokens, "REMEMBERED", {text: expected})
    monkeypatch.setattr(tokens, "REMEMBER_CHARS", len(text) + 10)
    monkeypatch.setattr(tokens, "_remembered_chars", [len(text)])
    tokens.counter("cl100k")(other)  # past the bound: the memo starts again
    assert list(tokens.REMEMBERED) == [other]


def test_a_new_file_not_yet_saved_is_checked(tmp_path: Path) -> None:
    _tree(tmp_path)
    new = tmp_path / "billing" / ".claude" / "rules" / "money.md"
    new.parent.mkdir(parents=True)
    session = Session()
    session.folders = [tmp_path]
    session.opened(new, '---\npaths: "**"\n---\nRound money half to even.\n', 1)
    assert [v.code for v in session.run().violations.get(new, [])] == ["ML505"]
    assert not new.exists()


def test_the_projects_memory_under_home_is_checked_once(tmp_path: Path) -> None:
    from memlint.model.memory.automem import automem_folder

    project, home = tmp_path / "shop", tmp_path / "home"
    project.mkdir()
    _tree(project)
    folder = automem_folder(home, project)
    folder.mkdir(parents=True)
    text = "# Memory\n" + "\n".join(f"- [Fact {n}](fact-{n}.md) \u2014 fact {n}" for n in range(230)) + "\n"
    (folder / "MEMORY.md").write_text(text, encoding="utf-8")
    session = Session(home)
    session.folders = [project]
    session.opened(folder / "MEMORY.md", text, 1)  # outside the workspace folder, in the project's auto memory
    snapshot = session.run()
    assert len(snapshot.contexts) == 1  # the folder's run covers it: no second run, no finding twice
    assert [v.code for v in snapshot.violations[folder / "MEMORY.md"]].count("ML301") == 1


def test_a_user_rules_paths_hover_counts_the_projects_files_not_homes(tmp_path: Path) -> None:
    from memlint.lsp import convert, hover

    project, home = tmp_path / "shop", tmp_path / "home"
    (project / "src").mkdir(parents=True)
    _tree(project)
    (project / "src" / "cart.py").write_text("total = 0\n", encoding="utf-8")
    (home / "scratch").mkdir(parents=True)
    (home / "scratch" / "notes.py").write_text("x = 1\n", encoding="utf-8")  # HOME's: never matched
    rule = home / ".claude" / "rules" / "python.md"
    rule.parent.mkdir(parents=True)
    rule.write_text('---\npaths: "**/*.py"\n---\nUse type hints.\n', encoding="utf-8")
    session = Session(home)
    session.folders = [project]
    session.opened(rule, rule.read_text(encoding="utf-8"), 1)
    snapshot = session.run()
    ctx = snapshot.context_of(rule)
    assert ctx is not None
    found = hover.hover(ctx, rule, convert.lines_of(snapshot, rule), types.Position(1, 2), project)
    assert found is not None and isinstance(found.contents, types.MarkupContent)
    assert "matches **1** of the 4 files in" in found.contents.value and "`src/cart.py`" in found.contents.value
