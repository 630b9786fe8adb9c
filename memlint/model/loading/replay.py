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
from dataclasses import field
from pathlib import Path

from memlint.model.loading.chain import Parts
from memlint.model.loading.loaded import Deferred, Kind, LoadedFile, Origin, Skipped
from memlint.model.loading.settings import Settings
from memlint.model.loading.workspace import Workspace
from memlint.model.release import DEFAULT, Release
from memlint.records import dataclass

# Variants kept per step. An ancestor whose includes point into many start folders answers
# differently for each; past this many, the step runs afresh for each start (as without sharing)
# rather than scan an ever longer list of variants that never fit.
MAX_VARIANTS = 8


@dataclass
class Tape:
    """What one step read from the start-dependent state, and what it produced."""

    absent: set[str] = field(default_factory=set)  # `processed` keys found missing
    present: set[str] = field(default_factory=set)  # `processed` keys found there
    within: dict[str, bool] = field(default_factory=dict)  # path -> inside the start folder?
    added: set[str] = field(default_factory=set)  # `processed` keys the step added
    skipped: list[Skipped] = field(default_factory=list)
    deferred: list[Deferred] = field(default_factory=list)

    def seen(self, key: str, result: bool) -> None:
        if key not in self.added:  # a key the step added itself answers the same way every time
            (self.present if result else self.absent).add(key)


@dataclass(frozen=True, slots=True)
class Variant:
    """A step's recorded outcome, valid for every start folder that answers its questions the same way."""

    absent: frozenset[str]
    present: frozenset[str]
    within: tuple[tuple[str, bool], ...]
    added: frozenset[str]
    skipped: tuple[Skipped, ...]
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


def _within(path: str, folder: str) -> bool:
    """Claude Code's path containment test (case-folded)."""
    p, f = path.lower(), folder.lower().rstrip("/") or "/"
    return p == f or p.startswith(f + "/") or f == "/"


def _within_folder(folder: str) -> Callable[[str], bool]:
    """`lambda path: _within(path, folder)` with the folder's side folded once: every start folder
    asks it of each recorded include of its ancestors (tens of thousands of calls in a large tree)."""
    f = folder.lower().rstrip("/") or "/"
    if f == "/":
        return lambda path: True
    prefix = f + "/"

    def within(path: str) -> bool:
        p = path.lower()
        return p == f or p.startswith(prefix)

    return within


@dataclass
class Log:
    """Everything one folder of the walk did to the loading's state (memlint.model.loading.prefix): the
    keys it marked processed, what it skipped and deferred, and each start-dependent answer."""

    added: set[str] = field(default_factory=set)
    skipped: Parts[Skipped] = field(default_factory=Parts)
    deferred: Parts[Deferred] = field(default_factory=Parts)
    within: dict[str, bool] = field(default_factory=dict)


class Recorder:
    """The start-dependent state of one loading, and the steps it shares with other start folders."""

    def __init__(
        self, start: Path, home: Path, workspace: Workspace, settings: Settings, release: Release = DEFAULT
    ) -> None:
        self.start = start
        self.home = home
        self.workspace = workspace
        self.settings = settings
        self.excludes = settings.excludes
        self.release = release
        self.processed: set[str] = set()
        self.skipped: Parts[Skipped] = Parts()
        self.deferred: Parts[Deferred] = Parts()
        self.tape: Tape | None = None  # the step being recorded (see `step`)
        self.log: Log | None = None  # the walk's folder being recorded (memlint.model.loading.prefix)
        # what a step's outcome depends on besides the step itself, as one small tag per run (the
        # Release and the settings would be hashed again at every step of every start folder)
        shared = (str(home), self.excludes, settings.deny, release, settings.sources)
        tags = workspace.memo.setdefault(("step-tags",), {})
        assert isinstance(tags, dict)
        self.step_tag: int = tags.setdefault(shared, len(tags))
        self.inside: dict[str, bool] = {}  # path -> within the start folder, for this start
        self._within_start: Callable[[str], bool] = _within_folder(str(start))

    def skip(self, path: str, reason: str, kind: Kind, origin: Origin | None, detail: str = "") -> None:
        self._skip(Skipped(Path(path), reason, kind, origin, detail))

    def skip_external(self, path: str, kind: Kind, origin: Origin | None, detail: str = "") -> None:
        """An external skip: its explanation ends with the start folder (`LoadedContext.detail`)."""
        self._skip(Skipped(Path(path), "external", kind, origin, detail, names_start=True))

    def _skip(self, skipped: Skipped) -> None:
        self.skipped.append(skipped)
        if self.tape is not None:
            self.tape.skipped.append(skipped)
        if self.log is not None:
            self.log.skipped.append(skipped)

    def defer(self, deferred: Deferred) -> None:
        self.deferred.append(deferred)
        if self.tape is not None:
            self.tape.deferred.append(deferred)
        if self.log is not None:
            self.log.deferred.append(deferred)

    def seen(self, key: str) -> bool:
        """Whether an earlier file of this loading was `key` (recorded: it depends on the walk so far)."""
        result = key in self.processed
        if self.tape is not None:
            self.tape.seen(key, result)
        return result

    def mark(self, key: str) -> None:
        self.processed.add(key)
        if self.tape is not None:
            self.tape.added.add(key)
        if self.log is not None:
            self.log.added.add(key)

    def within_start(self, path: str) -> bool:
        """Whether `path` lies inside the start folder (recorded: the one question about the start)."""
        result = self.inside.get(path)
        if result is None:
            result = self.inside[path] = self._within_start(path)
        if self.tape is not None:
            self.tape.within[path] = result
        if self.log is not None:
            self.log.within[path] = result
        return result

    def within_known(self, path: str) -> bool:
        """`within_start` without recording the answer (checking a shared walk's answers)."""
        result = self.inside.get(path)
        if result is None:
            result = self.inside[path] = self._within_start(path)
        return result

    def step(self, name: tuple[str, ...], external_ok: bool, run: Callable[[], list[LoadedFile]],
             shared: bool = True) -> list[LoadedFile]:
        """`run()`, or the replay of an earlier start folder's run whose every start-dependent
        decision comes out the same here (memlint.model.loading.replay). A step no other start folder
        takes (`shared` False: a folder with no start folder below it) is run without recording."""
        if self.tape is not None or not shared:  # steps do not nest; an inner one simply runs
            return run()
        key = ("step", name, external_ok, self.step_tag)
        variants = self.workspace.memo.get(key)
        if variants is None:
            variants = self.workspace.memo[key] = []
        assert isinstance(variants, list)
        for variant in variants:
            if variant.fits(self.processed, self.inside, self._within_start):
                self.processed |= variant.added
                self.skipped.share(variant.skipped)
                self.deferred.share(variant.deferred)
                if self.log is not None:  # the replay's answers and effects belong to the folder too
                    self.log.added |= variant.added
                    self.log.skipped.share(variant.skipped)
                    self.log.deferred.share(variant.deferred)
                    self.log.within.update(variant.within)
                return list(variant.files)
        if len(variants) >= MAX_VARIANTS:  # answers differ for nearly every start: just run it
            return run()
        self.tape = Tape()
        try:
            files = run()
            variants.append(Variant.of(self.tape, files))
        finally:
            self.tape = None
        return files
