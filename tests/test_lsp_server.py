"""`memlint lsp` end to end: a real LSP client (pytest-lsp) starts the server as an editor does
and sends what an editor sends (initialize, open, change, watched files), then reads what comes
back (diagnostics, code actions applied to the text, hovers, document links)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

pytestmark = pytest.mark.asyncio

GUIDE = "# Guide\n\nRun the tests with `make test` before each push.\n"
ROOT = "# Project\n\nThe guide: @docs/guide.md\n\nBuild with `make`.\n"
EVERYTHING_RULE = '---\npaths: "**"\n---\nKeep functions short.\n'
PYTHON_RULE = '---\npaths:\n  - "src/**/*.py"\n---\nUse type hints everywhere.\n'


def _memory_index() -> str:
    """An index over Claude Code's 200-line cut: detail sections a split moves into topic files."""
    out = ["# Memory", ""]
    for section in ("Deploy", "Billing", "Search"):
        out += [f"## {section}", f"The {section.lower()} service runs on port {len(section) * 1000}."]
        out += [f"Step {n} of the {section.lower()} runbook: check the dashboard, then the logs." for n in range(1, 31)]
        out.append("")
    out += ["## Notes"] + [f"- [Note {n}](note-{n}.md) \u2014 fact number {n}" for n in range(1, 131)]
    return "\n".join(out) + "\n"


def make_tree(root: Path) -> None:
    (root / ".git").mkdir()
    (root / ".memlint.toml").write_text('memory-dirs = ["memory"]\n', encoding="utf-8")
    (root / "CLAUDE.md").write_text(ROOT, encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "guide.md").write_text(GUIDE, encoding="utf-8")
    rules = root / ".claude" / "rules"
    rules.mkdir(parents=True)
    (rules / "style.md").write_text(EVERYTHING_RULE, encoding="utf-8")
    (rules / "python.md").write_text(PYTHON_RULE, encoding="utf-8")
    for name in ("app.py", "db.py", "README.txt"):
        (root / "src" / name).parent.mkdir(exist_ok=True)
        (root / "src" / name).write_text("print('hi')\n", encoding="utf-8")
    (root / "memory").mkdir()
    (root / "memory" / "MEMORY.md").write_text(_memory_index(), encoding="utf-8")
    for n in range(1, 131):
        (root / "memory" / f"note-{n}.md").write_text(
            f"---\nname: note-{n}\ndescription: fact number {n}\nmetadata:\n  type: project\n---\nFact {n}.\n",
            encoding="utf-8")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "memlint", "lsp"]))
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    make_tree(tmp_path)
    registered: list[types.RegistrationParams] = []
    lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)(lambda params: registered.append(params))
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=tmp_path.as_uri(),
        workspace_folders=[types.WorkspaceFolder(tmp_path.as_uri(), "project")],
        initialization_options={"debounce": 10},
    ))
    lsp_client.root = tmp_path  # type: ignore[attr-defined]
    lsp_client.registered = registered  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def until(client: LanguageClient, holds: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait for diagnostics until `holds()` (each publish is looked at)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not holds():
        left = deadline - loop.time()
        if left <= 0:
            raise AssertionError(f"timed out; diagnostics: {client.diagnostics}")
        try:
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), left)
        except asyncio.TimeoutError:
            pass


def codes(client: LanguageClient, uri: str) -> list[str]:
    return [str(d.code) for d in client.diagnostics.get(uri, [])]


def open_file(client: LanguageClient, path: Path) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri, "markdown", 1, path.read_text(encoding="utf-8"))))
    return uri


