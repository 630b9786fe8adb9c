"""The check run: discover memory files, model loading once per start folder, run every selected
rule, stamp findings into violations, drop suppressed ones. A rule that crashes becomes an ML901
violation and the run goes on."""

from __future__ import annotations

import gc
import os
from array import array
from collections.abc import Container, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

from memlint import progress
from memlint.config import Config
from memlint.model.loading.discovery import MemoryFile, classify, discover, named_file, session_notes
from memlint.model.loading.loader import LoadedContext, load
from memlint.model.loading.settings import Launch
from memlint.model.loading.workspace import Workspace
from memlint.model.release import DEFAULT, Release
from memlint.model.run.rule_context import RuleContext
from memlint.model.source.pathorder import path_order
from memlint.model.source.residency import FileChanged
from memlint.model.text import tokens
from memlint.records import dataclass
from memlint.rules import Rule
from memlint.selection import Selection, select
from memlint.suppression import apply_suppressions
from memlint.violations import HEADLINE, Finding, Violation, headline

__all__ = ["NO_HOME", "NO_MANAGED", "Report", "RuleContext", "auto_memory", "build_context", "check", "run_rules",
           "start_folders"]

# Without --home, memlint models a machine with no user memory and no managed policy.
NO_HOME = Path("/nonexistent/memlint-no-home")
NO_MANAGED = Path("/nonexistent/memlint-no-managed")


@dataclass(frozen=True)
class Report:
    """A check's outcome: its findings, what was checked, and the release and HOME modelled."""

    violations: tuple[Violation, ...]
    files_checked: int
    roots: tuple[Path, ...]
    release: Release = DEFAULT  # the Claude Code release modelled
    home: Path | None = None  # the HOME modelled (None: the repository alone, `--no-home`)
    auto_memory: tuple[Path, ...] = ()  # the project's auto-memory folders under `home` (per root)
    notes: tuple[str, ...] = ()  # what the reader should know to read the findings (printed on stderr)

    @property
    def fixable(self) -> int:
        return sum(1 for v in self.violations if v.fix is not None)


START_NAMES = ("CLAUDE.md", "CLAUDE.local.md", "AGENTS.md")


def start_folders(roots: tuple[Path, ...], files: tuple[MemoryFile, ...], walked: Container[str] = ()) -> list[Path]:
    """The project roots, and every folder holding a CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md or
    AGENTS.md (sessions often start in a package). `walked`: folders this run's walk listed (they
    are folders; a file a fix holds in memory may lie in a folder that is not there)."""
    starts: dict[Path, None] = {r: None for r in roots if r.is_dir()}  # ordered, O(1) membership
    for f in files:
        if f.path.name not in START_NAMES:
            continue
        folder = f.path.parent
        if folder.name == ".claude":
            if f.path.name == "CLAUDE.local.md":
                continue
            folder = folder.parent
        elif f.path.name == "AGENTS.md" and folder.name.startswith("."):  # .github/AGENTS.md: no session starts there
            continue
        if folder not in starts and (str(folder) in walked or folder.is_dir()):
            starts[folder] = None
    return list(starts)


_SETTLING = False  # inside `settled_heap`


@contextmanager
def settled_heap() -> Iterator[None]:
    """Within the block, what a run has built so far is set aside from the cyclic garbage collector
    at each start folder and each rule (`gc.freeze`): the run keeps its model to the end, and each
    full collection would walk all of it again (a tenth of the time at 30,000 files, growing faster
    than the files). Reference counting still frees what is dropped; the block's end hands every
    object back to the collector, so a long-lived process (`--watch`, the API) keeps nothing."""
    global _SETTLING
    if _SETTLING:  # nested: the outer block settles
        yield
        return
    _SETTLING = True
    try:
        yield
    finally:
        _SETTLING = False
        gc.unfreeze()


def _settle() -> None:
    if _SETTLING:
        gc.freeze()


def _above(starts: list[Path], workspace: Workspace) -> set[str]:
    """Every folder above a start folder, as the loader names it (real paths; a folder named
    otherwise is only not recorded for replay, which costs time, never changes an answer)."""
    above: set[str] = set()
    for start in starts:
        try:
            folder = os.path.dirname(workspace.real_folder(os.path.abspath(start)))
        except (OSError, RuntimeError):
            continue
        while folder not in above:
            above.add(folder)
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
    return above


