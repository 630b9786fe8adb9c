"""Claude Code's memory loading, in one place (../shared/spec/claude-code-loading.md, sections 1-5).

`load(start, home)` answers what Claude Code 2.1.x puts into the model's context when started in
`start`: which files, in what order, with what text, and why every other file it considered was
left out. Every rule and `memlint context` ask this module; nothing else re-derives loading.
"""

from __future__ import annotations

import json
import os
import posixpath
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from memlint.model.automem import Truncation, automem_folder, find_project_root, truncate_index
from memlint.model.document import Document
from memlint.model.globs import picomatch
from memlint.model.jstext import js_trim, node_extname, utf16_len
from memlint.model.markdown import IncludeRef, _is_net_path
from memlint.model.release import DEFAULT, Release
from memlint.model.workspace import Workspace

Kind = Literal["managed", "user", "project", "local", "automem"]
MAX_DEPTH = 5
MANAGED_DIR = Path("/etc/claude-code")
TEXT_EXTENSIONS = frozenset(
    [".md", ".txt", ".text", ".json", ".yaml", ".yml", ".toml", ".xml", ".csv", ".html", ".htm", ".css", ".scss", ".sass", ".less", ".js", ".ts", ".tsx", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".py", ".pyi", ".pyw", ".rb", ".erb", ".rake", ".go", ".rs", ".java", ".kt", ".kts", ".scala", ".c", ".cpp", ".cc", ".cxx", ".h", ".hpp", ".hxx", ".cs", ".swift", ".sh", ".bash", ".zsh", ".fish", ".ps1", ".bat", ".cmd", ".env", ".ini", ".cfg", ".conf", ".config", ".properties", ".sql", ".graphql", ".gql", ".proto", ".vue", ".svelte", ".astro", ".ejs", ".hbs", ".pug", ".jade", ".php", ".pl", ".pm", ".lua", ".r", ".dart", ".ex", ".exs", ".erl", ".hrl", ".clj", ".cljs", ".cljc", ".edn", ".hs", ".lhs", ".elm", ".ml", ".mli", ".f", ".f90", ".f95", ".for", ".cmake", ".make", ".makefile", ".gradle", ".sbt", ".rst", ".adoc", ".asciidoc", ".org", ".tex", ".latex", ".lock", ".log", ".diff", ".patch"]
)
PRUNED_FOLDERS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".hg", ".svn"})


@dataclass(frozen=True)
class Origin:
    """The include that asked for a file: which file, which line."""

    path: Path
    line: int
    ref: IncludeRef


@dataclass(frozen=True)
class LoadedFile:
    """A file in the model's context."""

    path: Path
    kind: Kind
    depth: int  # 0 for a root file, n for an include n levels down
    content: str  # trimmed, as the model sees it
    document: Document
    origin: Origin | None = None
    truncation: Truncation | None = None
    globs: tuple[str, ...] | None = None  # `paths:` of a file loaded despite having them

    @property
    def parent(self) -> Path | None:
        return self.origin.path if self.origin else None

    @property
    def chars(self) -> int:
        return utf16_len(self.content)


@dataclass(frozen=True)
class Skipped:
    """A file Claude Code considered and left out, and why."""

    path: Path
    reason: str
    kind: Kind
    origin: Origin | None = None
    detail: str = ""


@dataclass(frozen=True)
class Deferred:
    """A file Claude Code loads later, not at start."""

    path: Path
    reason: Literal["conditional-rule", "nested-claude-md"]
    kind: Kind
    paths: tuple[str, ...] = ()


@dataclass(frozen=True)
class LoadedContext:
    """Everything Claude Code loads at start in `start`, plus what it skipped and defers."""

    start: Path
    home: Path
    project_root: Path
    automem_dir: Path
    files: tuple[LoadedFile, ...]
    skipped: tuple[Skipped, ...]
    deferred: tuple[Deferred, ...]
    excludes: tuple[str, ...] = ()
    release: Release = DEFAULT  # the Claude Code release this models

    @property
    def total_chars(self) -> int:
        return sum(f.chars for f in self.files)


