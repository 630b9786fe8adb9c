"""What the 3xx rules share: the memory folders of a run, how Claude Code loads each MEMORY.md,
which file lines it keeps, and the split fix."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.jstext import js_trim, js_trim_start
from memlint.model.memory.automem import Truncation, cut_index, truncate_index
from memlint.model.run.memory_identity import by_folder, identity
from memlint.model.run.rule_context import RuleContext
from memlint.model.source.pathorder import path_order
from memlint.model.text.document import Document
from memlint.records import dataclass
from memlint.rules.automem._index import Entry, Index, parse_index
from memlint.violations import Applicability, Edit, Fix

if TYPE_CHECKING:
    from memlint.rules.automem._split_floor import Floor
    from memlint.rules.automem.split import SplitPlan

NOT_TOPICS = frozenset({"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md"})


@dataclass(frozen=True)
class MemoryIndex:
    """An auto-memory MEMORY.md of the run: its document, its index and Claude Code's cut of it."""

    path: Path
    doc: Document
    index: Index
    truncation: Truncation


def exists(ctx: RuleContext, path: Path | str) -> bool:
    """Whether the file is there (or a fix created it in memory): anything but "not found"."""
    folder, name = os.path.split(path if isinstance(path, str) else str(path))
    return folder_names(ctx, folder).exists(ctx, folder, name)


def folder_names(ctx: RuleContext, folder: str) -> FolderNames:
    """What `exists` knows about one folder, once per run (to ask name by name without a path each)."""
    return ctx.once(("folder-names", folder), lambda: FolderNames.of(ctx, folder))


def _read_exists(ctx: RuleContext, path: Path | str) -> bool:
    doc = ctx.document(path)  # the workspace takes a string as it is (no Path made per name)
    return doc.problem is None or doc.problem.reason != "not-found"


_PLAIN_NAME = compile_lazily(r"[A-Za-z0-9_+-][A-Za-z0-9._+-]{0,254}")


@dataclass
class FolderNames:
    """A folder's listing, to answer "not there" for a missing name without a stat and a
    `Document` each (a MEMORY.md can link 100,000 missing files). Only a plain ASCII name, unlisted
    in any letter case, inside an absolute folder that was listed, and not created by a fix, is
    answered from here, and only after one such name was read and was not found (so the folder can
    be searched); every other name is read."""

    folded: frozenset[str] | None  # the listed names, lower case; None: not listed
    created: frozenset[str]  # names of files a fix created in memory (not on disk)
    searchable: bool = False

    @classmethod
    def of(cls, ctx: RuleContext, folder: str) -> FolderNames:
        listing = ctx.workspace.listing(folder) if os.name == "posix" and os.path.abspath(folder) == folder else None
        # a name already in lower case is kept as the listing's string, not a copy
        folded = None if listing is None else frozenset(
            name if (low := name.lower()) == name else low for name, _, _ in listing)
        return cls(folded, frozenset(p.name for p in ctx.workspace.created if str(p.parent) == folder))

    def exists(self, ctx: RuleContext, folder: str, name: str) -> bool:
        """`exists(ctx, os.path.join(folder, name))` for a `name` without a slash."""
        if (self.folded is not None and _PLAIN_NAME.fullmatch(name) and name.lower() not in self.folded
                and name not in self.created):
            if self.searchable:
                return False
            found = _read_exists(ctx, os.path.join(folder, name))
            self.searchable = not found  # this name was not found: every other unlisted one is not
            return found
        return _read_exists(ctx, os.path.join(folder, name))


def _loaded_truncations(ctx: RuleContext) -> dict[Path, Truncation]:
    out: dict[Path, Truncation] = {}
    for loaded in ctx.loads.values():
        for file in loaded.files:
            if file.kind == "automem" and file.truncation is not None:
                out.setdefault(file.path, file.truncation)
    return out


def truncation_of(ctx: RuleContext, path: Path, doc: Document) -> Truncation:
    """The loader's truncation when Claude Code loads this MEMORY.md, else the same cut computed."""
    found = ctx.once(("loaded-truncations",), lambda: _loaded_truncations(ctx)).get(path)
    return found if found is not None else truncate_index(doc.loaded, ctx.release)


