"""The server on stdio (pygls): editor notifications in, diagnostics, code actions, hovers and
document links out.

Every change (an edit, a save, a file created, deleted or renamed on disk, a document closed)
schedules one run of the whole tree after a short quiet time (`debounce`, 30 ms by default); a
change during a run schedules one more run after it. After each run every open document gets its
diagnostics again: an include target deleted on disk shows on the CLAUDE.md that includes it.

Initialization options (all optional): `home` (a HOME to model, as `check --home`: user memory
and the project's auto memory; `~` for yours), `debounce` (milliseconds)."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from memlint import __version__
from memlint.lsp import convert, hover, includes
from memlint.lsp.positions import use_encoding
from memlint.lsp.session import Session, Snapshot, key
from memlint.lsp.transport import BoundedInput, Protocol, log_to_stderr, unreadable
from memlint.model.run.rule_context import RuleContext

log = logging.getLogger(__name__)
T = TypeVar("T")
WATCHED = ("**/*.md", "**/.memlint.toml", "**/pyproject.toml")


class MemlintServer(LanguageServer):
    def __init__(self, home: Path | None = None) -> None:
        super().__init__("memlint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=Protocol)
        self.session = Session(home)
        self.debounce = 0.03
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memlint-run")
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Future[None] | None = None
        self._running = False
        self._again = False
        self._published: set[Path] = set()
        self._uris: dict[Path, str] = {}  # the URI each open document was opened by
        self._told: set[str] = set()  # problems logged already
        self.watching = False  # the client tells of files changed on disk (didChangeWatchedFiles)

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A message the server could not read (pygls' reading loop) is answered as JSON-RPC says, not
        shown as an "Error in server" dialog: the fault is the sender's (it is logged in one line)."""
        if source is JsonRpcException:
            unreadable(self.protocol, error)
        else:
            super().report_server_error(error, source)

    # scheduling -------------------------------------------------------------------------------
    def schedule(self) -> None:
        """Run after `debounce` seconds without a further change (or after the current run)."""
        if self._running:
            self._again = True
            return
        loop = asyncio.get_running_loop()
        if self._timer is not None:
            self._timer.cancel()
        self._timer = loop.call_later(self.debounce, self._start)

    def _start(self) -> None:
        self._task = asyncio.ensure_future(self._run())  # referenced: a task nobody holds may be collected

    async def _run(self) -> None:
        self._timer = None
        if self._running:
            self._again = True
            return
        self._running = True
        try:
            while True:
                self._again = False
                try:
                    snapshot = await asyncio.get_running_loop().run_in_executor(self._pool, self.session.run)
                except Exception as exc:
                    log.exception("memlint run failed")
                    self.window_log_message(types.LogMessageParams(types.MessageType.Error, f"memlint: {exc}"))
                else:
                    self.publish(snapshot)
                if not self._again:
                    break
        finally:
            self._running = False

    def publish(self, snapshot: Snapshot) -> None:
        for problem in snapshot.problems:
            if problem not in self._told:  # once, not at every keystroke
                self._told.add(problem)
                self.window_log_message(types.LogMessageParams(types.MessageType.Warning, f"memlint: {problem}"))
        for path in self._published - set(self.session.open):
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(path.as_uri(), []))
        # the documents the run saw open (one opened since gets its diagnostics from the next run)
        self._published = {p for p in self.session.open if p in snapshot.versions}
        for path in self._published:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                self.uri(path), convert.diagnostics(snapshot, path), snapshot.versions[path]))

    def uri(self, path: Path) -> str:
        """The URI the editor opened `path` by (else the path's own)."""
        return self._uris.get(path) or path.as_uri()

    # helpers for requests ----------------------------------------------------------------------
    async def on_worker(self, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` on the thread that runs the checks, after the run in progress: it reads
        the workspace that run reuses (documents, caches), never while the run changes it."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)

    async def current(self, uri: str, wait: float = 5.0) -> tuple[Path, Snapshot] | None:
        """The path of `uri` and the last run, once a run has seen the document's current text
        (waiting up to `wait` seconds for the run that is due); None if none has."""
        path = _path(uri)
        if path is None:
            return None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        while True:
            snapshot = self.session.snapshot
            opened = self.session.open.get(path)
            if opened is None or snapshot.versions.get(path) == opened.version:
                return path, snapshot
            if loop.time() > deadline or (self._timer is None and not self._running):
                return None  # an answer from an older text would point at old places
            await asyncio.sleep(0.01)


def _path(uri: str) -> Path | None:
    fs_path = to_fs_path(uri)
    return key(fs_path) if fs_path else None


SERVER = MemlintServer()


@SERVER.feature(types.INITIALIZE)
def initialize(ls: MemlintServer, params: types.InitializeParams) -> None:
    folders = [f.uri for f in params.workspace_folders or ()] or ([params.root_uri] if params.root_uri else [])
    if not folders and params.root_path:
        folders = [Path(params.root_path).as_uri()]
    ls.session.folders = [p for p in map(_path, folders) if p is not None]
    options: dict[str, Any] = params.initialization_options if isinstance(params.initialization_options, dict) else {}
    if isinstance(options.get("home"), str):
        ls.session.home = Path(os.path.expanduser(options["home"]))
    if isinstance(options.get("debounce"), (int, float)) and options["debounce"] >= 0:
        ls.debounce = options["debounce"] / 1000


@SERVER.feature(types.INITIALIZED)
async def initialized(ls: MemlintServer, params: types.InitializedParams) -> None:
    encoding = ls.server_capabilities.position_encoding or "utf-16"
    use_encoding(str(getattr(encoding, "value", encoding)))  # the member's value, not its name
    dynamic = ls.client_capabilities.workspace and ls.client_capabilities.workspace.did_change_watched_files
    if dynamic and dynamic.dynamic_registration:
        watchers = [types.FileSystemWatcher(glob) for glob in WATCHED]
        options = types.DidChangeWatchedFilesRegistrationOptions(watchers)
        registration = types.Registration("memlint-watch", types.WORKSPACE_DID_CHANGE_WATCHED_FILES, options)
        try:
            await ls.client_register_capability_async(types.RegistrationParams([registration]))
        except Exception:  # noqa: BLE001 - a client that refuses: saves and closes still re-run
            log.warning("the client did not accept file watching")
        else:
            ls.watching = True


@SERVER.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: MemlintServer, params: types.DidOpenTextDocumentParams) -> None:
    path = _path(params.text_document.uri)
    if path is not None:
        ls._uris[path] = params.text_document.uri
        ls.session.opened(path, params.text_document.text, params.text_document.version)
        ls.schedule()


@SERVER.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: MemlintServer, params: types.DidChangeTextDocumentParams) -> None:
    path = _path(params.text_document.uri)
    if path is not None:
        text = ls.workspace.get_text_document(params.text_document.uri).source
        ls.session.changed(path, text, params.text_document.version)
        ls.schedule()


@SERVER.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: MemlintServer, params: types.DidSaveTextDocumentParams) -> None:
    path = _path(params.text_document.uri)
    if path is not None and not ls.watching:  # no word of other files from the editor: read the disk again
        ls.session.disk_changed([path])
        ls.schedule()


@SERVER.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: MemlintServer, params: types.DidCloseTextDocumentParams) -> None:
    path = _path(params.text_document.uri)
    if path is not None:
        ls._uris.pop(path, None)
        ls.session.closed(path)
        ls.schedule()


@SERVER.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched(ls: MemlintServer, params: types.DidChangeWatchedFilesParams) -> None:
    """Files created, changed or deleted on disk. An open document saved is no news: the run has
    its text already (and a save need not cost a run that reads every file again)."""
    changed = []
    for change in params.changes:
        path = _path(change.uri)
        if path is not None and not (change.type == types.FileChangeType.Changed and path in ls.session.open):
            changed.append(path)
    if changed:
        ls.session.disk_changed(changed)
        ls.schedule()


@SERVER.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
def did_change_folders(ls: MemlintServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    removed = {_path(f.uri) for f in params.event.removed}
    kept = [f for f in ls.session.folders if f not in removed]
    ls.session.folders = kept + [p for p in (_path(f.uri) for f in params.event.added) if p is not None]
    ls.session.disk_changed([])
    ls.schedule()


@SERVER.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll]))
async def code_action(ls: MemlintServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    found = await ls.current(params.text_document.uri)
    if found is None:
        return None
    path, snapshot = found
    support = convert.EditSupport.of(ls.client_capabilities)
    actions = await ls.on_worker(convert.code_actions, snapshot, path, params.range, params.context.only, support)
    return actions or None


async def _with_context(ls: MemlintServer, uri: str) -> tuple[Path, Snapshot, RuleContext] | None:
    """The document's path, the snapshot that holds it, and the run that checked it (None: none yet)."""
    found = await ls.current(uri)
    if found is None:
        return None
    path, snapshot = found
    ctx = snapshot.context_of(path)
    return None if ctx is None else (path, snapshot, ctx)


@SERVER.feature(types.TEXT_DOCUMENT_HOVER)
async def on_hover(ls: MemlintServer, params: types.HoverParams) -> types.Hover | None:
    found = await _with_context(ls, params.text_document.uri)
    if found is None:
        return None
    path, snapshot, ctx = found
    project = next((f for f in ls.session.folders if f == path or f in path.parents), None) or \
        next(iter(ls.session.folders), None)
    return await ls.on_worker(lambda: hover.hover(ctx, path, convert.lines_of(snapshot, path), params.position, project))


@SERVER.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK)
async def document_link(ls: MemlintServer, params: types.DocumentLinkParams) -> list[types.DocumentLink] | None:
    found = await _with_context(ls, params.text_document.uri)
    if found is None:
        return None
    path, snapshot, ctx = found
    return await ls.on_worker(lambda: includes.links(ctx, path, convert.lines_of(snapshot, path)))


def serve(home: Path | None = None) -> None:
    """Run the server on stdin and stdout until the client says exit."""
    SERVER.session.home = None if home is None else Path(os.path.expanduser(home))
    log_to_stderr()
    stdin = BoundedInput(sys.stdin.buffer)
    SERVER.start_io(stdin)  # type: ignore[arg-type] # (pygls reads it with `readline` and `read` only)
    if stdin.refused is not None:
        sys.stderr.write(stdin.refusal() + "\n")
        sys.exit(2)