@dataclass(frozen=True)
class Settings:
    """The parts of Claude Code's settings that change what it loads."""

    excludes: tuple[str, ...] = ()
    auto_memory_dir: Path | None = None  # `autoMemoryDirectory`
    auto_memory_enabled: bool = True  # `autoMemoryEnabled`


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _memory_dir_setting(value: Any, home: Path) -> Path | None:
    """Claude Code's validation of `autoMemoryDirectory`: absolute, or `~/...` under HOME."""
    if not isinstance(value, str) or not value:
        return None
    if value.startswith(("~/", "~\\")):
        rest = value[2:]
        norm = posixpath.normpath(rest or ".")
        if norm in (".", "..") or norm.startswith("../"):
            return None
        value = posixpath.join(str(home), rest)
    path = posixpath.normpath(value).rstrip("/")
    if not path.startswith("/") or len(path) < 3 or path.startswith("//") or "\x00" in path:
        return None
    return Path(unicodedata.normalize("NFC", path))


def read_settings(start: Path, home: Path) -> Settings:
    """User, project and local settings (`claudeMdExcludes` arrays merge; later sources win)."""
    sources = [
        _read_json(home / ".claude" / "settings.json"),
        _read_json(start / ".claude" / "settings.json"),
        _read_json(start / ".claude" / "settings.local.json"),
    ]
    patterns: list[str] = []
    enabled = True
    for data in sources:
        value = data.get("claudeMdExcludes")
        if isinstance(value, list):
            patterns.extend(p for p in value if isinstance(p, str) and p not in patterns)
        if isinstance(data.get("autoMemoryEnabled"), bool):
            enabled = data["autoMemoryEnabled"]
    user, project, local = sources
    memory_dir = None
    for data in (local, project, user):
        if "autoMemoryDirectory" in data:
            memory_dir = _memory_dir_setting(data["autoMemoryDirectory"], home)
            break
    expanded = [p.replace("\\", "/") for p in patterns]
    for pattern in list(expanded):  # absolute patterns also match under their real folder
        if not pattern.startswith("/"):
            continue
        cut = min((i for i, ch in enumerate(pattern) if ch in "*?{["), default=len(pattern))
        folder = posixpath.dirname(pattern[:cut])
        real = os.path.realpath(folder)
        if real != folder:
            expanded.append(real + pattern[len(folder) :])
    return Settings(tuple(p for p in expanded if p), memory_dir, enabled)


def _within(path: str, folder: str) -> bool:
    """Claude Code's path containment test (case-folded)."""
    p, f = path.lower(), folder.lower().rstrip("/") or "/"
    return p == f or p.startswith(f + "/") or f == "/"


def include_target(written: str, base_dir: str, home: Path) -> str:
    """Where an include points: `~` is HOME, relative paths start at the includer's real folder."""
    target = js_trim(written)
    if target == "~":
        return str(home)
    if target.startswith("~/"):
        return posixpath.normpath(posixpath.join(str(home), target[2:]))
    if target.startswith("/"):
        return posixpath.normpath(target)
    return posixpath.normpath(posixpath.join(base_dir, target))


@dataclass(frozen=True)
class _Facts:
    """A file as the loader sees it, whatever the start folder."""

    key: str
    path: Path  # built once: Path objects are costly and every start folder reuses them
    resolved: str
    is_symlink: bool
    document: Document
    skip: tuple[str, str] | None = None  # (reason, detail) when it is never loaded
    content: str = ""
    globs: tuple[str, ...] | None = None
    includes: tuple[tuple[str, IncludeRef], ...] = ()