def change(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [types.TextDocumentContentChangeWholeDocument(text)]))


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """Apply text edits as an editor does (all positions refer to the text before any edit)."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def offset(p: types.Position) -> int:
        return min(starts[min(p.line, len(starts) - 1)] + p.character, len(text))

    spans = sorted(((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits), key=lambda s: s[:2])
    out, cursor = [], 0
    for start, end, new_text in spans:  # in order; same start: as listed (an insert, then a removal)
        assert start >= cursor, "overlapping edits"
        out += [text[cursor:start], new_text]
        cursor = end
    text = "".join(out) + text[cursor:]
    return text


async def test_open_change_and_diagnostics(client: LanguageClient) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    uri = open_file(client, root / "CLAUDE.md")
    await until(client, lambda: uri in client.diagnostics)
    assert codes(client, uri) == []
    client.text_document_did_change(types.DidChangeTextDocumentParams(  # typed at the end: unsaved
        types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [types.TextDocumentContentChangePartial(
            types.Range(types.Position(5, 0), types.Position(5, 0)), "\nAlso read @docs/missing.md first.\n")]))
    await until(client, lambda: "ML101" in codes(client, uri))
    found = next(d for d in client.diagnostics[uri] if d.code == "ML101")
    assert found.range.start == types.Position(6, 10)  # the `@` of the include, 0-based
    assert "docs/missing.md" in found.message and found.severity == types.DiagnosticSeverity.Error
    assert not (root / "docs" / "missing.md").exists()


async def test_a_safe_code_action_applied_clears_its_finding(client: LanguageClient) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    uri = open_file(client, root / ".claude" / "rules" / "style.md")
    await until(client, lambda: "ML505" in codes(client, uri))
    diagnostic = next(d for d in client.diagnostics[uri] if d.code == "ML505")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), diagnostic.range, types.CodeActionContext([diagnostic])))
    assert actions
    action = next(a for a in actions if isinstance(a, types.CodeAction) and a.kind == types.CodeActionKind.QuickFix)
    assert "(unsafe)" not in action.title and action.is_preferred
    assert action.edit is not None and action.edit.document_changes
    [edit] = action.edit.document_changes
    assert isinstance(edit, types.TextDocumentEdit) and edit.text_document.version == 1
    fixed = apply(EVERYTHING_RULE, list(edit.edits))  # type: ignore[arg-type]
    assert fixed == "Keep functions short.\n"
    change(client, uri, 2, fixed)
    await until(client, lambda: "ML505" not in codes(client, uri))


async def test_the_memory_split_is_one_edit_creating_topic_files(client: LanguageClient) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    uri = open_file(client, root / "memory" / "MEMORY.md")
    await until(client, lambda: "ML301" in codes(client, uri))
    diagnostic = next(d for d in client.diagnostics[uri] if d.code == "ML301")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), diagnostic.range, types.CodeActionContext([diagnostic])))
    split = next(a for a in actions or [] if isinstance(a, types.CodeAction) and "split" in a.title.lower())
    assert split.title.endswith("(unsafe)")
    changes = split.edit.document_changes if split.edit else None
    assert changes
    created = [c.uri for c in changes if isinstance(c, types.CreateFile)]
    assert sorted(Path(u).name for u in created) == ["billing.md", "deploy.md", "search.md"]
    index_edits = [c for c in changes if isinstance(c, types.TextDocumentEdit) and c.text_document.uri == uri]
    new_index = apply(_memory_index(), [e for c in index_edits for e in c.edits])  # type: ignore[misc]
    assert new_index.count("\n") < 200 and "(deploy.md)" in new_index
    change(client, uri, 2, new_index)
    await until(client, lambda: "ML301" not in codes(client, uri))


async def test_hovers(client: LanguageClient) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    claude = open_file(client, root / "CLAUDE.md")
    memory = open_file(client, root / "memory" / "MEMORY.md")
    rule = open_file(client, root / ".claude" / "rules" / "python.md")
    include = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(claude), types.Position(2, 14)))
    assert include is not None and isinstance(include.contents, types.MarkupContent)
    assert str(root / "docs" / "guide.md") in include.contents.value
    assert "Loaded at start (include level 1) from 1 start folder: `.`" in include.contents.value
    cut = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(memory), types.Position(230, 3)))
    lines = _memory_index().count("\n")
    assert cut is not None and f"Not loaded**: line 231 of {lines}" in cut.contents.value  # type: ignore[union-attr]
    kept = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(memory), types.Position(10, 3)))
    assert kept is None
    paths = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(rule), types.Position(2, 6)))
    assert paths is not None
    assert "matches **2** of the" in paths.contents.value  # type: ignore[union-attr]
    assert "`src/app.py`, `src/db.py`" in paths.contents.value  # type: ignore[union-attr]


async def test_document_links_point_at_include_targets(client: LanguageClient) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    uri = open_file(client, root / "CLAUDE.md")
    links = await client.text_document_document_link_async(types.DocumentLinkParams(types.TextDocumentIdentifier(uri)))
    assert links is not None and [link.target for link in links] == [(root / "docs" / "guide.md").as_uri()]
    assert links[0].range == types.Range(types.Position(2, 11), types.Position(2, 25))


async def test_a_deleted_include_target_shows_on_the_including_file(client: LanguageClient) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    uri = open_file(client, root / "CLAUDE.md")
    await until(client, lambda: uri in client.diagnostics)
    assert "ML101" not in codes(client, uri)
    registered = [r for p in client.registered for r in p.registrations]  # type: ignore[attr-defined]
    assert [r.method for r in registered] == [types.WORKSPACE_DID_CHANGE_WATCHED_FILES]  # the editor tells of deletions
    target = root / "docs" / "guide.md"
    target.unlink()
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        [types.FileEvent(target.as_uri(), types.FileChangeType.Deleted)]))
    await until(client, lambda: "ML101" in codes(client, uri))
    target.write_text(GUIDE, encoding="utf-8")  # and back: the finding goes
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        [types.FileEvent(target.as_uri(), types.FileChangeType.Created)]))
    await until(client, lambda: "ML101" not in codes(client, uri))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "memlint", "lsp"]))
async def utf8_client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    make_tree(tmp_path)
    lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)(lambda params: None)
    capabilities = client_capabilities("visual-studio-code")
    capabilities.general = types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf8])
    result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=capabilities, root_uri=tmp_path.as_uri(), initialization_options={"debounce": 10}))
    assert result.capabilities.position_encoding == types.PositionEncodingKind.Utf8
    lsp_client.root = tmp_path  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_positions_in_the_encoding_the_client_chose(utf8_client: LanguageClient) -> None:
    root: Path = utf8_client.root  # type: ignore[attr-defined]
    path = root / "CLAUDE.md"
    path.write_text("# Caf\u00e9 \U0001f600 @docs/missing.md\n", encoding="utf-8")
    uri = open_file(utf8_client, path)
    await until(utf8_client, lambda: "ML101" in codes(utf8_client, uri))
    found = next(d for d in utf8_client.diagnostics[uri] if d.code == "ML101")
    assert found.range.start == types.Position(0, len("# Caf\u00e9 \U0001f600 ".encode()))  # 13 bytes, 10 characters


async def test_closing_a_document_clears_its_diagnostics(client: LanguageClient) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    uri = open_file(client, root / ".claude" / "rules" / "style.md")
    await until(client, lambda: "ML505" in codes(client, uri))
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
    await until(client, lambda: codes(client, uri) == [])