def build_context(
    paths: list[Path], config: Config, home: Path | None, workspace: Workspace | None = None,
    launch: Launch | None = None, *, named_indexes: frozenset[Path] = frozenset(),
    rules: Sequence[Rule] | None = None,
) -> RuleContext:
    """The run's model. `named_indexes`: MEMORY.md files the user named to `memlint fix`, judged
    auto-memory indexes whatever else memlint would make of them (`model.run.memory_identity`)."""
    selection = select(config, rules)  # the configuration, resolved once for the run
    release = config.release
    if launch is None:  # no launch given (the language server, the API): the configuration's
        launch = config.launch({})
    if home is None:  # no HOME modelled: no user settings either, wherever CLAUDE_CONFIG_DIR points
        launch = launch.without("CLAUDE_CONFIG_DIR")
    workspace = Workspace(release, config.limits) if workspace is None else workspace
    roots = tuple(Path(os.path.abspath(p)) for p in paths)  # `..` folded, as the files discovered are
    memory_dirs = list(config.memory_dirs)
    loads: dict[Path, LoadedContext] = {}
    named = {r for r in roots if named_file(r)}  # a file named on the command line is always checked
    files = [f for f in discover(list(roots), memory_dirs, config.respect_gitignore, workspace.walked)
             if f.path in named or not selection.excluded(f.path)]
    files = _with_pending(files, workspace)
    starts = start_folders(roots, tuple(files), workspace.walked)
    above = _above(starts, workspace)
    workspace.above_starts = above if workspace.above_starts is None else workspace.above_starts | above
    progress.COUNTS.starts_total += len(starts)
    for start in starts:
        # a root's deferred files (nested CLAUDE.md and AGENTS.md) are modelled too
        loads[start] = load(start, home or NO_HOME, workspace, NO_MANAGED, start in roots, release, launch)
        progress.COUNTS.starts_done += 1
        _settle()
    known = {f.path for f in files}
    if home is not None:  # the project's own auto-memory folder under HOME
        extra = [folder for folder in dict.fromkeys(ctx.automem_dir for ctx in loads.values()) if folder.is_dir()]
        if extra:
            files = _with_pending(files + [f for f in discover([], extra) if f.path not in known], workspace)
            known = {f.path for f in files}  # (a topic file a fix made there in memory counts too)
    project_dirs = sorted({c.automem_dir.parent for c in loads.values()}) if home is not None else []
    for path in session_notes(config.root, config.session_notes_paths, roots, project_dirs):
        if path not in known and not selection.excluded(path):
            files.append(MemoryFile(path, "session-notes"))
    selection = replace(selection, files=tuple(files))
    return RuleContext(selection, workspace, roots, selection.files, loads, home, {}, release, launch,
                       named_indexes=named_indexes)


def run_rules(ctx: RuleContext, rules: list[Rule] | None = None) -> list[Violation]:
    """Run `rules` (default: the selected ones) and return sorted, unsuppressed violations. The
    rules that look at the whole run run first, each in turn; then the rules that look at files one
    at a time, together, file by file. In that order the working memory of a whole-run rule (the
    cl100k table ML202 counts with, and tiktoken's 26 MiB of Rust tables when it builds them; handed
    back once freed) comes and goes before the per-file pass fills the run's text budget, not on
    top of it (the peak at 16,000 files: 5 MiB lower). The rules that count tokens (a `tokenizer`
    option) go first of all: their tables come and go on top of the model alone, before the
    other rules' facts are added to it (16,000 files: the peak while ML202 counts, 123 -> 116 MiB).

    What rules work out for themselves (`RuleContext.once`: a MEMORY.md's split plans, the include
    checks' answers) is kept while the rules of one family and of the next ask for it, then let go
    (`RuleContext.hand_over`): a family's facts do not pile up under the next families' and the
    per-file pass. A per-file rule's list of files is made when its family's whole-run rules start
    (they share its facts: the topic files, their folders), and the facts it needs are kept to the
    end of the run, so nothing is worked out twice.
    The order changes no finding (each rule reads the same model; findings are sorted)."""
    selection = _selection(ctx)
    selected = rules if rules is not None else list(selection.rules)
    violations: list[Violation] = []
    progress.COUNTS.rules_total += len(selected)
    per_file = [r for r in selected if r.per_file]
    listed: dict[int, Sequence[object]] = {}  # each per-file rule's items, by its place in `per_file`
    family = ""
    for rule in sorted(selected, key=_counts_tokens, reverse=True):  # stable: otherwise in code order
        if rule.per_file:
            continue
        if _family(rule) != family:
            family = _family(rule)
            ctx.hand_over()
            _list_files(ctx, [(i, r) for i, r in enumerate(per_file) if i not in listed and _family(r) == family],
                        listed)
        progress.COUNTS.rules_done += 1
        ctx.options = dict(selection.rule_options(rule))
        try:
            for finding in rule.check(ctx):
                violations.append(stamp(rule, finding))
        except FileChanged:
            raise  # what the run built no longer describes the file: no rule's findings hold
        except Exception as exc:  # noqa: BLE001 - one broken rule must not stop the run
            violations.append(_crashed(ctx, rule, exc))
        tokens.give_back()  # a rule that counted cl100k tokens is done with the encoding
        _settle()
    _run_per_file(ctx, per_file, violations, listed)
    violations = [v for v in violations if v.code not in selection.ignored(v.path)]
    violations = apply_suppressions(
        violations, ctx.workspace, "ML902" in selection.selected, tuple(f.path for f in ctx.files)
    )
    # one finding per (path, line, column, code), the first kept, as a set would; sorted by those
    # fields without a Violation comparison each time (100,000 findings: half the time)
    return sorted(dict.fromkeys(violations), key=lambda v: (path_order(v.path), v.line, v.column, v.code))


