"""One classification of every include Claude Code did not load: a fact of the run, shared by the
include rules and the size rules (which report only on files memlint `owned`).

The loader's `Skipped` records (from every start folder) say what happened; this module picks, for
each include (file, line, column, target), the one problem a person should hear about, so two
rules never report the same include. Intrinsic problems of the target (missing, another letter
case, trailing punctuation, extension, folder, too large) come first: they hold from every start
folder, even where the loader stopped earlier (depth, external) and never looked at the target.
"""

from __future__ import annotations

import os
import posixpath
from array import array
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.jstext import node_extname
from memlint.model.loading.loader import TEXT_EXTENSIONS, LoadedContext, LoadedFile, Origin, Skipped
from memlint.records import dataclass

if TYPE_CHECKING:
    from memlint.model.run.rule_context import RuleContext
    from memlint.model.text.document import Document

Problem = Literal[
    "missing", "case", "punctuation", "extension", "folder", "too-large",
    "too-deep", "external", "cycle", "duplicate",
]
_PRIORITY: dict[str, int] = {
    p: i for i, p in enumerate(
        ("case", "punctuation", "missing", "extension", "folder", "too-large", "too-deep", "external",
         "cycle", "duplicate")
    )
}
# Characters a sentence puts after a path: Claude Code takes them into the path.
TRAILING_PUNCTUATION = ".,;:!?)]}>\"'*_`~"
_FILE_EXTENSION = compile_lazily(r"[^/]\.[A-Za-z0-9]{1,10}$")


def looks_like_a_file(path: str) -> bool:
    """A path the author plainly meant as a file: a file extension, or an explicit `./`, `../`, `~/`
    or `/` start. `@tresjs/core` (an npm package) or `@octocat` (a handle) is not one."""
    return bool(_FILE_EXTENSION.search(path.rstrip(TRAILING_PUNCTUATION))) or path.startswith(("./", "../", "~/", "/"))


@dataclass(frozen=True, slots=True)
class IncludeProblem:
    """One include that Claude Code does not load, and why."""

    problem: Problem
    origin: Origin  # the including file, line and IncludeRef
    target: Path  # the path Claude Code asked for
    start: Path  # a start folder where it happens (the first one found)
    starts: tuple[Path, ...]  # every start folder where it happens
    skipped: Skipped
    context: LoadedContext
    better: Path | None = None  # the file the author meant (punctuation cut, letter case fixed)
    detail: str = ""


def include_problems(ctx: RuleContext) -> list[IncludeProblem]:
    """Every problem include under the checked paths, once each, in file order (computed once per
    check run and shared by the include rules; kept by the run, so that nothing holds the run's
    model once it is over)."""
    problems: list[IncludeProblem] = ctx.once(("include-problems",), lambda: _classify(ctx))
    return problems


def _owned_bases(ctx: RuleContext) -> tuple[str, ...]:
    key = ("owned-bases", ctx.roots, ctx.home)
    cached = ctx.workspace.memo.get(key)
    if isinstance(cached, tuple):
        return cached
    bases = [str(r) for r in ctx.roots] + [os.path.realpath(r) for r in ctx.roots]
    if ctx.home is not None:
        bases += [str(ctx.home), os.path.realpath(ctx.home)]
    result = tuple(b.rstrip("/") for b in bases)
    ctx.workspace.memo[key] = result
    return result


def owned(ctx: RuleContext, path: Path) -> bool:
    """A file memlint reports on: under a checked root, or in HOME (user memory and what it includes)."""
    text = str(path)
    bases = _owned_bases(ctx)
    return any(text == b or text.startswith(b + "/") for b in bases)


_Key = tuple[str, int, int, str]  # an include: including file, line, column, target


@dataclass(frozen=True)
class _Plan:
    """What one skip (a `Skipped` object, shared by the start folders that replay it) says apart
    from the start folder: its include's key and, when the start folder cannot change it, its problem."""

    key: _Key
    fixed: tuple[Problem, Path | None, str] | None  # the target's own problem (None: see `_what`)


