"""Helpers shared by the layout rules: which files are rules, where a rule's patterns are matched
from, where each top-level frontmatter key stands in the text, how to show a path."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.jstext import JS_WS_CLASS
from memlint.model.loading.loaded import LoadedFile, speaking_folder
from memlint.model.run.include_problems import owned
from memlint.model.run.rule_context import RuleContext
from memlint.model.source.pathorder import path_order
from memlint.model.text.document import Document
from memlint.model.text.frontmatter import Frontmatter
from memlint.records import dataclass
from memlint.safe_io import name_problem
from memlint.violations import Applicability, Edit, Fix

_OPENER = compile_lazily(rf"---[{JS_WS_CLASS}]*\n")
_KEY = compile_lazily(r"([A-Za-z_][\w-]*)[ \t]*:(?=[ \t\r]|$)")


_FENCE = compile_lazily(r"^\s{0,3}(`{3,}|~{3,})")


def prose_lines(text: str) -> Iterator[tuple[int, str]]:
    """(1-based number, line) of each line outside fenced code blocks (the fence lines too are left
    out); a fence closes on the same character, at least as long."""
    fence: str | None = None
    for number, line in enumerate(text.split("\n"), 1):
        match = _FENCE.match(line) if "`" in line or "~" in line else None
        if fence is not None:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = None
            continue
        if match:
            fence = match.group(1)
            continue
        yield number, line


def rule_base(path: Path) -> Path | None:
    """The folder that holds `.claude/` for a file under `.claude/rules/`: Claude Code matches the
    rule's `paths:` against paths relative to it. (A rule file's own name ends in `.md`, so only
    its folder decides: worked out once per folder.)"""
    return _rule_base(str(path.parent))


@lru_cache(maxsize=65536)
def _rule_base(folder: str) -> Path | None:
    parts = Path(folder).parts
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] == ".claude" and parts[i + 1 : i + 2] == ("rules",):
            return Path(*parts[:i])
    return None


def rule_files(ctx: RuleContext) -> list[tuple[Path, Document]]:
    """Files under a `.claude/rules/` folder that Claude Code reads as rules (name ending in
    lower-case `.md`) and memlint can read, sorted by path (listed once per run)."""
    return list(ctx.once(("layout.rule-files",), lambda: _rule_files(ctx)))


def _rule_files(ctx: RuleContext) -> list[tuple[Path, Document]]:
    out = []
    for item in ctx.by_role("rule"):
        if not item.path.name.endswith(".md"):
            continue
        doc = ctx.document(item.path)
        if doc.problem is None:
            out.append((item.path, doc))
    return sorted(out, key=lambda pair: path_order(pair[0]))


@dataclass(frozen=True)
class KeyBlock:
    """A top-level key of a frontmatter block: where its name stands and how far its value runs."""

    key: str
    line: int  # 1-based line in the file
    start: int  # offset of the key's first character
    end: int  # offset just after the last line of its value (its line break included)


def yaml_start(text: str, fm: Frontmatter) -> int | None:
    """The offset in `text` where the frontmatter's YAML begins, or None when it cannot be found."""
    match = _OPENER.match(text)
    if match is None or text[match.end() : match.end() + len(fm.raw)] != fm.raw:
        return None
    return match.end()


def key_blocks(text: str, fm: Frontmatter) -> list[KeyBlock]:
    """Every top-level `key:` of the frontmatter, in order, with the indented or `- ` lines that
    follow it."""
    start = yaml_start(text, fm)
    if start is None:
        return []
    blocks: list[KeyBlock] = []
    offset = start
    current: tuple[str, int, int] | None = None
    for raw_line in fm.raw.splitlines(keepends=True):
        match = _KEY.match(raw_line)
        if match is not None:
            if current is not None:
                blocks.append(KeyBlock(current[0], current[1], current[2], offset))
            current = (match.group(1), text.count("\n", 0, offset) + 1, offset)
        elif current is not None and raw_line.strip() and not raw_line[:1].isspace() and not raw_line.startswith("-"):
            blocks.append(KeyBlock(current[0], current[1], current[2], offset))
            current = None
        offset += len(raw_line)
    if current is not None:
        blocks.append(KeyBlock(current[0], current[1], current[2], offset))
    return blocks


def find_key(text: str, fm: Frontmatter, key: str) -> KeyBlock | None:
    """The block of `key` that Claude Code reads: of a key written twice, the last."""
    return next((b for b in reversed(key_blocks(text, fm)) if b.key == key), None)


def line_start(text: str, line: int) -> int:
    """The offset of the first character of 1-based `line`."""
    offset = 0
    for _ in range(line - 1):
        index = text.find("\n", offset)
        if index == -1:
            return len(text)
        offset = index + 1
    return offset


_SYSTEM_ROOTS = frozenset({"Users", "home", "root", "tmp", "var", "opt", "mnt", "Volumes", "private", "srv", "usr"})


def _unbalanced_bracket(pattern: str) -> bool:
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[" and "]" not in pattern[i + 2 :]:
            return True
        i += 1
    return False


