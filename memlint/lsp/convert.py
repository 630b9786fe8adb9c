"""Findings as diagnostics, and fixes as code actions (one workspace edit per fix: the MEMORY.md
split creates its topic files and rewrites the index in one edit, all or nothing)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from lsprotocol import types

from memlint.lsp.positions import Lines
from memlint.lsp.session import Snapshot
from memlint.records import dataclass
from memlint.violations import Applicability, Fix, Violation

SOURCE = "memlint"
_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}
FIX_ALL = types.CodeActionKind.SourceFixAll


def lines_of(snapshot: Snapshot, path: Path) -> Lines:
    """The lines of the text the run checked for `path` (an open document's, else the disk's)."""
    found = snapshot.versions.get(path) is not None
    ctx = snapshot.context_of(path)
    if ctx is None:
        return Lines("")
    doc = ctx.workspace.document(path)
    return Lines(doc.text if doc.readable else "", skip_bom=not found)


def diagnostic(v: Violation, lines: Lines) -> types.Diagnostic:
    return types.Diagnostic(
        range=lines.span(v.line, v.column, v.end_line, v.end_column),
        message=v.message,
        severity=_SEVERITY.get(v.severity, types.DiagnosticSeverity.Warning),
        code=v.code,
        source=SOURCE,
        data={"slug": v.slug, "fixable": v.fix is not None},
    )


def diagnostics(snapshot: Snapshot, path: Path) -> list[types.Diagnostic]:
    found = snapshot.violations.get(path, [])
    if not found:
        return []
    lines = lines_of(snapshot, path)
    return [diagnostic(v, lines) for v in found]


def title(fix: Fix) -> str:
    """A fix's title as the editor lists it; unsafe ones say so."""
    label = f"memlint: {fix.title}"
    return label + " (unsafe)" if fix.applicability is Applicability.UNSAFE else label


@dataclass(frozen=True)
class EditSupport:
    """What the client's workspace edits can hold (its `workspace.workspaceEdit` capabilities)."""

    document_changes: bool = True  # versioned text edits (else plain `changes`)
    files: bool = True  # creating and deleting files

    @classmethod
    def of(cls, capabilities: types.ClientCapabilities) -> EditSupport:
        edit = capabilities.workspace.workspace_edit if capabilities.workspace else None
        if edit is None:
            return cls(False, False)
        operations = set(edit.resource_operations or ())
        return cls(bool(edit.document_changes), bool(edit.document_changes) and
                   {types.ResourceOperationKind.Create, types.ResourceOperationKind.Delete} <= operations)


FULL = EditSupport()  # what VS Code, Neovim, Helix and Zed can apply


def _touches_files(fix: Fix) -> bool:
    return any(edit.create or edit.delete for edit in fix.edits)


def workspace_edit(snapshot: Snapshot, fixes: Sequence[Fix], support: EditSupport = FULL) -> types.WorkspaceEdit:
    """The edits of `fixes` as one workspace edit: new files first, then text edits (against the
    document version the run checked), then removed files; plain text edits by file for a client
    without versioned edits."""
    created: list[types.CreateFile | types.TextDocumentEdit] = []
    edited: dict[Path, list[types.TextEdit]] = {}
    removed: list[types.DeleteFile] = []
    known: dict[Path, Lines] = {}
    for fix in fixes:
        for edit in sorted(fix.edits):
            uri = edit.path.as_uri()
            if edit.delete:
                removed.append(types.DeleteFile(uri, options=types.DeleteFileOptions(ignore_if_not_exists=True)))
            elif edit.create:
                empty = types.Range(types.Position(0, 0), types.Position(0, 0))
                created.append(types.CreateFile(uri, options=types.CreateFileOptions(overwrite=False, ignore_if_exists=False)))
                created.append(types.TextDocumentEdit(
                    types.OptionalVersionedTextDocumentIdentifier(uri, None), [types.TextEdit(empty, edit.replacement)]))
            else:
                lines = known.get(edit.path) or known.setdefault(edit.path, lines_of(snapshot, edit.path))
                edited.setdefault(edit.path, []).append(types.TextEdit(
                    types.Range(lines.position(edit.start), lines.position(edit.end)), edit.replacement))
    if not support.document_changes:
        return types.WorkspaceEdit(changes={path.as_uri(): text_edits for path, text_edits in edited.items()})
    changes: list[types.TextDocumentEdit | types.CreateFile | types.RenameFile | types.DeleteFile] = [*created]
    for path, text_edits in edited.items():
        identifier = types.OptionalVersionedTextDocumentIdentifier(path.as_uri(), snapshot.versions.get(path))
        changes.append(types.TextDocumentEdit(identifier, text_edits))
    changes.extend(removed)
    return types.WorkspaceEdit(document_changes=changes)


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and \
        (b.start.line, b.start.character) <= (a.end.line, a.end.character)


def code_actions(snapshot: Snapshot, path: Path, where: types.Range, only: Sequence[str] | None,
                 support: EditSupport = FULL) -> list[types.CodeAction]:
    """A quick fix for each fixable finding of `path` at `where` (safe ones first), and one source
    action applying every safe fix of the file that does not touch another's text. Fixes that
    create or delete files are offered only to clients that can apply them."""
    found = [v for v in snapshot.violations.get(path, []) if v.fix is not None
             and v.fix.applicability is not Applicability.DISPLAY_ONLY
             and (support.files or not _touches_files(v.fix))]
    if not found:
        return []
    lines = lines_of(snapshot, path)
    actions: list[types.CodeAction] = []
    wants_quickfix = not only or any(types.CodeActionKind.QuickFix.value.startswith(k) for k in only)
    wants_fix_all = not only or any(FIX_ALL.value.startswith(k) for k in only)
    if wants_quickfix:
        here = [(v, diagnostic(v, lines)) for v in found]
        here = [(v, d) for v, d in here if _overlaps(d.range, where)]
        here.sort(key=lambda pair: pair[0].fix.applicability is not Applicability.SAFE)  # type: ignore[union-attr]
        for v, diag in here:
            assert v.fix is not None
            actions.append(types.CodeAction(
                title=title(v.fix), kind=types.CodeActionKind.QuickFix, diagnostics=[diag],
                edit=workspace_edit(snapshot, [v.fix], support),
                is_preferred=v.fix.applicability is Applicability.SAFE,
            ))
    if wants_fix_all:
        from memlint.fixes import choose

        safe = choose(found, lambda v: v.fix is not None and v.fix.applicability is Applicability.SAFE)
        if safe:
            actions.append(types.CodeAction(
                title="memlint: apply every safe fix in this file", kind=FIX_ALL,
                edit=workspace_edit(snapshot, safe, support),
            ))
    return actions
