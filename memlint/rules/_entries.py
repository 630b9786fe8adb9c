"""What a rule that looks at files one at a time gets for a file: what it needs of the file,
worked out when the first such rule asks and kept for the others."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from memlint.model.run.rule_context import RuleContext

T = TypeVar("T")


class FileEntry(Generic[T]):
    """One file, its `value` made at the first rule's need: in the file's window
    (engine._run_per_file), not for every file before the windows start, which read each file
    twice on a tree whose texts do not all fit the run's budget (model.source.residency)."""

    __slots__ = ("_ctx", "_value", "path")

    def __init__(self, ctx: RuleContext, path: Path) -> None:
        self.path = path
        self._ctx: RuleContext | None = ctx

    def _make(self, ctx: RuleContext) -> T:
        raise NotImplementedError

    def value(self) -> T:
        if self._ctx is not None:
            self._value: T = self._make(self._ctx)
            self._ctx = None
        return self._value
