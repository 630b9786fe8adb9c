"""Which files Claude Code loads or may load, and where: read from the loading model, never re-derived.

A file is exposed when a start folder loads it at start (`LoadedContext.files`), loads it later
(`deferred`: a nested CLAUDE.md, a conditional rule), or when it is auto memory (a MEMORY.md index
or a topic file beside it, which Claude reads on recall). Each file appears once, with every start
folder that loads it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memlint.engine import RuleContext
from memlint.model.document import Document
from memlint.rules._paths import show
from memlint.rules.security._text import Lines, line_col


@dataclass(frozen=True)
class Exposed:
    """A file that reaches the model, and how."""

    path: Path
    at_start: tuple[Path, ...]  # start folders that load it at start
    later: tuple[Path, ...]  # start folders that load it when Claude reads a matching file
    memory_index: bool  # a MEMORY.md (auto memory or an agent's memory)
    topic: bool  # an auto-memory topic file, read on recall


def exposed(ctx: RuleContext) -> list[Exposed]:
    """Every file Claude Code loads or may load, sorted by path (worked out once per check run and
    shared by the security rules; forgotten when a fix changes a file)."""
    key = ("security.exposed", id(ctx))
    cached = ctx.workspace.memo.get(key)
    if isinstance(cached, tuple) and cached[0] is ctx:
        result: list[Exposed] = cached[1]
        return result
    result = _exposed(ctx)
    ctx.workspace.memo[key] = (ctx, result)
    return result


def _exposed(ctx: RuleContext) -> list[Exposed]:
    start: dict[str, list[Path]] = {}
    later: dict[str, list[Path]] = {}
    paths: dict[str, Path] = {}
    index: set[str] = set()
    topic: set[str] = set()

    # Start folders share the objects of what their common ancestors load (model.replay), so a
    # file is resolved once per path object: this loop runs once per start folder and loaded file.
    reals: dict[int, str] = {}

    def key(path: Path) -> str:
        real = reals.get(id(path))
        if real is None:
            real = reals[id(path)] = ctx.workspace.realpath(os.path.abspath(path))[0]
            paths.setdefault(real, path)
        return real

    for folder, context in sorted(ctx.loads.items()):
        for loaded in context.files:
            k = reals.get(id(loaded.path)) or key(loaded.path)
            folders = start.get(k)
            if folders is None:
                start[k] = [folder]
            else:
                folders.append(folder)
            if loaded.kind == "automem":
                index.add(k)
        for deferred in context.deferred:
            later.setdefault(key(deferred.path), []).append(folder)
    for item in ctx.files:
        if item.role == "automem-index":
            index.add(key(item.path))
        elif item.role == "topic":
            topic.add(key(item.path))
    out = []
    for k in sorted(set(start) | set(later) | index | topic, key=lambda k: str(paths[k])):
        at_start = tuple(dict.fromkeys(start.get(k, [])))
        out.append(Exposed(paths[k], at_start, tuple(f for f in dict.fromkeys(later.get(k, [])) if f not in at_start),
                           k in index, k in topic and k not in index))
    return out


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


__all__ = ["Exposed", "Lines", "exposed", "line_col", "readable", "sanitised", "where"]
