"""A file as the loader sees it whatever the start folder: where it resolves, whether Claude Code
reads it at all (missing, unreadable, a non-text extension, empty) and where its includes point.
Computed once per path, HOME and run, and shared by every start folder (memlint.model.loading.loader)."""

from __future__ import annotations

import os
import posixpath
from pathlib import Path

from memlint.model.cli_js.jstext import js_trim, node_extname
from memlint.model.loading.workspace import Workspace
from memlint.model.text.document import Document
from memlint.model.text.markdown import IncludeRef
from memlint.records import dataclass

TEXT_EXTENSIONS = frozenset(
    [".md", ".txt", ".text", ".json", ".yaml", ".yml", ".toml", ".xml", ".csv", ".html", ".htm", ".css", ".scss", ".sass", ".less", ".js", ".ts", ".tsx", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".py", ".pyi", ".pyw", ".rb", ".erb", ".rake", ".go", ".rs", ".java", ".kt", ".kts", ".scala", ".c", ".cpp", ".cc", ".cxx", ".h", ".hpp", ".hxx", ".cs", ".swift", ".sh", ".bash", ".zsh", ".fish", ".ps1", ".bat", ".cmd", ".env", ".ini", ".cfg", ".conf", ".config", ".properties", ".sql", ".graphql", ".gql", ".proto", ".vue", ".svelte", ".astro", ".ejs", ".hbs", ".pug", ".jade", ".php", ".pl", ".pm", ".lua", ".r", ".dart", ".ex", ".exs", ".erl", ".hrl", ".clj", ".cljs", ".cljc", ".edn", ".hs", ".lhs", ".elm", ".ml", ".mli", ".f", ".f90", ".f95", ".for", ".cmake", ".make", ".makefile", ".gradle", ".sbt", ".rst", ".adoc", ".asciidoc", ".org", ".tex", ".latex", ".lock", ".log", ".diff", ".patch"]
)


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


@dataclass(frozen=True, slots=True)
class Facts:
    """A file as the loader sees it, whatever the start folder."""

    key: str
    path: Path  # built once: Path objects are costly and every start folder reuses them
    resolved: str
    is_symlink: bool
    document: Document
    skip: tuple[str, str] | None = None  # (reason, detail) when it is never loaded
    globs: tuple[str, ...] | None = None
    includes: tuple[tuple[str, IncludeRef], ...] = ()


def _non_text_extension(path: str) -> str | None:
    """Node's extension of `path` (lower-cased) when Claude Code does not read such a file, else None.
    A name ending in `.md` has `.md` or (`.md` alone) none, both read: decided without `node_extname`,
    a character loop, for nearly every file."""
    if path.endswith(".md"):
        return None
    extension = node_extname(path).lower()
    return extension if extension and extension not in TEXT_EXTENSIONS else None


def file_facts(workspace: Workspace, home: Path, path: str) -> Facts:
    """What does not depend on the start folder, computed once per path and run."""
    memo_key = (path, str(home))
    cached = workspace.memo.get(memo_key)
    if cached is not None:
        assert isinstance(cached, Facts)
        return cached
    resolved, is_symlink = workspace.realpath(path)
    doc = workspace.document(path)
    # the document's own Path when it names the same (absolute, normalized) path: one object per file
    same = doc.path if os.path.abspath(path) == path else Path(path)
    key = posixpath.normpath(path)
    # each outcome built directly (`dataclasses.replace` is a tenth of this method's time)
    if doc.problem is not None and not doc.readable:
        reason = {"not-found": "missing"}.get(doc.problem.reason, doc.problem.reason)
        facts = Facts(key, same, resolved, is_symlink, doc, skip=(reason, doc.problem.detail))
    elif (extension := _non_text_extension(path)) is not None:
        facts = Facts(key, same, resolved, is_symlink, doc,
                      skip=("non-text-extension", f"extension {extension!r} is not read"))
    else:
        scan = doc.scan()
        if not js_trim(doc.loaded):
            facts = Facts(key, same, resolved, is_symlink, doc,
                          skip=("empty", "nothing left after frontmatter and comments"))
        else:
            base_dir = posixpath.dirname(resolved)
            targets = tuple((include_target(ref.path, base_dir, home), ref) for ref in scan.includes)
            facts = Facts(key, same, resolved, is_symlink, doc, globs=doc.rule_globs, includes=targets)
    workspace.memo[memo_key] = facts
    return facts
