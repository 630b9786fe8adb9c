"""What a rule sees (`RuleContext`), below the rules, the engine and the configuration: rules import
it from here without importing the engine."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from memlint.model.loading.discovery import MemoryFile, Role
from memlint.model.loading.loader import LoadedContext
from memlint.model.loading.settings import Launch
from memlint.model.loading.vendored import vendored_by
from memlint.model.loading.workspace import Workspace
from memlint.model.release import DEFAULT, Release
from memlint.model.text.document import Document
from memlint.records import dataclass

T = TypeVar("T")


class RunSelection(Protocol):
    """What rules read of the run's selection (`memlint.selection.Selection`: the configuration
    resolved once by the engine; rules never see the configuration itself)."""

    @property
    def selected(self) -> frozenset[str]: ...

    @property
    def session_notes_template(self) -> Path | None: ...

    @property
    def memory_dirs(self) -> tuple[Path, ...]: ...


@dataclass
class RuleContext:
    """What a rule sees: parsed documents, the loading model for every start folder, its options.
    Rules never read files themselves (use `document`), never print and never write."""

    selection: RunSelection
    workspace: Workspace
    roots: tuple[Path, ...]
    files: tuple[MemoryFile, ...]
    loads: dict[Path, LoadedContext]
    home: Path | None
    options: dict[str, Any] = field(default_factory=dict)
    release: Release = DEFAULT  # the Claude Code release modelled, picked once per run
    launch: Launch = field(default_factory=Launch)  # the --settings file and environment modelled
    # MEMORY.md files the user named to `memlint fix` (a path to one or its folder): indexes
    named_indexes: frozenset[Path] = frozenset()
    memo: dict[object, Any] = field(default_factory=dict, repr=False)  # cross-file facts, once per run
    # The facts of the rules the engine has finished (`hand_over`): taken over when asked for again,
    # until the engine lets the rest go (`let_go`).
    earlier: dict[object, Any] = field(default_factory=dict, repr=False)
    kept: frozenset[object] = frozenset()  # keys of facts no hand-over lets go (the engine's choice)
    # The run's files by role (`by_role`): a fact of `files`, which rules of every family ask for.
    roles: dict[Role, list[MemoryFile]] | None = field(default=None, repr=False, compare=False)

    def document(self, path: Path | str) -> Document:
        return self.workspace.document(path)

    def once(self, key: object, compute: Callable[[], T]) -> T:
        """A fact computed once per run and shared by every rule (key it by what it depends on)."""
        memo = self.memo
        if key not in memo:
            earlier = self.earlier
            memo[key] = earlier.pop(key) if earlier and key in earlier else compute()
        value: T = memo[key]
        return value

    def hand_over(self) -> None:
        """Other rules run from now on: the facts so far (but the `kept` ones) are kept only while
        they ask for them (`let_go` drops the others), and the facts handed over before that nobody
        asked for since are let go. A fact asked for after that is computed again, and comes out
        the same: `once` keys a fact by everything it depends on."""
        memo, kept = self.memo, self.kept
        self.earlier = {key: value for key, value in memo.items() if key not in kept}
        self.memo = {key: value for key, value in memo.items() if key in kept} if kept else {}

    def let_go(self) -> None:
        """Drop the facts handed over that no rule has asked for since."""
        self.earlier = {}

    def by_role(self, *roles: Role) -> list[MemoryFile]:
        by_role = self.roles
        if by_role is None:
            by_role = self.roles = self._group_by_role()
        if len(roles) == 1:
            return list(by_role.get(roles[0], ()))
        return [f for f in self.files if f.role in roles]

    def _group_by_role(self) -> dict[Role, list[MemoryFile]]:
        out: dict[Role, list[MemoryFile]] = {}
        for f in self.files:
            out.setdefault(f.role, []).append(f)
        return out

    @property
    def root_loads(self) -> list[LoadedContext]:
        """The loading at each checked root folder (the project root)."""
        return [self.loads[r] for r in self.roots if r in self.loads]


def vendored_start(ctx: RuleContext, start: Path) -> bool:
    """Whether `start` lies in another project's copy inside a checked root (a submodule, a folder
    with its own `.git`, `node_modules`, `vendor/`, `third_party/`): its sessions start in that
    project, not in this one."""
    return any(vendored_by(ctx.workspace, root, start) is not None for root in ctx.roots)
