"""What Claude Code attaches when Claude reads one file: the answer of `memlint context --reading
FILE` (and of the language server's `paths:` hover), built on the loader's model of the session
(`model.loading.loader.load`) and its answer for one Read (`model.loading.reads.on_read`); nothing here decides
what loads, it only says why, in words and as JSON.

    from memlint.reading import reading
    answer = reading("repo", "repo/src/api/users.ts", home="~")
    for item in answer.attached:
        print(item.path, item.why)
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from memlint.model.loading.loaded import LoadedContext
from memlint.model.loading.loader import MANAGED_DIR, load
from memlint.model.loading.reads import Attached, on_read, read_refused
from memlint.model.loading.replay import _within
from memlint.model.loading.settings import Launch
from memlint.model.loading.workspace import Workspace
from memlint.model.release import DEFAULT, Release
from memlint.records import dataclass

__all__ = ["AttachedFile", "Reading", "answer", "reading"]


@dataclass(frozen=True)
class AttachedFile:
    """One attached file: what it is, how it reaches the model and why it comes."""

    path: Path
    kind: str  # project, local, user, managed
    via: str  # "user": its own <system-reminder> block in the user turn; "system": a system message
    reason: str  # nested-claude-md, nested-rule, nested-agents-md, conditional-rule, include
    why: str  # the reason in words
    chars: int
    included_from: tuple[Path, int] | None = None
    pattern: str | None = None  # conditional rules (and their includes): the `paths:` pattern that matched


@dataclass(frozen=True)
class Reading:
    """What one Read of `file` attaches in the session started in `loaded.start`."""

    loaded: LoadedContext
    file: Path
    attached: tuple[AttachedFile, ...]
    note: str  # one sentence when nothing can be attached, and why; else ""

    def show(self, path: Path | str) -> str:
        """A path relative to the start folder, `~/...` in HOME, else absolute."""
        text = str(path)
        for base, label in sorted(((str(self.loaded.start), ""), (str(self.loaded.home), "~/")),
                                  key=lambda pair: -len(pair[0])):
            if text.startswith(base.rstrip("/") + "/"):
                return label + text[len(base.rstrip("/")) + 1 :]
            if text == base:
                return label.rstrip("/") or "."
        return text

    def to_dict(self) -> dict[str, Any]:
        release = self.loaded.release
        return {
            "claude_code": release.name,
            "start": str(self.loaded.start),
            "home": str(self.loaded.home),
            "file": str(self.file),
            "deferred_format": "user-system-reminder-per-file" if release.deferred_as_user_blocks else "system-message",
            "attached": [
                {"path": str(a.path), "kind": a.kind, "via": a.via, "reason": a.reason, "why": a.why,
                 "chars": a.chars, "pattern": a.pattern,
                 "included_from": None if a.included_from is None else
                 {"path": str(a.included_from[0]), "line": a.included_from[1]}}
                for a in self.attached
            ],
            "note": self.note or None,
        }


def reading(
    start: str | os.PathLike[str], file: str | os.PathLike[str], home: str | os.PathLike[str] | None = None,
    managed_dir: str | os.PathLike[str] = MANAGED_DIR, release: Release = DEFAULT, launch: Launch | None = None,
) -> Reading:
    """What Claude Code `release`, started in `start` with HOME `home`, attaches when Claude reads
    `file` (relative to the current folder, as on the command line)."""
    home_path = Path(os.path.expanduser(os.fspath(home))) if home is not None else \
        Path(os.environ.get("HOME") or os.path.expanduser("~"))
    workspace = Workspace(release)
    loaded = load(Path(start), home_path, workspace, Path(managed_dir), True, release, launch or Launch())
    return answer(loaded, Path(file), workspace)


def answer(loaded: LoadedContext, file: Path, workspace: Workspace | None = None) -> Reading:
    """The `Reading` for a session the loader modelled already (the language server keeps one)."""
    target = Path(os.path.realpath(os.path.abspath(file)))
    attached = on_read(loaded, target, workspace)
    if not _within(str(target), str(loaded.start)):
        note = (f"{target} is outside the start folder {loaded.start}: Claude Code attaches no memory when "
                "Claude reads it, not even a conditional rule whose paths: match it")
    elif (rule := read_refused(loaded, target)) is not None:
        note = (f"Claude Code refuses the Read: the deny rule {rule.written!r} in {rule.settings} covers {target}, "
                "so nothing is attached")
    else:
        note = _walked_note(loaded, target, attached)
    shown = Reading(loaded, target, (), note)
    return Reading(loaded, target, tuple(_describe(a, target, shown) for a in attached), note)


def _walked_note(loaded: LoadedContext, target: Path, attached: list[Attached]) -> str:
    """What to say of a Read Claude Code lets through: why nothing came, and which folders on the way
    CLAUDE_CODE_AUTOMOUNT_ROOTS skips."""
    note = ""
    if not attached and any(os.path.realpath(d.path) == str(target) for d in loaded.deferred):
        note = ("the file read is itself memory that would be attached: Claude sees it as the Read's result, "
                "and Claude Code does not attach it again")
    elif not attached:
        note = ("nothing new: no folder between the start folder and the file holds memory that is not "
                "loaded already, and no conditional rule's paths: match it")
    skipped = [folder for folder in target.parents if str(folder) in loaded.settings.automount_roots
               and _within(str(folder), str(loaded.start)) and folder != loaded.start]
    if skipped:
        roots = ", ".join(str(folder) for folder in reversed(skipped))
        note = (f"{note}; " if note else "") + (
            f"the memory of {roots} is skipped: CLAUDE_CODE_AUTOMOUNT_ROOTS lists it (Claude Code "
            f"{loaded.release.name} skips such a folder on a Read as at start)")
    return note


def _describe(item: Attached, target: Path, shown: Reading) -> AttachedFile:
    f = item.file
    origin = (f.origin.path, f.origin.line) if f.origin is not None else None
    folder = f.path.parent.parent if f.path.parent.name == ".claude" else f.path.parent
    if origin is not None:
        reason = "include"
        why = f"included by {shown.show(origin[0])}:{origin[1]}"
        if item.reason == "conditional-rule":
            why += f", a conditional rule whose paths: pattern `{item.pattern}` matches"
    elif item.reason == "conditional-rule":
        reason = "conditional-rule"
        relative = shown.show(target) if item.base is None else os.path.relpath(target, item.base)
        base = "" if item.base is None or item.base == shown.loaded.start else f" (relative to {shown.show(item.base)})"
        why = f"conditional rule: its paths: pattern `{item.pattern}` (as Claude Code reads it) matches `{relative}`{base}"
    elif item.reason == "agents":
        reason = "nested-agents-md"
        why = f"AGENTS file of {shown.show(folder)}/, a folder on the way from the start folder to the file"
    elif "/.claude/rules/" in str(f.path):
        reason = "nested-rule"
        rules = str(f.path).split("/.claude/rules/", 1)[0]
        why = f"unconditional rule of {shown.show(rules)}/, a folder on the way from the start folder to the file"
    else:
        reason = "nested-claude-md"
        why = f"memory of {shown.show(folder)}/, a folder on the way from the start folder to the file"
    return AttachedFile(f.path, f.kind, item.via, reason, why, f.chars, origin, item.pattern)