def indexes(ctx: RuleContext, intro_lines: int = 3) -> Iterator[MemoryIndex]:
    """Every readable MEMORY.md of the run, whatever it is (see `auto_memory_indexes`), parsed once
    per run and shared by the 3xx rules."""
    return iter(ctx.once(("memory-indexes", intro_lines), lambda: list(_indexes(ctx, intro_lines))))


def _indexes(ctx: RuleContext, intro_lines: int) -> Iterator[MemoryIndex]:
    for file in ctx.by_role("automem-index"):
        doc = ctx.document(file.path)
        if doc.problem is not None:
            continue
        yield MemoryIndex(file.path, doc, parse_index(doc, intro_lines), truncation_of(ctx, file.path, doc))


def auto_memory_indexes(ctx: RuleContext, intro_lines: int = 3) -> Iterator[MemoryIndex]:
    """The MEMORY.md files that are Claude Code's auto-memory index (`model.memory_identity`): a
    MEMORY.md that only shares the name is not cut at 200 lines and is no index of topic files."""
    for mem in indexes(ctx, intro_lines):
        if identity(ctx, mem.path).is_index:
            yield mem


def loaded_every_session(ctx: RuleContext, path: Path) -> str:
    """How a message says that MEMORY.md is loaded at every start, worded for what it is: an
    exported memory folder is Claude Code's index only where it is the auto-memory folder."""
    found = identity(ctx, path)
    if found.kind == "exported":
        return "this looks like an exported memory folder: wherever it is Claude Code's auto memory, MEMORY.md " \
               "is loaded into every session"
    if found.kind == "named":
        return "you named it as an auto-memory index, and as one MEMORY.md is loaded into every session"
    return "Claude Code loads MEMORY.md into every session"


def index_of_text(path: Path, text: str) -> MemoryIndex:
    """A MEMORY.md that is not on disk (a fix's result): parsed and cut without the caches, which
    would keep every such text for the run."""
    doc = Document.from_text(path, text)
    return MemoryIndex(path, doc, parse_index(doc, cached=False), cut_index(doc.loaded))


def topics(ctx: RuleContext, folder: Path | None = None) -> list[Path]:
    """Topic files (of one folder, or all in discovery order), listed once per run."""
    grouped = ctx.once(("topics-by-folder",), lambda: _topics_by_folder(ctx))
    return list(grouped.get(folder, ()))


def _topics_by_folder(ctx: RuleContext) -> dict[Path | None, list[Path]]:
    every = [f.path for f in ctx.by_role("topic") if f.path.name not in NOT_TOPICS]
    out: dict[Path | None, list[Path]] = {None: every}
    for folder, paths in by_folder(every).items():
        out[folder] = paths
    return out


def files_by_folder(ctx: RuleContext) -> dict[Path, list[Path]]:
    """The run's files grouped by the folder that holds them (in run order), once per run."""
    return ctx.once(("files-by-folder",), lambda: by_folder([f.path for f in ctx.files]))


def loaded_line_numbers(doc: Document) -> list[int]:
    """The file line of every line of the text Claude Code loads (trimmed, comments removed)."""
    loaded = doc.loaded
    trimmed = js_trim(loaded)
    t_lines = trimmed.split("\n")
    lead = loaded[: len(loaded) - len(js_trim_start(loaded))].count("\n")
    first = doc.body_line_offset + 1 + lead
    if not doc.scan().comments_stripped:
        return [first + i for i in range(len(t_lines))]
    file_lines = doc.text.split("\n")
    out: list[int] = []
    cursor = first - 1
    for line in t_lines:
        found = next((j for j in range(cursor, len(file_lines)) if file_lines[j] == line), None)
        if found is not None:
            cursor = found
        out.append(cursor + 1)
        cursor = min(cursor + (1 if found is not None else 0), len(file_lines) - 1)
    return out


