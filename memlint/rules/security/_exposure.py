"""Which files Claude Code loads or may load, and where: read from the loading model, never re-derived.

A file is exposed when a start folder loads it at start (`LoadedContext.files`), loads it later
(`deferred`: a nested CLAUDE.md, a conditional rule), or when it is auto memory (a MEMORY.md index
or a topic file beside it, which Claude reads on recall). Each file appears once, with every start
folder that loads it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from typing import TypeVar

from memlint.model.loading.loader import Deferred
from memlint.model.loading.shared import Unseen
from memlint.model.run.rule_context import RuleContext
from memlint.model.text.document import Document
from memlint.records import dataclass
from memlint.rules._entries import FileEntry
from memlint.rules._paths import show
from memlint.rules.security._text import Lines, line_col

T = TypeVar("T")


class _Later:
    """Which start folders load each file later: worked out on first need (only a file with a
    finding is described). Each shared segment of deferred files (model.loading.shared) is read once, with
    the start folders that hold it; a file's start folders are gathered when it is asked for."""

    def __init__(self, ctx: RuleContext) -> None:
        self._ctx = ctx
        self._segments: dict[str, list[int]] | None = None  # real path -> ids of the segments holding it
        self._holders: dict[int, list[Path]] = {}  # id of a segment -> the start folders that defer it

    def of(self, real: str) -> list[Path]:
        """The start folders that defer `real`, sorted, each once."""
        if self._segments is None:
            self._segments = {}
            workspace = self._ctx.workspace
            reals: dict[int, str] = {}  # as `_exposed` resolves them (not kept from it: rarely needed)
            for folder, context in self._ctx.loads.items():
                for part in context.deferred.segments:
                    holders = self._holders.get(id(part))
                    if holders is None:
                        holders = self._holders[id(part)] = []
                        for d in part:
                            if id(d.path) not in reals:
                                reals[id(d.path)] = workspace.realpath(workspace.absolute(d.path))[0]
                        for deferred in dict.fromkeys(reals[id(d.path)] for d in part):
                            self._segments.setdefault(deferred, []).append(id(part))
                    holders.append(folder)
        folders = {f for part in self._segments.get(real, ()) for f in self._holders[part]}
        return sorted(folders)


@dataclass(frozen=True, slots=True)
class Exposed:
    """A file that reaches the model, and how."""

    path: Path
    at_start: tuple[Path, ...]  # start folders that load it at start
    memory_index: bool  # a MEMORY.md (auto memory or an agent's memory)
    topic: bool  # an auto-memory topic file, read on recall
    real: str = field(default="", compare=False)
    _later: _Later | None = field(default=None, compare=False, repr=False)

    @property
    def later(self) -> tuple[Path, ...]:
        """Start folders that load it when Claude reads a matching file (and not at start)."""
        found = self._later.of(self.real) if self._later is not None else []
        return tuple(f for f in dict.fromkeys(found) if f not in self.at_start)


def _per_run(ctx: RuleContext, name: str, compute: Callable[[], T]) -> T:
    """`compute()` once per check run, kept in the workspace's memo (which a fix that changes a
    file clears) beside the context it was worked out for."""
    key = (name, id(ctx))
    cached = ctx.workspace.memo.get(key)
    if isinstance(cached, tuple) and cached[0] is ctx:
        found: T = cached[1]
        return found
    result = compute()
    ctx.workspace.memo[key] = (ctx, result)
    return result


def exposed(ctx: RuleContext) -> list[Exposed]:
    """Every file Claude Code loads or may load, sorted by path (worked out once per check run and
    shared by the security rules; forgotten when a fix changes a file)."""
    return _per_run(ctx, "security.exposed", lambda: _exposed(ctx))


def _exposed(ctx: RuleContext) -> list[Exposed]:
    start: dict[str, list[Path]] = {}
    later: set[str] = set()
    paths: dict[str, Path] = {}
    index: set[str] = set()
    topic: set[str] = set()

    # Start folders share the objects of what their common ancestors load or defer (model.loading.replay,
    # model.loading.deferred), so a path object is resolved once, and a segment of deferred files that
    # start folders share is read once: a start folder below many others costs its own files, not
    # the whole subtree's again.
    reals: dict[int, str] = {}
    unseen: Unseen[Deferred] = Unseen()  # each deferred object once, shared segments read once

    def key(path: Path) -> str:
        real = reals.get(id(path))
        if real is None:
            real = reals[id(path)] = ctx.workspace.realpath(ctx.workspace.absolute(path))[0]
            paths.setdefault(real, path)
        return real

    for folder, context in sorted(ctx.loads.items()):
        for loaded in context.files:
            k = key(loaded.path)
            folders = start.get(k)
            if folders is None:
                start[k] = [folder]
            else:
                folders.append(folder)
            if loaded.kind == "automem":
                index.add(k)
        for deferred in unseen.new(context.deferred):
            later.add(key(deferred.path))
    for item in ctx.files:
        if item.role == "automem-index":
            index.add(key(item.path))
        elif item.role == "topic":
            topic.add(key(item.path))
    lazily = _Later(ctx)
    out = []
    for k in sorted(set(start) | later | index | topic, key=lambda k: str(paths[k])):
        out.append(Exposed(paths[k], tuple(dict.fromkeys(start.get(k, []))), k in index, k in topic and k not in index,
                           k, lazily))
    return out


class ExposedFile(FileEntry[Document | None]):
    """An exposed file for the text rules that look at files one at a time: its document (None when
    memlint cannot read its text), looked up once for all of them (`FileEntry`)."""

    __slots__ = ("item",)

    def __init__(self, ctx: RuleContext, item: Exposed) -> None:
        super().__init__(ctx, item.path)
        self.item = item

    def _make(self, ctx: RuleContext) -> Document | None:
        return readable(ctx, self.item)

    def document(self) -> Document | None:
        return self.value()


def exposed_files(ctx: RuleContext) -> list[ExposedFile]:
    """Each exposed file, its document looked up on first need (one list per check run for the six
    text rules; forgotten, like `exposed`, when a fix changes a file)."""
    return _per_run(ctx, "security.files", lambda: [ExposedFile(ctx, item) for item in exposed(ctx)])


def readable(ctx: RuleContext, item: Exposed) -> Document | None:
    doc = ctx.document(item.path)
    return doc if doc.problem is None or doc.problem.reason == "invalid-utf8" else None


def where(ctx: RuleContext, item: Exposed) -> str:
    """`loaded at start in ., app` / `loaded when Claude reads a matching file in .` / `auto memory`."""
    parts = []
    if item.at_start:
        what = "auto memory, loaded" if item.memory_index else "loaded"
        parts.append(f"{what} at start in " + ", ".join(f"`{show(ctx, f)}`" for f in item.at_start))
    if item.later:
        parts.append("loaded once Claude reads a file it covers, in " + ", ".join(f"`{show(ctx, f)}`" for f in item.later))
    if item.memory_index and not item.at_start:
        parts.append("an auto-memory index: loaded at the start of every session that uses this memory folder")
    if item.topic:
        parts.append("auto-memory topic file: Claude reads it when it recalls the topic")
    return "; ".join(parts) if parts else "may be loaded"


def sanitised(ctx: RuleContext, item: Exposed) -> bool:
    """Claude Code cleans this file's text before the model sees it (C08: MEMORY.md only, 2.1.284+)."""
    return item.memory_index and ctx.release.memory_sanitised


__all__ = ["Exposed", "ExposedFile", "Lines", "exposed", "exposed_files", "line_col", "readable", "sanitised", "where"]