def _plan(ctx: RuleContext, skipped: Skipped, ours: dict[int, bool], bases: tuple[str, ...]) -> _Plan | None:
    """The plan of one skip, or None when no start folder makes it a problem memlint reports."""
    origin = skipped.origin
    if origin is None:
        return None
    # Start folders share the origin objects of the includes they replay (model.replay): whether
    # the include is memlint's to report is decided once per origin object.
    mine = ours.get(id(origin))
    if mine is None:
        text = str(origin.path)
        # no HOME modelled (no --home): memlint cannot say what `~/...` holds
        mine = ours[id(origin)] = any(text == b or text.startswith(b + "/") for b in bases) and not (
            ctx.home is None and origin.ref.path.startswith("~"))
    if not mine:
        return None
    reason = skipped.reason
    fixed = None
    if reason in _INTRINSIC:
        intrinsic = target_problem(ctx, skipped)
        if intrinsic[0] is not None:
            fixed = (intrinsic[0], intrinsic[1], intrinsic[2])
        elif reason not in ("too-deep", "external"):
            return None  # the loader's skip stands on nothing memlint reports
    elif reason != "duplicate":
        return None
    if _backslash_after(ctx, origin):
        return None  # `@docs\a.md` asks for `docs`: ML108 reports the backslash path
    return _Plan((str(origin.path), origin.line, origin.ref.column, str(skipped.path)), fixed)


def _classify(ctx: RuleContext) -> list[IncludeProblem]:
    root_starts = {os.path.realpath(r) for r in ctx.roots}
    judge_order_at_roots = any(str(c.start) in root_starts for c in ctx.loads.values())
    chosen: dict[_Key, IncludeProblem] = {}
    # filled in place, one start folder after another: no tuple regrown per start, and a start
    # folder met again for the same include is the list's last (no set of paths to hash)
    starts_of: dict[_Key, list[Path]] = {}
    bases = _owned_bases(ctx)
    ours: dict[int, bool] = {}  # id(origin) -> whether the include is memlint's to report
    # Start folders share the skipped objects themselves (loaded.Chain): what does not depend on
    # the start folder is planned once per object (the chains keep the objects alive).
    plans: dict[int, _Plan | None] = {}
    real: dict[str, str] = {}  # realpath of each path a cycle check met
    for loaded in ctx.loads.values():
        start = loaded.start
        judges_order = not judge_order_at_roots or str(start) in root_starts
        chains: _Chains | None = None  # made at the loading's first duplicate
        for skipped in loaded.skipped:
            plan = plans.get(id(skipped), _UNPLANNED)
            if plan is _UNPLANNED:
                plan = plans[id(skipped)] = _plan(ctx, skipped, ours, bases)
            if plan is None:
                continue
            fixed = plan.fixed
            if fixed is not None:
                problem: Problem = fixed[0]
            elif skipped.reason == "duplicate":
                if not judges_order:
                    continue  # order-dependent (a duplicate or a cycle): judged from the project root only
                assert skipped.origin is not None
                if chains is None:
                    chains = _Chains(loaded, real)
                problem = "cycle" if chains.closes_cycle(skipped.origin.path, skipped.path) else "duplicate"
            else:
                problem = skipped.reason  # type: ignore[assignment]  # too-deep or external
            key = plan.key
            old = chosen.get(key)
            if old is None or _PRIORITY[problem] < _PRIORITY[old.problem]:
                # a new problem for the include: the start folders of the one it replaces are not its
                starts_of[key] = [start]
                better, detail = (fixed[1], fixed[2]) if fixed is not None else (None, loaded.detail(skipped))
                chosen[key] = IncludeProblem(problem, skipped.origin, skipped.path, start, (),  # type: ignore[arg-type]
                                             skipped, loaded, better, detail)
            elif old.problem == problem:
                starts = starts_of[key]
                if starts[-1] is not start:
                    starts.append(start)
    found = [replace(p, starts=tuple(starts_of[key])) for key, p in chosen.items()]
    return sorted(found, key=lambda p: (str(p.origin.path), p.origin.line, p.origin.ref.column))


_UNPLANNED = _Plan(("", 0, 0, ""), None)  # a marker: the skip is not planned yet


_INTRINSIC = frozenset({"missing", "not-a-file", "too-large", "non-text-extension", "too-deep", "external"})


