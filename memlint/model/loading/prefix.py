"""The walk above a start folder, shared whole between start folders (memlint.model.loading.loader).

Claude Code walks from the top folder down to the start folder, each folder's files after its
parent's. A start folder's walk is its parent folder's walk plus its own folder, so 1,000 nested
start folders, each walking every folder above it, replayed half a million folder steps
(memlint.model.loading.replay shares each step, but every start still took each one). Here each folder of a
walk becomes a `Node`: what the folder added to the loading, linked to the node of the walk above
it, so a node stands for the whole walk down to its folder. A later start folder below it takes
the node as it is when every start-dependent answer recorded in the chain (is this path inside the
start folder?) comes out the same for it, and walks on only below it.

Which files the walk already processed is fixed by the chain itself (each node was computed after
exactly the nodes above it), so only the inside-the-start answers are checked. And those need only
half a check: a node recorded for start folder T, taken by a start folder S below T, can only see
a path inside T turn out outside S (inside S means inside T), so only the inside answers are asked
again then.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from memlint.model.loading.loaded import Deferred, LoadedFile, Skipped
from memlint.model.loading.replay import MAX_VARIANTS, Log, Recorder, _within
from memlint.model.loading.workspace import Workspace
from memlint.records import dataclass

_NONE: frozenset[str] = frozenset()
SPAN = 32  # every SPAN-th node keeps its walk's totals: restoring one walks at most SPAN nodes


@dataclass(frozen=True, slots=True)
class Totals:
    """What a walk did from the top down to a node: the keys processed, the files loaded, the
    skipped and deferred files (as the nodes' own shared segments)."""

    processed: frozenset[str]
    files: tuple[LoadedFile, ...]
    skipped: tuple[tuple[Skipped, ...], ...]
    deferred: tuple[tuple[Deferred, ...], ...]


@dataclass(frozen=True, slots=True, eq=False)
class Node:
    """One folder's part of a walk (`folder` None: the managed and user files before the walk),
    valid after exactly the walk of `parent`, for every start folder answering `inside` and
    `outside` as `start` did."""

    parent: Node | None
    folder: Path | None
    own: tuple[LoadedFile, ...]
    added: frozenset[str]
    skipped: tuple[tuple[Skipped, ...], ...]
    deferred: tuple[tuple[Deferred, ...], ...]
    start: str  # the start folder the answers were recorded for
    inside: tuple[str, ...]  # paths found inside `start`
    outside: tuple[str, ...]  # paths found outside it
    above: Node | None  # the nearest node above this one with any answer
    family: Path | None  # the first CLAUDE.md family file (`_family`) loaded in this folder or above
    depth: int
    totals: Totals | None  # kept at every SPAN-th depth


def _kept(node: Node | None) -> tuple[Totals | None, list[Node]]:
    """The nearest `Totals` kept at or above `node`, and the nodes below it down to `node`, top first."""
    tail: list[Node] = []
    while node is not None and node.totals is None:
        tail.append(node)
        node = node.parent
    tail.reverse()
    return (None if node is None else node.totals), tail


def walk_files(node: Node | None) -> list[LoadedFile]:
    """The files the walk down to `node` loads, in order (`accumulate`'s files, without the rest)."""
    return _files(*_kept(node))


def _files(kept: Totals | None, tail: list[Node]) -> list[LoadedFile]:
    files = [] if kept is None else list(kept.files)
    for part in tail:
        files += part.own
    return files


def accumulate(node: Node | None) -> tuple[set[str], list[LoadedFile], list[tuple[Skipped, ...]],
                                           list[tuple[Deferred, ...]]]:
    """The `Totals` of the walk down to `node`, from the nearest node above that keeps them."""
    kept, tail = _kept(node)
    processed: set[str] = set() if kept is None else set(kept.processed)
    skipped: list[tuple[Skipped, ...]] = [] if kept is None else list(kept.skipped)
    deferred: list[tuple[Deferred, ...]] = [] if kept is None else list(kept.deferred)
    for part in tail:
        processed |= part.added
        skipped += part.skipped
        deferred += part.deferred
    return processed, _files(kept, tail), skipped, deferred


def chain(node: Node | None) -> list[Node]:
    """The nodes of the walk down to `node`, top first."""
    out: list[Node] = []
    while node is not None:
        out.append(node)
        node = node.parent
    out.reverse()
    return out


def valid_part(node: Node, loader: Recorder) -> Node | None:
    """The deepest node of `node`'s chain whose walk the loader's start folder would make alike
    (`node` itself when all of it; None when not even the first node)."""
    start = str(loader.start)
    within = loader.within_known
    bad: Node | None = None
    asking = node if node.inside or node.outside else node.above
    while asking is not None:
        below = _within(start, asking.start)  # the start folder lies inside the recorded one
        if not all(within(p) for p in asking.inside) or (
                not below and any(within(p) for p in asking.outside)):
            bad = asking
        asking = asking.above
    return node if bad is None else bad.parent


def _pick(variants: list[Node], loader: Recorder) -> Node | None:
    """The first variant valid whole, else the deepest valid part of any."""
    best: Node | None = None
    for variant in variants:
        part = valid_part(variant, loader)
        if part is variant:
            return part
        if part is not None and (best is None or part.depth > best.depth):
            best = part
    return best


class Walk:
    """The walk of one loading, from the nodes earlier start folders left (`key`: what else the
    walk depends on, the same for all start folders sharing it)."""

    def __init__(self, loader: Recorder, key: tuple[object, ...], above: set[str] | None,
                 skipped_roots: frozenset[str]) -> None:
        self.loader = loader
        self.key = key
        self.above = above
        self.skipped_roots = skipped_roots
        self.memo = loader.workspace.memo

    def _variants(self, folder: str) -> list[Node]:
        found = self.memo.get(("walk-node", self.key, folder))
        return found if isinstance(found, list) else []

    def _keep(self, folder: str, node: Node) -> None:
        """Keep `node` for later start folders when one lies below `folder` (the top node: always)."""
        if folder and self.above is not None and folder not in self.above:
            return
        variants = self.memo.setdefault(("walk-node", self.key, folder), [])
        assert isinstance(variants, list)
        if len(variants) < MAX_VARIANTS:
            variants.append(node)

    def last(self, start: Path, before: Callable[[], list[LoadedFile]],
             folder: Callable[[Path], list[LoadedFile]]) -> Node:
        """The walk's last node (its chain, top first: `before()` the managed and user files, then
        `folder(f)` for each folder from the top down to `start`); taken from earlier start folders
        where their answers hold, restoring the loader's state as if they had run."""
        workspace = self.loader.workspace
        below: list[Path] = []  # folders between the nearest kept node and the start, bottom first
        base: Node | None = None
        current = start
        while True:  # up to the nearest folder with a node valid here, at least in part
            variants = self._variants(str(current))
            base = _pick(variants, self.loader) if variants else None
            if base is not None:
                break
            parent = _parent(workspace, current)
            if parent == current:  # `/` is not visited
                break
            below.append(current)
            current = parent
        if base is None:
            variants = self._variants("")
            base = _pick(variants, self.loader) if variants else None
        if base is None:
            base = self._record(None, None, before)
            self._keep("", base)
        else:
            self._restore(base)
        if base.folder != current and (base.folder is not None or current != _parent(workspace, current)):
            below = self._between(start, base.folder)  # only part of the nearest node's walk holds
        for here in reversed(below):
            if str(here) in self.skipped_roots:
                continue
            base = self._record(base, here, lambda: folder(here))  # noqa: B023 - called at once
            self._keep(str(here), base)
        return base

    def _between(self, start: Path, top: Path | None) -> list[Path]:
        """The folders from `start` up to, not including, `top` (None: up to, not including, `/`)."""
        out: list[Path] = []
        current = start
        while current != top:
            parent = _parent(self.loader.workspace, current)
            if parent == current:
                break
            out.append(current)
            current = parent
        return out

    def _restore(self, node: Node) -> None:
        """The loader's state after the walk down to `node`, as if it had run (the kept totals are
        added to it as they are: no copy of a large walk's keys per start folder)."""
        loader = self.loader
        kept, tail = _kept(node)

        def take(processed: frozenset[str], skipped: tuple[tuple[Skipped, ...], ...],
                 deferred: tuple[tuple[Deferred, ...], ...]) -> None:
            loader.processed |= processed
            for segment in skipped:
                loader.skipped.share(segment)
            for part in deferred:
                loader.deferred.share(part)

        if kept is not None:
            take(kept.processed, kept.skipped, kept.deferred)
        for node_below in tail:
            take(node_below.added, node_below.skipped, node_below.deferred)

    def _record(self, parent: Node | None, folder: Path | None, run: Callable[[], list[LoadedFile]]) -> Node:
        loader = self.loader
        log = loader.log = Log()
        try:
            own = tuple(run())
        finally:
            loader.log = None
        inside = tuple(p for p, answer in log.within.items() if answer)
        outside = tuple(p for p, answer in log.within.items() if not answer)
        above = None if parent is None else parent if parent.inside or parent.outside else parent.above
        family = parent.family if parent is not None else None
        if family is None and folder is not None:
            family = next((f.path for f in own if _family(f)), None)
        added = frozenset(log.added) if log.added else _NONE
        skipped, deferred = log.skipped.build().segments, log.deferred.build().segments
        depth = 0 if parent is None else parent.depth + 1
        totals = None
        if depth % SPAN == 0:
            processed, files, all_skipped, all_deferred = accumulate(parent)
            totals = Totals(frozenset(processed | added), (*files, *own), (*all_skipped, *skipped),
                            (*all_deferred, *deferred))
        return Node(parent, folder, own, added, skipped, deferred, str(loader.start), inside, outside, above,
                    family, depth, totals)


def _family(f: LoadedFile) -> bool:
    """A CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md loaded as a folder's own file (not an include)."""
    return f.depth == 0 and f.kind in ("project", "local") and f.path.name in ("CLAUDE.md", "CLAUDE.local.md")


def _parent(workspace: Workspace, folder: Path) -> Path:
    """`folder.parent`, made once per run (the memo `walkpaths.ancestors` shares)."""
    parents = workspace.memo.setdefault(("parent-paths",), {})
    assert isinstance(parents, dict)
    key = str(folder)
    parent = parents.get(key)
    if parent is None:
        parent = parents[key] = folder.parent
    assert isinstance(parent, Path)
    return parent