class _Loader:
    def __init__(self, start: Path, home: Path, workspace: Workspace, excludes: tuple[str, ...]) -> None:
        self.start = start
        self.home = home
        self.workspace = workspace
        self.excludes = excludes
        self.processed: set[str] = set()
        self.skipped: list[Skipped] = []
        self.deferred: list[Deferred] = []

    def skip(self, path: str, reason: str, kind: Kind, origin: Origin | None, detail: str = "") -> None:
        self.skipped.append(Skipped(Path(path), reason, kind, origin, detail))

    def facts(self, path: str) -> _Facts:
        """What does not depend on the start folder, computed once per path and run."""
        memo_key = (path, str(self.home))
        cached = self.workspace.memo.get(memo_key)
        if cached is not None:
            assert isinstance(cached, _Facts)
            return cached
        resolved, is_symlink = self.workspace.realpath(path)
        doc = self.workspace.document(path)
        facts = _Facts(posixpath.normpath(path), Path(path), resolved, is_symlink, doc)
        extension = node_extname(path).lower()
        if doc.problem is not None and not doc.readable:
            reason = {"not-found": "missing"}.get(doc.problem.reason, doc.problem.reason)
            facts = replace(facts, skip=(reason, doc.problem.detail))
        elif extension and extension not in TEXT_EXTENSIONS:
            facts = replace(facts, skip=("non-text-extension", f"extension {extension!r} is not read"))
        else:
            scan = doc.scan()
            content = js_trim(scan.loaded)
            if not content:
                facts = replace(facts, skip=("empty", "nothing left after frontmatter and comments"))
            else:
                base_dir = posixpath.dirname(resolved)
                targets = tuple((include_target(ref.path, base_dir, self.home), ref) for ref in scan.includes)
                facts = replace(facts, content=content, globs=doc.rule_globs, includes=targets)
        self.workspace.memo[memo_key] = facts
        return facts

    def process(
        self, path: str, kind: Kind, external_ok: bool, depth: int = 0, origin: Origin | None = None
    ) -> list[LoadedFile]:
        """Claude Code's processMemoryFile: the file, then its includes depth first."""
        key = posixpath.normpath(path)
        if key in self.processed:
            if origin is not None:
                self.skip(path, "duplicate", kind, origin, "already loaded earlier")
            return []
        if depth >= MAX_DEPTH:
            self.skip(path, "too-deep", kind, origin, f"include level {depth}; Claude Code stops at level 4")
            return []
        if kind in ("user", "project", "local") and self.excludes and picomatch(path, self.excludes):
            self.skip(path, "excluded", kind, origin, "matches claudeMdExcludes")
            return []
        if _is_net_path(path):
            return []
        facts = self.facts(path)
        if facts.is_symlink:
            real_key = posixpath.normpath(facts.resolved)
            if real_key in self.processed:
                if origin is not None:
                    self.skip(path, "duplicate", kind, origin, f"same file as {facts.resolved}, already loaded")
                return []
            self.processed.add(real_key)
        self.processed.add(key)
        if facts.skip is not None:
            reason, detail = facts.skip
            if origin is not None or reason != "missing":
                self.skip(path, reason, kind, origin, detail)
            return []
        result = [LoadedFile(facts.path, kind, depth, facts.content, facts.document, origin, None, facts.globs)]
        for target, ref in facts.includes:
            child_origin = Origin(facts.path, ref.line, ref)
            if not external_ok and not _within(target, str(self.start)):
                self.skip(target, "external", kind, child_origin, f"outside {self.start}")
                continue
            result.extend(self.process(target, kind, external_ok, depth + 1, child_origin))
        return result

    def rules(self, folder: str, kind: Kind, external_ok: bool, visited: set[str] | None = None) -> list[LoadedFile]:
        """Claude Code's processMdRules (unconditional pass): conditional rules are deferred."""
        visited = set() if visited is None else visited
        if folder in visited:
            return []
        resolved, is_symlink = self.workspace.realpath(folder)
        visited.add(folder)
        if is_symlink:
            visited.add(resolved)
        entries = self.workspace.listing(resolved)  # directory order, unsorted, as Claude Code reads it
        out: list[LoadedFile] = []
        for name, is_dir, is_file in entries or ():
            target, _linked = self.workspace.realpath(posixpath.join(folder, name))
            if is_dir:
                out.extend(self.rules(target, kind, external_ok, visited))
            elif is_file and name.endswith(".md"):
                for loaded in self.process(target, kind, external_ok):
                    if loaded.globs:
                        self.deferred.append(Deferred(loaded.path, "conditional-rule", kind, loaded.globs))
                    else:
                        out.append(loaded)
        return out

    def nested(self) -> None:
        """Memory files in folders below the start: loaded only when Claude reads a file there."""
        for folder, subfolders, names in os.walk(self.start):
            subfolders[:] = sorted(d for d in subfolders if d not in PRUNED_FOLDERS)
            if folder == str(self.start):
                continue
            here = Path(folder)
            if "CLAUDE.md" in names:
                self.deferred.append(Deferred(here / "CLAUDE.md", "nested-claude-md", "project"))
            if "CLAUDE.local.md" in names:
                self.deferred.append(Deferred(here / "CLAUDE.local.md", "nested-claude-md", "local"))
            if ".claude" in here.parts and "rules" in here.parts:
                anchor = here.parts.index(".claude")
                if here.parts[anchor + 1 : anchor + 2] == ("rules",) and Path(*here.parts[:anchor]) != self.start:
                    for name in sorted(n for n in names if n.endswith(".md")):
                        doc = self.workspace.document(here / name)
                        globs = doc.rule_globs if doc.readable else None
                        reason: Literal["conditional-rule", "nested-claude-md"] = (
                            "conditional-rule" if globs else "nested-claude-md"
                        )
                        self.deferred.append(Deferred(here / name, reason, "project", tuple(globs or ())))