def target_problem(ctx: RuleContext, skipped: Skipped) -> tuple[Problem | None, Path | None, str]:
    """What is wrong with the target itself, in the loader's order of checks (once per target,
    however many start folders skipped it)."""
    assert skipped.origin is not None
    written = skipped.origin.ref.path
    key = ("include-target-problem", skipped.path, written)
    return ctx.once(key, lambda: _target_problem(ctx, skipped.path, written))


def _target_problem(ctx: RuleContext, target: Path, written: str) -> tuple[Problem | None, Path | None, str]:
    problem = ctx.workspace.unloadable(target)  # the text itself is never needed here
    if problem is not None and problem.reason == "not-found":
        meant = without_punctuation(target, written)
        if meant is not None:
            return "punctuation", meant, ""
        cased = case_match(target, lambda folder, name: _same_but_case(_names_by_case(ctx, folder), name))
        if cased is not None:
            return "case", cased, ""
        return "missing", None, ""
    if problem is not None and problem.reason == "not-a-file":
        return "folder", None, problem.detail
    if problem is not None and problem.reason == "too-large":
        return "too-large", None, problem.detail
    extension = node_extname(str(target)).lower()
    if extension and extension not in TEXT_EXTENSIONS:
        meant = without_punctuation(target, written)
        if meant is not None:
            return "punctuation", meant, extension
        return "extension", None, extension
    return None, None, ""


def without_punctuation(target: Path, written: str) -> Path | None:
    """The loadable file the author meant when a sentence's punctuation ran into the path."""
    cut = written.rstrip(TRAILING_PUNCTUATION)
    if cut == written or not cut or not str(target).endswith(written[len(cut):]):
        return None
    candidate = Path(str(target)[: len(str(target)) - (len(written) - len(cut))])
    extension = node_extname(str(candidate)).lower()
    if extension and extension not in TEXT_EXTENSIONS:
        return None
    # os.path.isfile, not Path.is_file: before Python 3.12, that raises for a name too long
    return candidate if os.path.isfile(candidate) else None


def _names_by_case(ctx: RuleContext, folder: Path) -> dict[str, str | list[str]]:
    """A folder's entries by lower-cased name, listed once per run: the name itself when no other
    entry differs from it only in case (nearly always: no list per entry), else all of them; a
    lower-case name is its own key (no second copy)."""
    def build() -> dict[str, str | list[str]]:
        out: dict[str, str | list[str]] = {}
        for name in os.listdir(folder):
            key = name.lower()
            if key == name:
                key = name
            found = out.get(key)
            if found is None:
                out[key] = name
            elif isinstance(found, str):
                out[key] = [found, name]
            else:
                found.append(name)
        return out

    return ctx.once(("names-by-case", folder), build)


def _same_but_case(names: dict[str, str | list[str]], name: str) -> list[str]:
    """The entries of `_names_by_case` equal to `name` but for case, in listing order."""
    found = names.get(name.lower())
    if found is None:
        return []
    return [found] if isinstance(found, str) else list(found)


def _same_name(folder: Path, name: str) -> list[str]:
    return [n for n in os.listdir(folder) if n.lower() == name.lower()]


def case_match(target: Path, same_name: Callable[[Path, str], list[str]] = _same_name) -> Path | None:
    """The one existing file whose path differs from `target` only in letter case (`same_name`
    lists a folder's entries equal to a name but for case; it may answer from a per-run memo)."""
    parts = Path(posixpath.normpath(str(target))).parts
    current = Path(parts[0])
    changed = False
    for part in parts[1:]:
        if os.path.exists(current / part):  # (as in without_punctuation: a name too long is not there)
            current = current / part
            continue
        try:
            names = same_name(current, part)
        except OSError:
            return None
        if len(names) != 1:
            return None
        current, changed = current / names[0], True
    return current if changed and os.path.isfile(current) else None


def chain(loaded: LoadedContext, path: Path, by_path: dict[str, LoadedFile] | None = None) -> list[LoadedFile]:
    """The loaded files from a root file down to `path` (the includer), outermost first. `by_path`:
    `files_by_path(loaded)`, from a caller that asks for many chains of one loading (else each
    chain lists every loaded file once more)."""
    if by_path is None:
        by_path = files_by_path(loaded)
    out: list[LoadedFile] = []
    current = by_path.get(str(path))
    while current is not None and current not in out:
        out.append(current)
        current = by_path.get(str(current.parent)) if current.parent is not None else None
    return list(reversed(out))