def _counts_tokens(rule: Rule) -> bool:
    """The rule counts tokens (ML202, ML406, ML407): its tokenizer's tables are large while it runs."""
    return "tokenizer" in rule.meta.options


def _family(rule: Rule) -> str:
    """The package of the rule's module: its family (`memlint.rules.automem`), or a plugin's own."""
    return str(getattr(rule.module, "__name__", "")).rpartition(".")[0]


# Files the per-file rules look at together before moving on: their texts stay within the run's
# text budget (model.source.residency) while every rule looks at them, so each is read once for all.
_WINDOW = 256


def _list_files(ctx: RuleContext, rules: list[tuple[int, Rule]], listed: dict[int, Sequence[object]]) -> None:
    """Make the lists of files of `rules` (per-file rules, by their place in the run's list), right
    after a hand-over: the facts asked for from here are what the lists need, kept to the end of the
    run (`RuleContext.kept`) for the per-file pass."""
    if not rules:
        return
    selection = _selection(ctx)
    for i, rule in rules:
        ctx.options = dict(selection.rule_options(rule))
        found = rule.files(ctx)
        listed[i] = found if isinstance(found, (list, tuple)) else list(found)
    ctx.kept = ctx.kept | frozenset(ctx.memo)


def _run_per_file(ctx: RuleContext, rules: list[Rule], violations: list[Violation],
                  listed: dict[int, Sequence[object]] | None = None) -> None:
    """Run the per-file rules a window of files at a time, each rule over its own files of the
    window in its own order: every rule sees what it would see alone, in the same order.
    `listed`: the rules' lists of files made already (`_list_files`), by their place in `rules`."""
    if not rules:
        return
    listed = {} if listed is None else listed
    ctx.hand_over()
    _list_files(ctx, [(i, r) for i, r in enumerate(rules) if i not in listed], listed)
    ctx.let_go()  # the whole-run rules' facts are let go: the per-file pass asks for the kept ones alone
    rank: dict[str, int] = {}  # each file's place: where the first rule that looks at it has it
    planned: dict[int, tuple[Sequence[object], array[int], Sequence[int]]] = {}  # by the list's id
    plans = []
    for i in range(len(rules)):
        items = listed[i]
        plan = planned.get(id(items))  # rules that share a run's list of files share its plan
        if plan is None:
            keys = [str(_item_file(item)) for item in items]
            for key in keys:
                rank.setdefault(key, len(rank))
            place = array("q", map(rank.__getitem__, keys))
            plan = planned[id(items)] = (items, place, _order(place))
        plans.append(plan)
    files = len(rank)
    selection = _selection(ctx)
    options = [dict(selection.rule_options(rule)) for rule in rules]
    cursors = [0] * len(rules)
    done_before = progress.COUNTS.rules_done
    for high in range(_WINDOW, files + _WINDOW, _WINDOW):
        # progress: these rules are done in the share of the files looked at so far
        looked_at = min(high - _WINDOW, files)
        progress.COUNTS.rules_done = done_before + len(rules) * looked_at // max(files, 1)
        for i, rule in enumerate(rules):
            items, place, order = plans[i]
            cursor = cursors[i]
            if cursor < 0:
                continue  # crashed
            ctx.options = options[i]
            check_file = rule.module.check_file
            try:
                while cursor < len(order) and place[order[cursor]] < high:
                    item = items[order[cursor]]
                    cursor += 1
                    for finding in check_file(ctx, item):
                        violations.append(stamp(rule, finding))
            except FileChanged:
                raise
            except Exception as exc:  # noqa: BLE001 - one broken rule must not stop the run
                file = _item_file(item)
                violations.append(_crashed(ctx, rule, exc, file if isinstance(file, Path) else None))
                cursor = -1
            cursors[i] = cursor
    progress.COUNTS.rules_done = done_before + len(rules)
    _settle()