def load(
    start: Path,
    home: Path,
    workspace: Workspace | None = None,
    managed_dir: Path = MANAGED_DIR,
    include_nested: bool = True,
    release: Release = DEFAULT,
) -> LoadedContext:
    """What Claude Code loads at start in `start` with HOME `home` (both made absolute and real)."""
    start = Path(os.path.realpath(start))
    home = Path(os.path.realpath(home))
    workspace = Workspace() if workspace is None else workspace
    settings = read_settings(start, home)
    loader = _Loader(start, home, workspace, settings.excludes)
    files: list[LoadedFile] = []
    files += loader.process(str(managed_dir / "CLAUDE.md"), "managed", False)
    files += loader.rules(str(managed_dir / ".claude" / "rules"), "managed", False)
    files += loader.process(str(home / ".claude" / "CLAUDE.md"), "user", True)
    files += loader.rules(str(home / ".claude" / "rules"), "user", True)
    folders = [start, *start.parents][:-1]  # the filesystem root itself is not visited
    for folder in reversed(folders):
        files += loader.process(str(folder / "CLAUDE.md"), "project", False)
        files += loader.process(str(folder / ".claude" / "CLAUDE.md"), "project", False)
        files += loader.rules(str(folder / ".claude" / "rules"), "project", False)
        files += loader.process(str(folder / "CLAUDE.local.md"), "local", False)
    project_root = find_project_root(start)
    memory_dir = settings.auto_memory_dir or automem_folder(home, project_root)
    if settings.auto_memory_enabled:
        index = _load_index(loader, memory_dir / "MEMORY.md", release)
        if index is not None:
            files.append(index)
    if include_nested:
        loader.nested()
    return LoadedContext(
        start, home, project_root, memory_dir, tuple(files), tuple(loader.skipped), tuple(loader.deferred),
        settings.excludes, release,
    )


def _load_index(loader: _Loader, path: Path, release: Release) -> LoadedFile | None:
    """MEMORY.md: frontmatter and comments removed, truncated (with `release`'s WARNING line and,
    from 2.1.284, sanitised), its `@` paths never followed."""
    key = posixpath.normpath(str(path))
    if key in loader.processed:
        return None
    doc = loader.workspace.document(path)
    if not doc.readable:
        if doc.problem is not None and doc.problem.reason != "not-found":
            loader.skip(str(path), doc.problem.reason, "automem", None, doc.problem.detail)
        return None
    loader.processed.add(key)
    truncation = truncate_index(doc.scan().loaded, release)
    if not js_trim(truncation.content):
        loader.skip(str(path), "empty", "automem", None, "nothing left after frontmatter and comments")
        return None
    return LoadedFile(path, "automem", 0, truncation.content, doc, None, truncation)
