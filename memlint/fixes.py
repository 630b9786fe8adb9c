"""Applying fixes: sorted text edits, overlaps retried on the next pass, a loop that stops on a
repeated state and reverts when it does not converge, and atomic all-or-nothing writes."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from memlint.model.workspace import Workspace
from memlint.violations import Applicability, Edit, Fix, Violation

MAX_PASSES = 10


class FixError(Exception):
    """A fix could not be applied or written; nothing was changed on disk."""


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


def wanted(fix: Fix, unsafe: bool, selected: frozenset[str] = frozenset(), code: str = "") -> bool:
    if fix.applicability is Applicability.SAFE:
        return True
    if fix.applicability is Applicability.UNSAFE:
        return unsafe or code in selected
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
    taken: list[Edit] = []
    for v in violations:
        fix = v.fix
        if fix is None or not accept(v) or fix in chosen:
            continue
        if any(_overlaps(a, b) for a in fix.edits for b in taken):
            continue
        chosen.append(fix)
        taken.extend(fix.edits)
    return chosen


@dataclass
class FixResult:
    """The new text of every file the fixes touched, and what they were before."""

    before: dict[Path, str | None] = field(default_factory=dict)  # None: a new file
    after: dict[Path, str | None] = field(default_factory=dict)  # None: a deleted file
    applied: int = 0
    problems: int = 0  # findings whose fix was applied (one split fixes several findings)
    converged: bool = True

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
        """Accepted, and creating no file that exists (on disk or from an earlier pass)."""
        if not accept(v) or v.fix is None:
            return False
        for edit in v.fix.edits:
            if edit.create:
                doc = workspace.document(edit.path)
                if doc.problem is None or doc.problem.reason != "not-found":
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
        for path, edits in by_file.items():
            doc = workspace.document(path)
            if path not in result.before:
                exists = doc.problem is None or doc.problem.reason != "not-found"
                if any(e.create for e in edits) and exists:
                    raise FixError(f"{path} exists; a fix never overwrites a file")
                result.before[path] = doc.text if exists else None
            if any(e.delete for e in edits):
                result.after[path] = None
                workspace.remove(path)
                continue
            current = result.after.get(path, doc.text if result.before[path] is not None else "")
            new_text = apply_edits(current or "", edits)
            result.after[path] = new_text
            workspace.put(path, new_text)
        result.applied += len(fixes)
        result.problems += sum(1 for v in violations if v.fix is not None and v.fix in fixes)
        state = tuple(sorted((p, t or "") for p, t in result.after.items()))
        if state in seen:
            break
        seen.add(state)
        violations = run()
    result.converged = False
    return result, violations


def _write_temp(path: Path, text: str) -> str:
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".memlint-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists():
            os.chmod(temp, os.stat(path).st_mode & 0o7777)
    except BaseException:
        os.unlink(temp)
        raise
    return temp


def write_all(result: FixResult, backup_suffix: str | None = None) -> list[Path]:
    """Write every change, all or nothing: temp files first; new files linked into place (never
    over an existing file); modified files replaced with `os.replace`, a rewritten MEMORY.md
    keeping its old text in `MEMORY.md<backup_suffix>`; deleted files last (moved aside, then
    removed), so a kill at any moment leaves every byte of text in some file. Any error undoes
    what was done. Temp files left by an earlier, killed run in these folders are removed."""
    changed = result.changed
    for folder in {p.parent for p in changed}:
        _remove_stale_temps(folder)
    deleted = sorted(p for p, t in changed.items() if t is None)
    new = sorted(p for p, t in changed.items() if t is not None and result.before.get(p) is None)
    modified = sorted(p for p, t in changed.items() if t is not None and result.before.get(p) is not None)
    temps: dict[Path, str] = {}
    aside: dict[Path, str] = {}
    backups: dict[Path, bytes | None] = {}  # a backup written over: its bytes before (None: it was not there)
    done: list[Path] = []
    try:
        for path in new:
            path.parent.mkdir(parents=True, exist_ok=True)
        for path in new + modified:
            temps[path] = _write_temp(path, changed[path] or "")
        for path in new:
            renamed = _case_only_rename(path, deleted)
            if renamed is not None:  # `claude.md` -> `CLAUDE.md` on a case-insensitive disk
                os.rename(renamed, path)
                deleted.remove(renamed)
                done.append(path)
                os.unlink(temps.pop(path))
                continue
            os.link(temps[path], path)  # fails if the file appeared meanwhile: never overwrite
            done.append(path)
            os.unlink(temps.pop(path))
        for path in modified:
            if backup_suffix and path.name == "MEMORY.md":  # the split rewrites the index: keep the old one
                backup = path.with_name(path.name + backup_suffix)
                temps[backup] = _write_temp(backup, result.before[path] or "")
                backups[backup] = backup.read_bytes() if backup.is_file() else None
                os.replace(temps[backup], backup)
                del temps[backup]
            os.replace(temps[path], path)  # the temp stays in `temps` until it is in place
            del temps[path]
            done.append(path)
        for path in deleted:
            fd, holder = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".memlint-old", dir=path.parent)
            os.close(fd)
            try:
                os.replace(path, holder)
            except BaseException:
                _quiet(os.unlink, holder)
                raise
            aside[path] = holder
    except BaseException as exc:
        for temp in temps.values():
            _quiet(os.unlink, temp)
        for path in done:
            old = result.before.get(path)
            if old is None:
                _quiet(os.unlink, path)
            else:
                _quiet(lambda p=path, o=old: os.replace(_write_temp(p, o), p))
        for path, holder in aside.items():
            _quiet(os.replace, holder, path)
        for backup, data in backups.items():
            if data is None:
                _quiet(os.unlink, backup)
            else:
                _quiet(_restore_bytes, backup, data)
        if isinstance(exc, OSError):
            raise FixError(f"could not write {exc.filename or ''}: {exc.strerror}; nothing was changed") from exc
        raise
    for holder in aside.values():
        _quiet(os.unlink, holder)
    return done + deleted


def _case_only_rename(new: Path, deleted: list[Path]) -> Path | None:
    """The deleted path that is the same file as `new` (only on a case-insensitive disk)."""
    if not new.exists():
        return None
    for old in deleted:
        if old.parent == new.parent and old.name.lower() == new.name.lower() and os.path.samefile(old, new):
            return old
    return None


def _remove_stale_temps(folder: Path) -> None:
    """Temp files of an earlier run that was killed mid-write: partial copies, safe to drop."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if name.startswith(".") and name.endswith(".memlint-tmp"):
            _quiet(os.unlink, folder / name)


def _restore_bytes(path: Path, data: bytes) -> None:
    temp = _write_temp(path, "")
    with open(temp, "wb") as handle:
        handle.write(data)
    os.replace(temp, path)


def _quiet(func: Callable[..., object], *args: object) -> None:
    try:
        func(*args)
    except OSError:
        pass