def run_chain(ctx: RuleContext, loaded: LoadedContext, path: Path) -> list[LoadedFile]:
    """`chain`, for a rule that asks for many chains: each loading's files are listed by path once
    a run (a file that includes every other made one listing per finding)."""
    return chain(loaded, path, ctx.once(("loaded-files-by-path", loaded.start), lambda: files_by_path(loaded)))


def files_by_path(loaded: LoadedContext) -> dict[str, LoadedFile]:
    """The loaded files by path, what `chain` walks up through."""
    return {str(f.path): f for f in loaded.files}


class _Chains:
    """Whether a duplicate include closes a cycle, for the skips of one loading: its files are
    listed by path once, and each includer's chain resolved once, not once per skip (a file that
    includes 600 files already loaded asks 600 times about the same chain)."""

    def __init__(self, loaded: LoadedContext, real: dict[str, str]) -> None:
        self.loaded = loaded
        self.by_path = files_by_path(loaded)
        self.real = real  # path -> os.path.realpath(path), shared by the loadings of a run
        self.chain_reals: dict[str, set[str]] = {}  # includer -> the real paths of its chain

    def realpath(self, path: Path) -> str:
        text = str(path)
        found = self.real.get(text)
        if found is None:
            found = self.real[text] = os.path.realpath(text)
        return found

    def closes_cycle(self, includer: Path, target: Path) -> bool:
        """`target` is `includer` or one of the files that (through includes) loaded it."""
        reals = self.chain_reals.get(str(includer))
        if reals is None:
            files = chain(self.loaded, includer, self.by_path)
            reals = self.chain_reals[str(includer)] = {self.realpath(f.path) for f in files}
        return self.realpath(target) in reals


def at_offset(ctx: RuleContext, origin: Origin) -> int | None:
    """The character offset of the include's `@` in its file's text, or None when it is not there."""
    doc = ctx.document(origin.path)
    if doc.problem is not None:
        return None
    text = doc.text
    line_start = _line_start(ctx, doc, max(origin.line - 1, 0))
    if line_start is None:
        return None
    offset = line_start + origin.ref.column - 1
    if text[offset : offset + 1 + len(origin.ref.written)] != "@" + origin.ref.written:
        return None
    return offset


def _line_start(ctx: RuleContext, doc: Document, line_index: int) -> int | None:
    """Where the 0-based line starts in `doc.text`, or None past its end (`Document.line_starts`,
    without listing every line of the file for one include)."""
    text = doc.text
    if "\r" in text:  # CR and CRLF end lines too: the document's own list knows them
        starts = doc.line_starts
        return starts[line_index] if line_index < len(starts) else None
    found: _LineStarts = ctx.once(("include-line-starts", doc.path), _LineStarts)
    return found.start(text, line_index)


class _LineStarts:
    """Where the lines of an LF-only text start, found as far as an include asked and kept for the
    run: a file's one include near its top lists none of the lines below it, and its includes
    together read it once (each search from the start of the file made 1,000 includes after 3.9
    million lines a minute's work)."""

    def __init__(self) -> None:
        self.starts = array("q", (0,))
        self.complete = False  # every line start is known

    def start(self, text: str, line_index: int) -> int | None:
        starts = self.starts
        while len(starts) <= line_index and not self.complete:
            at = text.find("\n", starts[-1]) + 1  # only LF ends a line here: line k starts after the k-th LF
            if at == 0:
                self.complete = True
            else:
                starts.append(at)
        return starts[line_index] if line_index < len(starts) else None


def _backslash_after(ctx: RuleContext, origin: Origin) -> bool:
    key = ("include-backslash-after", origin.path, origin.line, origin.ref.column, origin.ref.written)
    return ctx.once(key, lambda: _is_backslash_after(ctx, origin))


def _is_backslash_after(ctx: RuleContext, origin: Origin) -> bool:
    offset = at_offset(ctx, origin)
    if offset is None:
        return False
    after = offset + 1 + len(origin.ref.written)
    return ctx.document(origin.path).text[after : after + 1] == "\\"