def _selection(ctx: RuleContext) -> Selection:
    """The run's selection: the engine built the context, so it holds one."""
    selection = ctx.selection
    assert isinstance(selection, Selection), "a RuleContext made by build_context"
    return selection


def _order(ranks: array[int]) -> Sequence[int]:
    """The positions of a rule's items by their files' places (stable: a rule's own order of the
    items of one file is kept); most rules list files in their places' order already."""
    if all(a <= b for a, b in pairwise(ranks)):
        return range(len(ranks))
    return array("q", sorted(range(len(ranks)), key=ranks.__getitem__))


def _crashed(ctx: RuleContext, rule: Rule, exc: Exception, path: Path | None = None) -> Violation:
    """ML901 for a rule that raised: its findings so far stand, the rest are missing. It is reported
    on `path`, the file a per-file rule was looking at, else on the run's first file."""
    import traceback

    where = traceback.extract_tb(exc.__traceback__)[-1]
    if path is None:
        path = ctx.files[0].path if ctx.files else (ctx.roots[0] if ctx.roots else Path("."))
    message, detail = headline(f"rule {rule.code} ({rule.slug}) crashed: {type(exc).__name__}: {exc} "
                               f"at {Path(where.filename).name}:{where.lineno}; its findings are missing")
    return Violation(path, 1, 1, "ML901", "rule-crashed", "error", message, 1, 1, None, detail)


def _item_file(item: object) -> object:
    """The file an item of a per-file rule's list stands for: its `path` (a memory file, a topic
    file), else the item itself (a path)."""
    return getattr(item, "path", item)


def stamp(rule: Rule, finding: Finding) -> Violation:
    if finding.headline and len(finding.message.partition("\n")[0]) > HEADLINE:
        message, detail = headline(finding.headline)[0], finding.message
    else:
        message, detail = headline(finding.message)
    return Violation(
        finding.path,
        finding.line,
        finding.column,
        rule.code,
        rule.slug,
        finding.severity or rule.meta.severity,
        message,
        finding.end_line or finding.line,
        finding.end_column or finding.column,
        finding.fix,
        detail,
    )


def _with_pending(files: list[MemoryFile], workspace: Workspace) -> list[MemoryFile]:
    """Discovery sees the disk; during a fix loop, files a fix created or removed in memory count too."""
    if not workspace.created and not workspace.removed:
        return files
    kept = [f for f in files if f.path not in workspace.removed]
    known = {f.path for f in kept}
    index_dirs = {f.path.parent for f in kept if f.role == "automem-index"}
    for path in sorted(workspace.created - known):
        role = classify(path)
        if role is None and path.suffix == ".md" and path.parent in index_dirs:
            role = "topic"
        if role is not None:
            kept.append(MemoryFile(path, role))
    return sorted(kept, key=lambda f: f.path)


def check(
    paths: list[Path], config: Config, home: Path | None = None, workspace: Workspace | None = None,
    launch: Launch | None = None,
) -> Report:
    with settled_heap():
        ctx = build_context(paths, config, home, workspace, launch)
        # The loader's facts (what it shares between start folders: settings read, folders found
        # missing; the walk's listings stay, in `Workspace.walked`) are let go once every start
        # folder is modelled: the rules ask for a few of them again (whether a start folder holds
        # `.git`), which are worked out again (16,000 files: 5 MiB of the peak). A long-lived
        # workspace (the language server's) keeps them.
        ctx.workspace.memo.clear()
        report = Report(tuple(run_rules(ctx)), len(ctx.files), ctx.roots, ctx.release, home, auto_memory(ctx))
        ctx.let_go()  # the run's facts may hold its context: dropped, the model is freed with it
        ctx.memo = {}
        if workspace is None:  # the run's own: nothing reads it once the report is made
            ctx.workspace.close()
        return report


def auto_memory(ctx: RuleContext) -> tuple[Path, ...]:
    """The auto-memory folders Claude Code uses for the run's roots (none without a HOME)."""
    if ctx.home is None:
        return ()
    found = {ctx.loads[r].automem_dir: None for r in ctx.roots if r in ctx.loads}
    if not found:  # files named on the command line: the folders their start folders use
        found = {loaded.automem_dir: None for loaded in ctx.loads.values()}
    return tuple(found)
