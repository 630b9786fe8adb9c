"""What a MEMORY.md is: Claude Code's auto-memory index, or a file that only shares the name.

Claude Code loads one MEMORY.md as the auto-memory index (cut at 200 lines / 25,000 UTF-16 units):
the one in the project's folder under HOME (`~/.claude/projects/<project>/memory/`) or in the
folder `autoMemoryDirectory` names in a settings file; a subagent's `.claude/agent-memory/<agent>/`
folder works the same way for that agent. A MEMORY.md committed anywhere else in a repository is
only loaded when a CLAUDE.md includes it (then it is an ordinary include, never cut) or when a
setting memlint cannot see points at its folder. memlint treats it as an index only when the
evidence says so: the folder is a configured `memory-dirs` entry, or it is clearly an exported
memory folder (MEMORY.md links, in index form, topic files that carry memory frontmatter, or most of
the files beside it carry that frontmatter). One that memlint would judge kept by hand is an index
all the same when the user names it to `memlint fix` (the file or its folder): kind "named".

Computed once per run (`memory_identities`) and read by every rule that judges an index, so the
3xx rules, the size rules and the split agree on what each MEMORY.md is.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from memlint.lazy_regex import compile_lazily
from memlint.records import dataclass

if TYPE_CHECKING:
    from memlint.model.run.rule_context import RuleContext

IndexKind = Literal["auto-memory", "agent-memory", "configured", "exported", "named", "included", "hand-kept"]
INDEX_KINDS: frozenset[str] = frozenset({"auto-memory", "agent-memory", "configured", "exported", "named"})

# A list item that links a local `.md` file: the index form of spec section 6.
_INDEX_ITEM = compile_lazily(r"^[ \t]{0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+.*?\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*\]\(\s*<?([^)\s>]+\.md)>?[^)]*\)", re.MULTILINE)
_MEMORY_TYPES = frozenset({"user", "feedback", "project", "reference"})


@dataclass(frozen=True)
class MemoryIdentity:
    """One MEMORY.md and what Claude Code makes of it."""

    path: Path
    kind: IndexKind
    evidence: str  # why memlint decided so, in words for a message
    includers: tuple[Path, ...] = ()  # the files that include it (kind "included")

    @property
    def is_index(self) -> bool:
        """Claude Code's auto-memory index (or memlint has clear evidence that it is one)."""
        return self.kind in INDEX_KINDS


def memory_identities(ctx: RuleContext) -> dict[Path, MemoryIdentity]:
    """Every MEMORY.md of the run (role `automem-index`) with its identity, computed once per run
    (kept by the run, so that nothing holds the run's model once it is over)."""
    found: dict[Path, MemoryIdentity] = ctx.once(
        ("memory-identities",), lambda: {f.path: _identify(ctx, f.path) for f in ctx.by_role("automem-index")})
    return found


def identity(ctx: RuleContext, path: Path) -> MemoryIdentity:
    """The identity of one MEMORY.md (one that discovery did not list is judged on its own)."""
    known = memory_identities(ctx).get(path)
    return known if known is not None else _identify(ctx, path)


def is_memory_folder(ctx: RuleContext, folder: Path) -> bool:
    """Files in `folder` are auto-memory topic files: its MEMORY.md is an index, or (no MEMORY.md
    yet) the folder is an auto-memory, agent-memory or configured memory folder."""
    index = folder / "MEMORY.md"
    known = memory_identities(ctx).get(index)
    if known is not None:
        return known.is_index
    return _folder_kind(ctx, folder) is not None


def _real(path: Path) -> str:
    return os.path.realpath(path)


def _automem_dirs(ctx: RuleContext) -> dict[str, str]:
    """The real path of every start folder's auto-memory folder, with how it is described."""
    home = _real(ctx.home) + os.sep if ctx.home is not None else None
    out: dict[str, str] = {}
    for loaded in ctx.loads.values():
        real = ctx.workspace.resolved(loaded.automem_dir)  # start folders often share one: resolved once
        if real not in out:
            out[real] = ("the project's auto-memory folder under HOME" if home is not None and real.startswith(home)
                         else "the folder `autoMemoryDirectory` names")
    return out


def _includers(ctx: RuleContext) -> dict[Path, list[Path]]:
    """Each file that a start folder loads through an include, with the files that include it."""
    out: dict[Path, list[Path]] = {}
    for loaded in ctx.loads.values():
        for file in loaded.files:
            if file.kind != "automem" and file.parent is not None:
                parents = out.setdefault(file.path, [])
                if file.parent not in parents:
                    parents.append(file.parent)
    return out