def cut_entries(mem: MemoryIndex) -> tuple[int, list[Entry]]:
    """The last file line Claude Code loads, and the entries after it."""
    numbers = loaded_line_numbers(mem.doc)
    kept = mem.truncation.kept_lines
    last = numbers[kept - 1] if 0 < kept <= len(numbers) else 0
    return last, [e for e in mem.index.entries if e.number > last]


def titles(entries: list[Entry], limit: int = 5) -> str:
    shown = ", ".join(f"'{e.title}'" for e in entries[:limit])
    return shown + (f", \u2026 ({len(entries)} in all)" if len(entries) > limit else "")


def split_fix(ctx: RuleContext, mem: MemoryIndex) -> tuple[Fix | None, SplitPlan | None]:
    """The split of MEMORY.md into topic files, when the index is over the write-guard target and
    the split is verified lossless and makes it load whole. Planned once per run for a given index
    and folder state (ML301, ML302, ML304 and ML308 ask)."""
    plan = planned_split(ctx, mem)
    if plan is None or plan.floor is not None:
        return None, None
    return _fix_of(mem, plan), plan


def split_floor(ctx: RuleContext, mem: MemoryIndex) -> Floor | None:
    """Why no split makes this MEMORY.md load whole (None when one does, or none is needed)."""
    plan = planned_split(ctx, mem)
    return plan.floor if plan is not None else None


def planned_split(ctx: RuleContext, mem: MemoryIndex) -> SplitPlan | None:
    options = (str(ctx.options.get("default-type", "project")), int(ctx.options.get("intro-lines", 3)))
    folder = mem.path.parent

    def folder_state() -> tuple[tuple[str, Document], ...]:
        # Each file beside the index by its document object: the workspace replaces a document
        # whenever a fix changes the file, and a Document compares by identity, so an unchanged
        # folder gives an equal state without re-encoding every file to measure it.
        beside = sorted({p for p in files_by_folder(ctx).get(folder, ()) if p != mem.path}, key=path_order)
        return tuple((p.name, ctx.document(p)) for p in beside)

    state = ctx.once(("split-folder-state", mem.path), folder_state)
    key = ("split", mem.path, mem.doc.text, options, state)
    return ctx.once(key, lambda: _plan(ctx, mem, *options))


def _plan(ctx: RuleContext, mem: MemoryIndex, default_type: str, intro_lines: int) -> SplitPlan | None:
    # Imported here: the split machinery is needed only for an index over the write-guard target.
    from memlint.rules.automem.split import SplitError, plan_split

    folder = mem.path.parent

    def existing(path: Path) -> str | None:
        doc = ctx.document(path)
        if doc.problem is not None and doc.problem.reason == "not-found":
            return None
        return doc.text if doc.problem is None else "\0"

    taken = [p.name for p in topics(ctx, folder)] + [p.name for p in files_by_folder(ctx).get(folder, ())]
    # and every other name in the folder: a new topic file must not differ from one only by case
    # (`deploy.md` beside `deploy.MD`), or the writer refuses it and the split is never applied
    known = set(taken)
    taken += sorted(name for name, _, _ in ctx.workspace.listing(str(folder)) or () if name not in known)
    try:
        return plan_split(mem.doc.text, folder, existing, taken, default_type, intro_lines)
    except SplitError:
        return None


def _fix_of(mem: MemoryIndex, plan: SplitPlan) -> Fix:
    edits = [Edit(mem.path, s, e, new) for s, e, new in plan.replacements]
    edits += [Edit(t.path, 0, 0, t.text, create=True) for t in plan.topics if not t.reused]
    moved = len(plan.topics)
    title = f"split-memory-index: move {moved} block{'s' if moved != 1 else ''} of MEMORY.md into topic files"
    # Unsafe (Claude then reads the moved detail on demand, not at start), but verified before it is
    # offered (`split.verify`): `memlint fix` applies it without --unsafe-fixes.
    return Fix(title, Applicability.UNSAFE, tuple(edits), verified=True, explanation=plan.explanation())
