"""An open file's `@include`s as the model sees them: where each points, and what every start
folder of the run made of it (loaded, or skipped and why). Document links and include hovers."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from lsprotocol import types

from memlint.engine import NO_HOME, RuleContext
from memlint.lsp.positions import Lines
from memlint.model.loading.facts import include_target
from memlint.model.loading.loaded import LoadedFile, Skipped
from memlint.model.text.markdown import IncludeRef
from memlint.records import dataclass


@dataclass(frozen=True)
class Outcome:
    """What one start folder made of an include."""

    start: Path
    loaded: LoadedFile | None = None
    skipped: Skipped | None = None
    why: str = ""  # the skip's whole explanation, as said from this start folder


def refs(ctx: RuleContext, path: Path) -> tuple[IncludeRef, ...]:
    """The includes Claude Code accepts in `path`, in file order."""
    doc = ctx.workspace.document(path)
    if not doc.readable:
        return ()
    return doc.scan().includes


def ref_range(lines: Lines, ref: IncludeRef) -> types.Range:
    """From the `@` to the end of what follows it."""
    written = len(ref.written) + 1
    return types.Range(lines.at(ref.line, ref.column), lines.at(ref.line, ref.column + written))


def ref_at(ctx: RuleContext, path: Path, lines: Lines, position: types.Position) -> IncludeRef | None:
    column = lines.column(position)
    for ref in refs(ctx, path):
        if ref.line == position.line + 1 and ref.column <= column <= ref.column + len(ref.written) + 1:
            return ref
    return None


def target(ctx: RuleContext, path: Path, ref: IncludeRef) -> Path:
    """Where the include points: `~` is HOME, a relative path starts at the file's real folder."""
    base = os.path.dirname(ctx.workspace.resolved(path))
    return Path(include_target(ref.path, base, ctx.home or NO_HOME))


def _same(a: Path, b: Path, real: str) -> bool:
    return a == b or os.path.realpath(a) == real


def outcomes(ctx: RuleContext, path: Path, ref: IncludeRef) -> Iterator[Outcome]:
    """Each start folder that reaches this include (loads the file that holds it), and whether
    the include's target loaded there; start folders that never read `path` say nothing."""
    real = os.path.realpath(path)
    for start, loaded in ctx.loads.items():
        found: Outcome | None = None
        for f in loaded.files:
            o = f.origin
            if o is not None and o.line == ref.line and o.ref.column == ref.column and _same(o.path, path, real):
                found = Outcome(start, loaded=f)
                break
        if found is None:
            for s in loaded.skipped:
                o = s.origin
                if o is not None and o.line == ref.line and o.ref.column == ref.column and _same(o.path, path, real):
                    found = Outcome(start, skipped=s, why=loaded.detail(s))
                    break
        if found is not None:
            yield found


def links(ctx: RuleContext, path: Path, lines: Lines) -> list[types.DocumentLink]:
    """A link from each include to the file it names (when that file exists)."""
    out = []
    for ref in refs(ctx, path):
        where = target(ctx, path, ref)
        if where.is_file():
            out.append(types.DocumentLink(ref_range(lines, ref), target=where.as_uri(), tooltip=str(where)))
    return out