def _folder_kind(ctx: RuleContext, folder: Path) -> tuple[IndexKind, str] | None:
    real = _real(folder)
    described = ctx.once(("memory-identity.automem-dirs",), lambda: _automem_dirs(ctx)).get(real)
    if described is not None:
        return "auto-memory", described
    if folder.name == "memory" and folder.parent.parent.name == "projects" and folder.parent.parent.parent.name == ".claude":
        # checked directly (`memlint fix ~/.claude/projects/<project>/memory`): the layout is the evidence
        return "auto-memory", "an auto-memory folder (`.claude/projects/<project>/memory/`)"
    if folder.parent.name in ("agent-memory", "agent-memory-local") and folder.parent.parent.name == ".claude":
        return "agent-memory", f"the memory folder of subagent `{folder.name}`"
    if any(_real(d) == real for d in ctx.selection.memory_dirs):
        return "configured", "a `memory-dirs` folder of the memlint configuration"
    return None


def _identify(ctx: RuleContext, path: Path) -> MemoryIdentity:
    folder_kind = _folder_kind(ctx, path.parent)
    if folder_kind is not None:
        return MemoryIdentity(path, folder_kind[0], folder_kind[1])
    includers = ctx.once(("memory-identity.includers",), lambda: _includers(ctx)).get(path, [])
    if includers:
        return MemoryIdentity(path, "included", "included by " + ", ".join(f"`{p.name}`" for p in includers),
                              tuple(includers))
    linked = _linked_memories(ctx, path)
    if linked:
        return MemoryIdentity(path, "exported", f"an exported memory folder: it links topic files with memory "
                                                f"frontmatter ({', '.join(f'`{n}`' for n in linked[:3])})")
    beside = ctx.once(("memory-identity.topics-by-folder",), lambda: _topics_by_folder(ctx)).get(path.parent, [])
    carrying = [p for p in beside if _has_memory_frontmatter(ctx, p)]
    if len(carrying) >= 2 and 2 * len(carrying) >= len(beside):
        return MemoryIdentity(path, "exported", f"an exported memory folder: {len(carrying)} of the {len(beside)} "
                                                "files beside it carry memory frontmatter")
    if path in ctx.named_indexes:
        return MemoryIdentity(path, "named", "named to `memlint fix` on the command line")
    return MemoryIdentity(path, "hand-kept", "a MEMORY.md kept in the repository that nothing includes")


def _linked_memories(ctx: RuleContext, path: Path) -> list[str]:
    """Topic files beside MEMORY.md that it links in index form and that carry memory frontmatter."""
    doc = ctx.document(path)
    if doc.problem is not None:
        return []
    out: dict[str, None] = {}  # in link order, each once
    for match in _INDEX_ITEM.finditer(doc.body):
        target = match.group(1)
        if "/" in target or "://" in target or target in out:
            continue
        if _has_memory_frontmatter(ctx, path.parent / target):
            out[target] = None
    return list(out)


def _topics_by_folder(ctx: RuleContext) -> dict[Path, list[Path]]:
    """The run's topic files (role `topic`) grouped by their folder, in run order."""
    return by_folder([f.path for f in ctx.by_role("topic")])


def by_folder(paths: list[Path]) -> dict[Path, list[Path]]:
    """`paths` grouped by the folders that hold them, in order. A folder's `Path` is made once, for
    its first file (by the text of the path, without a `Path.parent` and a hash per file)."""
    out: dict[Path, list[Path]] = {}
    by_text: dict[str, list[Path]] = {}
    for path in paths:
        text = os.path.dirname(str(path))
        group = by_text.get(text)
        if group is None:
            group = by_text[text] = out.setdefault(path.parent, [])
        group.append(path)
    return out


def _has_memory_frontmatter(ctx: RuleContext, path: Path) -> bool:
    doc = ctx.document(path)
    return doc.problem is None and _memory_frontmatter(doc.frontmatter.data if doc.frontmatter else None)


def _memory_frontmatter(data: object) -> bool:
    """name and description (Claude Code's memory format), or a memory type, in a frontmatter."""
    if not isinstance(data, dict):
        return False
    meta = data.get("metadata")
    kind = data.get("type") if "type" in data else (meta.get("type") if isinstance(meta, dict) else None)
    named = isinstance(data.get("name"), str) and isinstance(data.get("description"), str)
    return named or (isinstance(kind, str) and kind.strip().lower() in _MEMORY_TYPES)