def never_matches(pattern: str, base: Path, files: tuple[str, ...] | None) -> str | None:
    """Why a conditional rule's pattern (as Claude Code uses it, `/**` already cut) can never
    match a file Claude reads, or None. `files` (below `base`) tells an absolute filesystem path
    from a pattern anchored at `base`."""
    if pattern == ".." or pattern.startswith("../"):
        return "starts with `../`: only files below the folder holding `.claude/` are matched, by their path relative to it"
    if pattern == "." or pattern.startswith("./"):
        return "starts with `./`: the paths it is matched against never do"
    if pattern.startswith("~"):
        return "starts with `~`, which is not expanded: it is taken as a folder named `~`"
    if len(pattern) > 2 and pattern[0].isalpha() and pattern[1] == ":" and pattern[2] in "/\\":
        return "is a Windows drive path; patterns are matched against paths relative to the folder holding `.claude/`"
    if "\\" in pattern and any(pattern[i + 1 : i + 2].isalnum() or pattern[i + 1 : i + 2] == "*"
                               for i, ch in enumerate(pattern) if ch == "\\"):
        return "uses `\\` as a separator: in a pattern it escapes the next character, write `/`"
    if _unbalanced_bracket(pattern):
        return "has a `[` that is never closed, so the pattern matches no path"
    if pattern.startswith("/") and files is not None:
        first = pattern.lstrip("/").split("/", 1)[0]
        bases = {str(base), os.path.realpath(base)}
        absolute = any(pattern.startswith(b.rstrip("/") + "/") for b in bases) or first in _SYSTEM_ROOTS
        if absolute and not any(f == first or f.startswith(first + "/") for f in files):
            return "is an absolute path; a leading `/` only anchors the pattern at the folder holding `.claude/`"
    return None


def rename(ctx: RuleContext, old: Path, new: Path, text: str) -> tuple[str, Fix | None]:
    """The advice and the fix that rename `old` to `new`, a name no file has: no fix is offered onto
    a symbolic link to nothing (it would write the link's target), nor one that memlint's writer
    would refuse forever (`safe_io.name_problem`: a character Windows or a terminal cannot take, a
    reserved or overlong name, a case clash with another file)."""
    listing = ctx.workspace.listing(str(new.parent)) or ()
    if any(name == new.name and not is_dir and not is_file for name, is_dir, is_file in listing):
        return f"`{new.name}` beside it is a symbolic link to nothing: remove the link, then rename this file", None
    refused = name_problem(new, [name for name, _, _ in listing if name != old.name])
    if refused is not None:
        return f"rename it to `{new.name}` (memlint will not: {refused})", None
    return f"rename it to `{new.name}`", _rename_fix(old, new, text)


def _rename_fix(old: Path, new: Path, text: str) -> Fix:
    """Rename `old` to `new` (which must not exist): create it with the same text, delete the old."""
    return Fix(
        f"rename {old.name} to {new.name}",
        Applicability.UNSAFE,
        (Edit(new, 0, 0, text, create=True), Edit(old, 0, 0, "", delete=True)),
    )


def project_folder(file: LoadedFile, start: Path) -> Path:
    """The folder a loaded file speaks about: the start folder for an include, the folder holding
    `.claude/` for a file inside it, else the file's own folder."""
    if file.origin is not None:
        return start
    return _speaks_for(str(file.path.parent))


@lru_cache(maxsize=65536)
def _speaks_for(folder: str) -> Path:
    """`speaking_folder` of a loaded file's folder, as a `Path` (a loaded file's own name ends in
    `.md`: only its folder decides)."""
    return Path(speaking_folder(folder))


def listed(parts: list[str], total: int, sep: str = ", ") -> str:
    """The first few of `total` items, written out and joined by `sep`, then `… (N in all)` when
    there are more (ML516-ML518 show at most four lines of a file)."""
    text = sep.join(parts)
    return f"{text}{sep}\u2026 ({total} in all)" if total > len(parts) else text


class InstructionFile(NamedTuple):
    """A readable instruction file Claude Code loads, with its document and the folder it speaks about."""

    file: LoadedFile
    doc: Document
    base: Path

    @property
    def path(self) -> Path:
        return self.file.path


def loaded_instruction_files(ctx: RuleContext) -> Sequence[InstructionFile]:
    """Each readable file of the project that Claude Code loads at some start (auto memory aside),
    once, with its document and the folder it speaks about (`project_folder` at its first start).
    Listed once per run (the one list, which callers only read)."""
    return ctx.once(("layout.loaded-instruction-files",), lambda: list(_loaded_instruction_files(ctx)))


def _loaded_instruction_files(ctx: RuleContext) -> Iterator[InstructionFile]:
    seen: set[Path] = set()
    for loaded in ctx.loads.values():
        for file in loaded.files:
            if file.kind == "automem" or file.path in seen or not owned(ctx, file.path):
                continue
            seen.add(file.path)
            doc = ctx.document(file.path)
            if doc.problem is None:
                yield InstructionFile(file, doc, project_folder(file, loaded.start))
