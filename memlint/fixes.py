"""Applying fixes: sorted text edits, overlaps retried on the next pass, a loop that stops on a
repeated state and reverts when it does not converge, and atomic all-or-nothing writes."""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import field, replace
from pathlib import Path

from memlint.errors import FixError  # defined there so a check run need not import this module
from memlint.model.loading.workspace import Workspace
from memlint.records import dataclass
from memlint.safe_io import (
    Interrupted,
    current_umask,
    fsync_folder,
    name_problem,
    remove_stale_temps,
    signals_interrupt,
    within,
    write_temp,
)
from memlint.violations import Applicability, Edit, Fix, Violation

MAX_PASSES = 10


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits of one file to its text. An insertion at the very start of a
    file that begins with a BOM goes after the BOM: nothing is ever written in front of it."""
    if text.startswith("\ufeff"):
        edits = [replace(e, start=1, end=1) if e.start == e.end == 0 else e for e in edits]
    out, cursor = [], 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        if edit.start < cursor:
            raise FixError(f"overlapping edits in {edit.path}")
        out.append(text[cursor : edit.start])
        out.append(edit.replacement)
        cursor = edit.end
    out.append(text[cursor:])
    return "".join(out)


def wanted(fix: Fix, unsafe: bool, verified: bool = False, named: bool = False) -> bool:
    """Whether a run applies `fix`: a safe fix always; an unsafe one with `unsafe` (--unsafe-fixes),
    when the user named it (`named`: --only-fix), or when it verified itself and the run takes
    such fixes (`verified`: what `memlint fix` does); a display-only fix never."""
    if fix.applicability is Applicability.SAFE:
        return True
    if fix.applicability is Applicability.UNSAFE:
        return unsafe or named or (verified and fix.verified)
    return False


def _overlaps(a: Edit, b: Edit) -> bool:
    if a.path != b.path:
        return False
    if a.create or b.create or a.delete or b.delete:
        return True
    return (a.start < b.end and b.start < a.end) or a.start == b.start


def choose(violations: list[Violation], accept: Callable[[Violation], bool]) -> list[Fix]:
    """Fixes to apply in one pass: accepted, and touching no span another chosen fix touches
    (the others are retried on the next pass)."""
    chosen: list[Fix] = []
    picked: set[Fix] = set()
    taken: dict[Path, list[Edit]] = {}  # by file: edits of two files never overlap
    for v in violations:
        fix = v.fix
        if fix is None or not accept(v) or fix in picked:
            continue
        if any(_overlaps(a, b) for a in fix.edits for b in taken.get(a.path, ())):
            continue
        chosen.append(fix)
        picked.add(fix)
        for edit in fix.edits:
            taken.setdefault(edit.path, []).append(edit)
    return chosen


@dataclass
class FixResult:
    """The new text of every file the fixes touched, and what they were before."""

    before: dict[Path, str | None] = field(default_factory=dict)  # None: a new file
    after: dict[Path, str | None] = field(default_factory=dict)  # None: a deleted file
    fixes: list[Fix] = field(default_factory=list)  # the fixes applied, in order (one split is one fix)
    slugs: list[str] = field(default_factory=list)  # for each, the slug of the rule whose finding carried it
    converged: bool = True
    # The bytes read, for compare-before-replace, of a file whose text is not exactly its bytes
    # (invalid UTF-8); of any other file they are `before` in UTF-8.
    original: dict[Path, bytes] = field(default_factory=dict)
    groups: list[set[Path]] = field(default_factory=list)  # files one fix touches together: all or none

    def join(self, paths: set[Path]) -> None:
        """Record that `paths` are written together (one fix touched them all)."""
        merged = set(paths)
        for group in [g for g in self.groups if g & merged]:
            merged |= group
            self.groups.remove(group)
        self.groups.append(merged)

    @property
    def applied(self) -> int:
        return len(self.fixes)

    @property
    def changed(self) -> dict[Path, str | None]:
        return {p: t for p, t in self.after.items() if self.before.get(p) != t}


def fix_loop(
    workspace: Workspace,
    run: Callable[[], list[Violation]],
    accept: Callable[[Violation], bool],
) -> tuple[FixResult, list[Violation]]:
    """Check, apply a pass of fixes in memory, check again, until nothing is left to apply."""
    result = FixResult()
    seen: set[tuple[tuple[Path, str], ...]] = set()
    violations = run()

    def applicable(v: Violation) -> bool:
        """Accepted, and creating no file that exists (on disk or from an earlier pass) nor one
        whose name the writer refuses (`safe_io.name_problem`: e.g. `CLAUDE.md` beside a
        `claude.md` that the fix does not rename)."""
        if not accept(v) or v.fix is None:
            return False
        deleted = {edit.path for edit in v.fix.edits if edit.delete}
        for edit in v.fix.edits:
            if edit.create:
                doc = workspace.document(edit.path)
                if doc.problem is None or doc.problem.reason != "not-found" or os.path.islink(edit.path):
                    return False  # (a symbolic link to nothing takes the name too: never written through)
                siblings = _siblings(edit.path.parent, workspace.created, workspace.removed | deleted)
                if name_problem(edit.path, siblings) is not None:
                    return False
        return True

    for _ in range(MAX_PASSES):
        fixes = choose(violations, applicable)
        if not fixes:
            return result, violations
        by_file: dict[Path, list[Edit]] = {}
        for fix in fixes:
            for edit in fix.edits:
                by_file.setdefault(edit.path, []).append(edit)
            result.join({edit.path for edit in fix.edits})
        for path, edits in by_file.items():
            doc = workspace.document(path)
            if path not in result.before:
                exists = doc.problem is None or doc.problem.reason != "not-found"
                if any(e.create for e in edits) and exists:
                    raise FixError(f"{path} exists; a fix never overwrites a file")
                result.before[path] = doc.text if exists else None
                if exists and not doc.text_is_exact:  # else its bytes are the text's UTF-8: not kept twice
                    result.original[path] = doc.data
            if any(e.delete for e in edits):
                result.after[path] = None
                workspace.remove(path)
                continue
            current = result.after.get(path, doc.text if result.before[path] is not None else "")
            new_text = apply_edits(current or "", edits)
            result.after[path] = new_text
            workspace.put(path, new_text)
        result.fixes += fixes
        slug_of: dict[Fix, str] = {}
        for v in violations:
            if v.fix is not None:
                slug_of.setdefault(v.fix, v.slug)
        result.slugs += [slug_of.get(fix, "") for fix in fixes]
        state = tuple(sorted((p, t or "") for p, t in result.after.items()))
        if state in seen:
            break
        seen.add(state)
        violations = run()
    result.converged = False
    return result, violations


@dataclass(frozen=True)
class NotWritten:
    """A file a fix changed in memory but memlint did not write, and why."""

    path: Path
    reason: str


@dataclass
class WriteReport:
    written: list[Path] = field(default_factory=list)
    not_written: list[NotWritten] = field(default_factory=list)


class _Refused(Exception):
    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(reason)
        self.path = path
        self.reason = reason


def write_changes(
    result: FixResult, backup_suffix: str | None = None, allowed: Sequence[Path] | None = None
) -> WriteReport:
    """Write every change; the files one fix touched together (a split's topic files and its new
    MEMORY.md) are written all or none, other files independently. A group is skipped, and said so
    in the report, when one of its files changed on disk since it was read, lies outside `allowed`
    (the folders the user named; None: anywhere), would be a name memlint must not create, or
    cannot be written (read-only, full disk)."""
    changed = result.changed
    report = WriteReport()
    roots = [Path(os.path.realpath(r)) for r in allowed] if allowed is not None else None
    umask = current_umask()
    groups = [g & set(changed) for g in result.groups] if result.groups else [set(changed)]
    grouped = set().union(*groups) if groups else set()
    groups += [{p} for p in changed if p not in grouped]
    with signals_interrupt():
        for group in sorted((g for g in groups if g), key=sorted):
            others = f" (with {len(group) - 1} other file(s) of the same fix)" if len(group) > 1 else ""
            try:
                report.written += _write_group(result, sorted(group), backup_suffix, roots, umask)
            except _Refused as exc:
                report.not_written.append(NotWritten(exc.path, exc.reason + others))
            except OSError as exc:
                report.not_written.append(NotWritten(min(group), f"could not write: {exc.strerror or exc}{others}"))
    return report


def write_roots(
    targets: Sequence[Path], home: Path | None, named_memory_dirs: Sequence[Path] = ()
) -> list[Path]:
    """The folders a fix may write in: the paths named on the command line (a file's folder), the
    memory folders of `--home` (its `.claude`, and an `autoMemoryDirectory` set in its own
    settings.json), and memory folders the user named (a `--config` file they passed). A repository's
    own settings, links and .memlint.toml add nothing here."""
    roots = [t if t.is_dir() else t.parent for t in targets]
    if home is not None:
        from memlint.model.loading.settings import memory_dir_setting, read_json

        roots.append(home / ".claude")
        own = memory_dir_setting((read_json(home / ".claude" / "settings.json") or {}).get("autoMemoryDirectory"), home)
        if own is not None:
            roots.append(own)
    roots += named_memory_dirs
    return [Path(os.path.realpath(r)) for r in roots]


def _siblings(folder: Path, created: Iterable[Path], removed: Collection[Path]) -> list[str]:
    """The names in `folder` once `created` exist and `removed` are gone (what `name_problem` checks
    a new name against, in the fix loop and again when writing)."""
    try:
        names = {n for n in os.listdir(folder) if folder / n not in removed}
    except OSError:
        names = set()
    names |= {p.name for p in created if p.parent == folder and p not in removed}
    return sorted(names)


def write_all(result: FixResult, backup_suffix: str | None = None, allowed: Sequence[Path] | None = None) -> list[Path]:
    """`write_changes`, raising FixError when any file was not written."""
    report = write_changes(result, backup_suffix, allowed)
    if report.not_written:
        detail = "; ".join(f"{n.path}: {n.reason}" for n in report.not_written)
        raise FixError(f"not written: {detail}" + ("" if report.written else "; nothing was changed"))
    return report.written


def _unchanged(result: FixResult, path: Path, target: Path) -> bool:
    """The file still holds what the fix read (compared byte for byte)."""
    try:
        with open(target, "rb") as handle:
            data = handle.read()
    except OSError:
        return False
    original = result.original.get(path)
    if original is None:
        before = result.before.get(path)
        original = before.encode("utf-8") if before is not None else None
    return data == original


def _target(path: Path, new_text: str | None, roots: list[Path] | None) -> Path:
    """Where the fix of `path` is written: a symlink's target (a link is never replaced by a copy),
    refused outside `roots`."""
    target = path
    if new_text is not None and os.path.islink(path):
        target = Path(os.path.realpath(path))
        if roots is not None and not within(target, roots):
            raise _Refused(path, f"it is a symlink to {target}, outside the folders named on the command "
                                 "line; memlint edits a link's target only inside them")
    if roots is not None and not within(target, roots):
        raise _Refused(path, "it is outside the folders named on the command line (a repository's links, "
                             "settings or .memlint.toml never make memlint write elsewhere)")
    if roots is None and new_text is not None and ".." in path.parts:
        raise _Refused(path, "the path climbs out of its folder (`..`)")
    return target


def _write_group(
    result: FixResult, paths: list[Path], backup_suffix: str | None, roots: list[Path] | None, umask: int
) -> list[Path]:
    """Write one group, all or nothing, in the order that keeps every byte somewhere whenever the
    process dies: new files linked into place (nothing links them yet), then modified files replaced
    after a last compare with what was read, then deleted files moved aside and removed."""
    changed = result.changed
    targets = {p: _target(p, changed[p], roots) for p in paths}
    deleted = [p for p in paths if changed[p] is None]
    new = [p for p in paths if changed[p] is not None and result.before.get(p) is None]
    modified = [p for p in paths if changed[p] is not None and result.before.get(p) is not None]
    for path in new:
        problem = name_problem(path, _siblings(path.parent, new, set(deleted)))
        if problem is not None:
            raise _Refused(path, f"memlint will not create {path.name!r}: {problem}")
        if os.path.islink(path):
            raise _Refused(path, "a symbolic link to nothing has its name; memlint never creates a file through a link")
    if new and any(os.path.islink(p) for p in deleted):  # a rename would turn the link into a copy
        link = next(p for p in deleted if os.path.islink(p))
        raise _Refused(link, "it is a symlink; renaming it would replace the link by a copy of its target")
    for path in modified + deleted:
        if not _unchanged(result, path, targets[path]):
            raise _Refused(path, "it changed on disk after memlint read it; not overwritten (run the fix again)")
    for path in modified:
        backup = targets[path].with_name(targets[path].name + (backup_suffix or ""))
        if backup_suffix and path.name == "MEMORY.md" and os.path.lexists(backup):
            raise _Refused(path, f"{backup.name} exists; --backup never overwrites a file (move it away first)")
    temps: list[Path] = []
    made: list[Path] = []  # new files and folders, removed again on failure
    renamed_files: list[tuple[Path, Path]] = []  # (old name, new name) of case-only renames
    replaced: list[tuple[Path, bytes, os.stat_result]] = []
    aside: dict[Path, Path] = {}
    backups: dict[Path, bytes | None] = {}
    folders = sorted({targets[p].parent for p in paths})
    try:
        for folder in folders:
            remove_stale_temps(folder)
        for path in new:
            target = targets[path]
            made += _make_folders(target.parent)
            renamed = _case_only_rename(path, deleted)
            if renamed is not None:  # `claude.md` -> `CLAUDE.md` on a case-insensitive disk
                os.rename(renamed, path)
                deleted.remove(renamed)
                renamed_files.append((renamed, path))
                continue
            temp = write_temp(target, (changed[path] or "").encode("utf-8"), None, umask)
            temps.append(temp)
            os.link(temp, target)  # fails if the file appeared meanwhile: never overwrite
            made.append(target)
            os.unlink(temp)
            temps.remove(temp)
        for folder in {targets[p].parent for p in new}:
            fsync_folder(folder)
        for path in modified:
            target = targets[path]
            st = os.stat(target)
            old = result.original.get(path, (result.before.get(path) or "").encode("utf-8"))
            if backup_suffix and path.name == "MEMORY.md":  # the split rewrites the index: keep the old one
                backup = target.with_name(target.name + backup_suffix)
                temp = write_temp(backup, old, st, umask)
                temps.append(temp)
                os.link(temp, backup)  # fails if a file appeared there meanwhile: never overwrite
                backups[backup] = None
                os.unlink(temp)
                temps.remove(temp)
            temp = write_temp(target, (changed[path] or "").encode("utf-8"), st, umask)
            temps.append(temp)
            if not _unchanged(result, path, target):  # compare just before the rename
                raise _Refused(path, "it changed on disk while memlint was writing; not overwritten")
            os.replace(temp, target)  # the temp stays in `temps` until it is in place
            temps.remove(temp)
            replaced.append((target, old, st))
        for path in deleted:
            if not _unchanged(result, path, targets[path]):
                raise _Refused(path, "it changed on disk while memlint was writing; not removed")
            holder = path.parent / (path.name + f".{os.getpid()}.memlint-old")
            os.replace(path, holder)
            aside[path] = holder
        for folder in folders:
            fsync_folder(folder)
    except BaseException:
        _undo(temps, made, replaced, aside, backups, umask)
        for old_name, new_name in renamed_files:
            _quiet(os.rename, new_name, old_name)
        raise
    for holder in aside.values():
        _quiet(os.unlink, holder)
    return [targets[p] for p in new + modified] + deleted


def _undo(temps: list[Path], made: list[Path], replaced: list[tuple[Path, bytes, os.stat_result]],
          aside: dict[Path, Path], backups: dict[Path, bytes | None], umask: int) -> None:
    """Put back what a failed or interrupted group did, newest first."""
    for temp in temps:
        _quiet(os.unlink, temp)
    for path, holder in aside.items():
        _quiet(os.replace, holder, path)
    for target, old, st in reversed(replaced):
        _quiet(lambda t=target, o=old, s=st: os.replace(write_temp(t, o, s, umask), t))
    for path in reversed(made):
        _quiet(os.rmdir if path.is_dir() and not path.is_symlink() else os.unlink, path)
    for backup, data in backups.items():
        if data is None:
            _quiet(os.unlink, backup)
        else:
            _quiet(lambda b=backup, d=data: os.replace(write_temp(b, d, os.stat(b), umask), b))


def _make_folders(folder: Path) -> list[Path]:
    """Create `folder` and missing parents; the ones created, outermost first."""
    missing: list[Path] = []
    current = folder
    while not current.exists():
        missing.append(current)
        current = current.parent
    for path in reversed(missing):
        path.mkdir()
    return list(reversed(missing))


def _case_only_rename(new: Path, deleted: list[Path]) -> Path | None:
    """The deleted path that is the same file as `new` (only on a case-insensitive disk)."""
    if not new.exists():
        return None
    for old in deleted:
        if old.parent == new.parent and old.name.lower() == new.name.lower() and os.path.samefile(old, new):
            return old
    return None


def _quiet(func: Callable[..., object], *args: object) -> None:
    try:
        func(*args)
    except OSError:
        pass


__all__ = ["FixError", "FixResult", "Interrupted", "NotWritten", "WriteReport", "write_all", "write_changes"]
