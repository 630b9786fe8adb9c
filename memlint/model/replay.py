"""One folder's contribution to a loading, computed once and shared by every start folder below it.

What Claude Code loads from an ancestor folder is the same for every start folder below it except
for the decisions that look at the start: whether a path lies inside the start folder (external
includes, C12 symlinks) and which files earlier steps of the same walk already loaded (the
`processed` set). A `Tape` records those decisions while a step runs, with everything the step
produced; a later start folder replays the step when every recorded decision comes out the same for
it, and runs it afresh (recording a new variant) otherwise. Replays share the recorded objects, so
memory grows with the files, not with start folders times files.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from memlint.model.loaded import Deferred, LoadedFile, Skipped


@dataclass
class Tape:
    """What one step read from the start-dependent state, and what it produced."""

    absent: set[str] = field(default_factory=set)  # `processed` keys found missing
    present: set[str] = field(default_factory=set)  # `processed` keys found there
    within: dict[str, bool] = field(default_factory=dict)  # path -> inside the start folder?
    added: set[str] = field(default_factory=set)  # `processed` keys the step added
    skipped: list[tuple[Skipped, bool]] = field(default_factory=list)  # (skip, detail ends "outside <start>")
    deferred: list[Deferred] = field(default_factory=list)

    def seen(self, key: str, result: bool) -> None:
        if key not in self.added:  # a key the step added itself answers the same way every time
            (self.present if result else self.absent).add(key)


@dataclass(frozen=True)
class Variant:
    """A step's recorded outcome, valid for every start folder that answers its questions the same way."""

    absent: frozenset[str]
    present: frozenset[str]
    within: tuple[tuple[str, bool], ...]
    added: frozenset[str]
    skipped: tuple[tuple[Skipped, bool], ...]
    deferred: tuple[Deferred, ...]
    files: tuple[LoadedFile, ...]

    @classmethod
    def of(cls, tape: Tape, files: list[LoadedFile]) -> Variant:
        return cls(frozenset(tape.absent), frozenset(tape.present), tuple(tape.within.items()),
                   frozenset(tape.added), tuple(tape.skipped), tuple(tape.deferred), tuple(files))

    def fits(self, processed: set[str], inside: dict[str, bool], within: Callable[[str], bool]) -> bool:
        """Whether this start folder, with `processed` loaded so far, answers every question alike."""
        if not processed.isdisjoint(self.absent) or not self.present <= processed:
            return False
        for path, expected in self.within:
            known = inside.get(path)
            if known is None:
                known = inside[path] = within(path)
            if known != expected:
                return False
        return True
