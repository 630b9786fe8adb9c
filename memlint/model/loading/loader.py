"""Claude Code's memory loading, in one place (../shared/spec/claude-code-loading.md, sections 1-5).

`load(start, home)` answers what Claude Code 2.1.x puts into the model's context when started in
`start`: which files, in what order, with what text, and why every other file it considered was
left out. Every rule and `memlint context` ask this module; nothing else re-derives loading.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from memlint.model.cli_js.globs import picomatch
from memlint.model.cli_js.jstext import js_trim
from memlint.model.loading.chain import Parts
from memlint.model.loading.deferred import FAMILY_NAMES, defer_nested, would_load
from memlint.model.loading.facts import TEXT_EXTENSIONS, Facts, file_facts, include_target
from memlint.model.loading.guards import process_file, special_folder
from memlint.model.loading.held_rules import conditional_rules
from memlint.model.loading.loaded import (
    DeferReason,
    Deferred,
    Kind,
    LoadedContext,
    LoadedFile,
    Origin,
    Skipped,
    agent_texts,
    loaded_text,
    speaking_folder,
)
from memlint.model.loading.prefix import Node, Walk, chain, walk_files
from memlint.model.loading.replay import Recorder
from memlint.model.loading.settings import (
    Launch,
    Mode,
    Settings,
    automem_dir_name,
    read_settings,
)
from memlint.model.loading.walkpaths import (
    FOLDER_NAMES,
    PRUNED_FOLDERS,
    child,
    folder_paths,
    joined,
    probe,
    project_automem_folder,
    real_folder_path,
)
from memlint.model.loading.workspace import Workspace, surely_absent
from memlint.model.memory.automem import truncate_index
from memlint.model.release import DEFAULT, Release
from memlint.model.source.gitroot import GitRoots, git_roots
from memlint.model.source.limits import LimitHit
from memlint.model.text.markdown import _is_net_path

__all__ = [
    "MANAGED_DIR", "MAX_DEPTH", "PRUNED_FOLDERS", "TEXT_EXTENSIONS", "DeferReason", "Deferred", "Kind",
    "LoadedContext", "LoadedFile", "Origin", "Skipped", "include_target", "load",
]

MAX_DEPTH = 5
MANAGED_DIR = Path("/etc/claude-code")


class _Loader(Recorder):
    """One loading: what Claude Code reads from one start folder (steps shared via Recorder)."""

    # the folder steps of a Read below the start folder (memlint.model.loading.reads), not of the start
    reading: bool = False
    in_rule: bool = False  # processing a rule file and its includes (`rule_file`)

    def facts(self, path: str) -> Facts:
        """What does not depend on the start folder, computed once per path and run (`file_facts`)."""
        return file_facts(self.workspace, self.home, path)

    def refused(self, path: str, kind: Kind, absent: bool = False) -> tuple[str, str] | None:
        """(reason, detail) when the release never reads `path` whatever it holds, else None
        (`absent`: the path is known not to exist, so it resolves to itself)."""
        release = self.release
        if not (release.special_folders_skipped or release.process_files_skipped or release.read_deny_withholds):
            return None
        resolved = path if absent else self.workspace.realpath(path)[0]
        linked = resolved != path  # the resolved path asked again only when it differs (the same answer)
        if release.special_folders_skipped:
            why = special_folder(path) or (special_folder(resolved) if linked else None)
            if why is not None:
                return "special-folder", why
        if release.process_files_skipped and (process_file(path) or (linked and process_file(resolved))):
            return "process-file", "it names a device or process file, which Claude Code does not read"
        if release.read_deny_withholds and self.settings.deny and kind in ("project", "local"):
            rule = self.settings.denied(path) or self.settings.denied(resolved)
            if rule is not None:
                return "read-denied", f"the Read deny rule {rule.written!r} in {rule.settings} covers it"
        return None

    def _own_link(self, folder: str, resolved: str) -> bool:
        """Whether `folder` itself is a symlink (not only a folder above it)."""
        return posixpath.join(self.workspace.realpath(posixpath.dirname(folder))[0], posixpath.basename(folder)) != resolved

    def outside(self, path: str, resolved: str) -> bool:
        """C12: a symlink whose resolved target lies outside the start folder is external."""
        return (self.release.symlinks_resolved_external and resolved != path
                and not self.within_start(resolved))

    def process(
        self, path: str, kind: Kind, external_ok: bool, depth: int = 0, origin: Origin | None = None,
        absent: bool = False,
    ) -> list[LoadedFile]:
        """Claude Code's processMemoryFile: the file, then its includes depth first. `absent`: the
        walk's probe found nothing at `path` (see `folder_missing`), so it is marked as processed, as
        a missing file is, without being read."""
        key = posixpath.normpath(path)
        if self.seen(key):
            if origin is not None:
                self.skip(path, "duplicate", kind, origin, "already loaded earlier")
            if self.in_rule:  # a rule, or a rule's include, met again (`defer_again`)
                self.defer_again(path, kind)
            return []
        if depth >= MAX_DEPTH:
            self.skip(path, "too-deep", kind, origin, f"include level {depth}; Claude Code stops at level 4")
            return []
        if kind in ("user", "project", "local") and self.excludes and picomatch(path, self.excludes):
            self.skip(path, "excluded", kind, origin, "matches claudeMdExcludes")
            return []
        if _is_net_path(path):
            return []
        refused = self.refused(path, kind, absent)
        if refused is not None:
            if origin is not None or self.workspace.document(path).readable:
                self.skip(path, refused[0], kind, origin, refused[1])
            return []
        if absent and origin is None:  # what the facts of a missing file lead to, without a read
            self.mark(key)
            return []
        facts = self.facts(path)
        if facts.is_symlink:
            real_key = posixpath.normpath(facts.resolved)
            if self.seen(real_key):
                if origin is not None:
                    self.skip(path, "duplicate", kind, origin, f"same file as {facts.resolved}, already loaded")
                return []
            self.mark(real_key)
        self.mark(key)
        if facts.skip is not None:
            reason, detail = facts.skip
            if origin is not None or reason != "missing":
                self.skip(path, reason, kind, origin, detail)
            return []
        result = [LoadedFile(facts.path, kind, depth, facts.document, origin, None, facts.globs)]
        for target, ref in facts.includes:
            child_origin = Origin(facts.path, ref.line, ref)
            if not external_ok:
                if not self.within_start(target):
                    self.skip_external(target, kind, child_origin)
                    continue
                real = self.workspace.realpath(target)[0]
                if self.outside(target, real):
                    self.skip_external(target, kind, child_origin, f"a symlink to {real}, ")
                    continue
            result.extend(self.process(target, kind, external_ok, depth + 1, child_origin))
        return result

    def rules(self, folder: str, kind: Kind, external_ok: bool, visited: set[str] | None = None,
              walked: str | None = None) -> list[LoadedFile]:
        """Claude Code's processMdRules (unconditional pass): conditional rules are deferred. `walked`:
        the path the walk reached `folder` by, through a symlinked folder (a rule is refused when the
        path it was reached by is, or its real path: a Read deny rule on `.claude/rules/**` withholds a
        rule in a linked subfolder too)."""
        visited = set() if visited is None else visited
        walked = folder if walked is None else walked
        if folder in visited:
            return []
        resolved, is_symlink = self.workspace.realpath(folder)
        # before 2.1.284 only a link at the rules folder itself or at an entry counted, not a linked
        # `.claude` above it: the entries were judged by their real paths (`dotclaude_link_rules_external`)
        whole_path = self.release.dotclaude_link_rules_external
        if not external_ok and kind in ("project", "local") and self.outside(folder, resolved) and (
                whole_path or self._own_link(folder, resolved)):
            if self.workspace.listing(resolved):
                self.skip_external(folder, kind, None, f"a symlink to {resolved}, ")
            return []
        listed_as = folder if whole_path else resolved
        visited.add(folder)
        if is_symlink:
            visited.add(resolved)
        entries = self.workspace.listing(resolved)  # directory order, unsorted, as Claude Code reads it
        out: list[LoadedFile] = []
        for name, is_dir, is_file in entries or ():
            target, _linked = self.workspace.realpath(posixpath.join(folder, name))
            if not external_ok and kind in ("project", "local") and self.outside(posixpath.join(listed_as, name), target):
                self.skip_external(posixpath.join(folder, name), kind, None, f"a symlink to {target}, ")
                continue
            reached = posixpath.join(walked, name)
            if is_dir:
                out.extend(self.rules(target, kind, external_ok, visited, reached))
            elif is_file and name.endswith(".md"):
                for loaded in self.rule_file(reached, target, kind, external_ok):
                    if loaded.globs:
                        self.defer(Deferred(loaded.path, "conditional-rule", kind, loaded.globs, loaded.origin))
                    else:
                        out.append(loaded)
        return out

    def rule_file(self, reached: str, target: str, kind: Kind, external_ok: bool) -> list[LoadedFile]:
        """One rule file and its includes, reached by the path `reached` (through linked folders) and
        read at its real path `target`: excluded or refused by the path it was reached by too."""
        if reached != target and self.release.excludes_match_reached_path and self.excludes and (
                picomatch(reached, self.excludes)):
            self.skip(target, "excluded", kind, None, f"matches claudeMdExcludes as {reached}")
            return []
        refused = self.refused(reached, kind) if reached != target else None
        if refused is not None:  # by the path it was reached by (its real path: `process`)
            if self.workspace.document(target).readable:
                self.skip(target, refused[0], kind, None, refused[1])
            return []
        self.in_rule, outer = True, self.in_rule
        try:
            return self.process(target, kind, external_ok)
        finally:
            self.in_rule = outer

    def defer_again(self, path: str, kind: Kind) -> None:
        """A rule, or a rule's include, that loaded earlier: before `read_skips_files_loaded_at_start` a
        Read whose path its `paths:` match attaches it again, so it is deferred as a conditional rule
        (`rr28_read_conditional_rule_loaded_as_include`, `rr29_read_rule_include_loaded_at_start`)."""
        if self.release.read_skips_files_loaded_at_start:
            return
        facts = self.facts(path)
        if facts.skip is None and facts.globs:
            key = posixpath.normpath(facts.path)
            if not any(posixpath.normpath(d.path) == key for d in self.deferred):  # met as a rule already: once
                self.defer(Deferred(facts.path, "conditional-rule", kind, facts.globs))

    def holds_memory(self, folder: Path) -> bool:
        """Whether the folder holds any name the walk reads (decided once per folder and run, and
        shared by every start folder below it: most ancestors hold nothing)."""
        key = ("holds-memory", str(folder))
        known = self.workspace.memo.get(key)
        if known is None:
            # names probed one by one, not the folder listed: an ancestor such as HOME or /tmp gains
            # files all the time, and a listing would make every cached run look stale
            # (inside the checked folders, the walk's listings say most names are not there)
            walked = self.workspace.walked
            names, missing = probe(folder, ("CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", ".claude"),
                                   walked.get(str(folder)))
            inner_names = ("CLAUDE.md", "rules", "AGENTS.md")
            inner, inner_missing = probe(folder / ".claude", inner_names, walked.get(str(folder / ".claude"))) \
                if ".claude" in names else (set(), set())
            if ".claude" in missing:  # no .claude/: nothing below it either
                inner_missing = set(inner_names)
            known = bool(names & {"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md"} or inner & {"CLAUDE.md", "rules", "AGENTS.md"})
            dot = folder / ".claude"
            known = known or any(p.parent == folder or dot in p.parents for p in self.workspace.created)
            self.workspace.memo[key] = known
            self.workspace.memo[("folder-missing", str(folder))] = frozenset(
                missing | {".claude/" + n for n in inner_missing})
        return bool(known)

    def folder_missing(self, folder: Path) -> frozenset[str]:
        """Which of CLAUDE.md, CLAUDE.local.md, AGENTS.md, .claude, .claude/CLAUDE.md, .claude/rules and
        .claude/AGENTS.md the probe of `holds_memory` found certainly not there in `folder` (asked
        after it); none when a fix holds files in memory that the disk does not show."""
        if self.workspace.created:
            return frozenset()
        found = self.workspace.memo.get(("folder-missing", str(folder)))
        return found if isinstance(found, frozenset) else frozenset()

    def folder(self, folder: Path, external_ok: bool, sources: frozenset[str] | None = None) -> list[LoadedFile]:
        """One folder of the walk: CLAUDE.md, .claude/CLAUDE.md, its rules, CLAUDE.local.md, of the
        `sources` read (default: the `--setting-sources` of the settings)."""
        if not self.holds_memory(folder):
            return []
        # one step per file and per rules folder: a start that sees an ancestor's include as
        # external still shares that ancestor's rules
        claude, dot, rules, local = folder_paths(self.workspace, folder)
        above = self.workspace.above_starts
        shared = above is None or str(folder) in above
        # a name the probe did not find is not read: a missing file is only marked as processed and
        # a missing rules folder gives nothing (most folders of a tree have no .claude/ and no
        # CLAUDE.local.md: reading them was a fifth of the loader's time)
        missing = self.folder_missing(folder)
        # `--setting-sources`: a source left out is not read at all
        sources = self.settings.sources if sources is None else sources
        if self.worktree is not None and self.worktree.skips_project_files(folder):
            from memlint.model.loading.nested_worktree import main_repository_folder

            return main_repository_folder(self, folder, external_ok, missing, shared, sources)
        no_claude, no_dot, no_rules, no_local = (name in missing for name in FOLDER_NAMES)
        files: list[LoadedFile] = []
        if "project" in sources:
            files += self.step(("process", claude), external_ok,
                               lambda: self.process(claude, "project", external_ok, absent=no_claude), shared)
            files += self.step(("process", dot), external_ok,
                               lambda: self.process(dot, "project", external_ok, absent=no_dot), shared)
            files += self.step(("rules", rules), external_ok,
                               lambda: [] if no_rules else self.rules(rules, "project", external_ok), shared)
        elif not (no_rules or self.release.conditional_rules_follow_sources):
            if self.reading:  # a Read's folder gave all its rules, whatever the sources (rr16 in tests/differential)
                files += self.step(("rules", rules), external_ok, lambda: self.rules(rules, "project", external_ok), shared)
            else:
                files += self.step(("conditional-rules", rules), external_ok,
                                   lambda: conditional_rules(self, rules), shared)
        if "local" in sources:
            files += self.step(("process", local), external_ok,
                               lambda: self.process(local, "local", external_ok, absent=no_local), shared)
        return files

    def agents(self, folder: Path, external_ok: bool, texts: set[str], fallback: bool) -> list[LoadedFile]:
        """C01/C06: a folder's AGENTS.md then .claude/AGENTS.md, each with its includes, unless its
        trimmed text equals a loaded project/local file's (`texts`, see `agent_texts`; in fallback
        mode only rules can be loaded)."""
        out: list[LoadedFile] = []
        if self.worktree is not None and self.worktree.skips_project_files(folder):
            return out  # the main repository's copies, above a nested worktree (as its CLAUDE.md)
        for path in (folder / "AGENTS.md", folder / ".claude" / "AGENTS.md"):
            facts = self.facts(str(path)) if self.workspace.document(path).readable else None
            if facts is not None and facts.skip is None and loaded_text(facts.document) in texts:
                self.skip(str(path), "duplicate", "project", None,
                          "its text equals a loaded file's" + (" rule" if fallback else ""))
                self.mark(posixpath.normpath(str(path)))
                continue
            out += self.process(str(path), "project", external_ok)
        return out

    @contextmanager
    def set_aside(self, name: str) -> Iterator[None]:
        """What the steps inside record as skipped or deferred (`name`) is dropped: a walk run for its
        deferred rules alone, an added folder whose conditional rules never arrive."""
        kept = getattr(self, name)
        setattr(self, name, Parts())
        try:
            yield
        finally:
            setattr(self, name, kept)

    def forget_held_rules(self) -> None:
        """Forget the conditional rules the walk met and held back: the AGENTS.md plugin reads its files
        against what loaded, not against what the walk met, so its include of such a rule loads it
        (`ag79_agents_include_conditional_rule`; a CLAUDE.local.md's include of it does not)."""
        for held in self.deferred:
            if held.reason == "conditional-rule":
                path = str(held.path)
                self.processed.discard(posixpath.normpath(path))
                self.processed.discard(posixpath.normpath(self.workspace.realpath(path)[0]))

    agents_mode: Mode | None = None  # set by load(): None when AGENTS.md is never read
    worktree: GitRoots | None = None  # set by load() for a worktree nested in its main repository
    claude_md_at_start: bool = False


def _family_on_disk(loader: _Loader, last: Node, taken: set[str]) -> Path | None:
    """C01: the AGENTS.md plugin looks for a CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md in the walked
    folders afresh (its `$.fs.ancestors`, each read as a project file), so one that did not load as its
    folder's own file still counts when it would load on its own: it loaded earlier as an include (of a
    user file, of a rule), or a rule's include of it was held back for its `paths:`. The managed and the
    user CLAUDE.md (`taken`; `HOME/.claude/CLAUDE.md` in a walk below HOME) do not count. The first one
    found, top first, or None."""
    taken = {posixpath.normpath(p) for p in taken}
    for node in chain(last):
        folder = node.folder
        if folder is None or not loader.holds_memory(folder) or (
                loader.worktree is not None and loader.worktree.skips_project_files(folder)):
            continue
        missing = loader.folder_missing(folder)
        for name in FAMILY_NAMES:
            path = posixpath.join(str(folder), name)
            if name not in missing and posixpath.normpath(path) not in taken and would_load(loader, path):
                return Path(path)
    return None


def _folder_of(path: str) -> str:
    """The folder a loaded file belongs to, as the AGENTS.md plugin reckons it (its `lLn`)."""
    return speaking_folder(posixpath.dirname(path))


def _top(item: LoadedFile, by_path: dict[str, LoadedFile]) -> str:
    """The path of the file at the top of `item`'s include chain (the plugin's `Eeo`)."""
    seen = {str(item.path)}
    top = str(item.path)
    parent = str(item.origin.path) if item.origin is not None else None
    while parent is not None and parent not in seen:
        seen.add(parent)
        top = parent
        above = by_path.get(parent)
        parent = str(above.origin.path) if above is not None and above.origin is not None else None
    return top


def place_agents(files: list[LoadedFile], agents: list[LoadedFile]) -> list[LoadedFile]:
    """C02: where the AGENTS.md plugin splices the AGENTS files (with their includes) into the list
    loaded at start (its `Kts`/`Oci`, read from the 2.1.332 bundle and checked with the CLI). The files
    of each folder D's AGENTS files go right before the first project or local file whose folder
    (`_folder_of` the top of its include chain, so a rule shown by its real path belongs to the folder
    it lies in) is strictly below D; when there is none, after the last project or local file; else at
    the end (before MEMORY.md)."""
    if not agents:
        return files
    out = list(files)
    by_agent = {str(f.path): f for f in agents}
    groups: dict[str, list[LoadedFile]] = {}
    for item in agents:
        groups.setdefault(_folder_of(_top(item, by_agent)), []).append(item)
    for folder, group in groups.items():
        by_path = {str(f.path): f for f in out}
        own = [i for i, f in enumerate(out) if f.kind in ("project", "local")]
        below = next((i for i in own if _folder_of(_top(out[i], by_path)).startswith(folder.rstrip("/") + "/")), None)
        at = below if below is not None else (own[-1] + 1 if own else len(out))
        out[at:at] = group
    return out


def load(
    start: Path,
    home: Path,
    workspace: Workspace | None = None,
    managed_dir: Path = MANAGED_DIR,
    include_nested: bool = True,
    release: Release = DEFAULT,
    launch: Launch | None = None,
) -> LoadedContext:
    """What Claude Code loads at start in `start` with HOME `home` (both made absolute and real),
    launched with `launch` (its `--settings` file and environment; default none)."""
    launch = Launch() if launch is None else launch
    workspace = Workspace(release) if workspace is None else workspace
    start = real_folder_path(workspace, start)
    home = real_folder_path(workspace, home)
    roots = git_roots(start, workspace.memo, release.worktree_relative_links,
                      lambda folder: bool(surely_absent(workspace.walked.get(folder), (".git",))))
    project_root = roots.canonical if roots is not None else start
    reads = workspace.memo.setdefault(("settings-reads",), {})
    assert isinstance(reads, dict)
    settings = _within_limits(workspace, read_settings(start, home, project_root, release, managed_dir, launch, reads,
                                                       workspace.walked.get(str(start))))
    loader = _Loader(start, home, workspace, settings, release)
    nested = roots if roots is not None and roots.nested_worktree else None
    loader.worktree = nested
    approved = settings.external_includes_approved
    mode: Mode | None = settings.mode if release.agents_md and settings.agents_plugin_enabled else None
    files: list[LoadedFile] = []
    managed, managed_rules = joined(workspace, managed_dir, "CLAUDE.md", ".claude/rules")
    user_dir = settings.config_dir or child(workspace, home, ".claude")

    def user_files() -> list[LoadedFile]:
        out: list[LoadedFile] = []
        if "user" in settings.sources:
            user, user_rules = joined(workspace, user_dir, "CLAUDE.md", "rules")
            out += loader.step(("user", user), True, lambda: loader.process(user, "user", True))
            out += loader.step(("user-rules", user_rules), True, lambda: loader.rules(user_rules, "user", True))
        return out

    def before() -> list[LoadedFile]:
        """The managed files, then (unless the plugin's managed-only mode, C04) the user's."""
        out = loader.step(("managed", managed), approved, lambda: loader.process(managed, "managed", approved))
        out += loader.step(("managed-rules", managed_rules), approved,
                           lambda: loader.rules(managed_rules, "managed", approved))
        return out if mode == "managed-only" else out + user_files()

    kept_out_by: Path | None = None  # the CLAUDE.md family file that keeps AGENTS.md out (fallback mode)
    skipped_roots = settings.automount_roots  # `/` is not visited
    key = (loader.step_tag, approved, str(managed_dir), str(user_dir), skipped_roots, nested)
    if mode == "managed-only":  # C04: the plugin's managed-only mode drops user, project and local files
        files += before()
        # ... at start only: what arrives on a Read arrives as in any mode, the conditional rules of the
        # user and of the walk included (rr25_read_in_managed_only_mode), so the walk runs for them alone
        with loader.set_aside("skipped"):
            Walk(loader, (*key, "managed-only"), workspace.above_starts, skipped_roots).last(
                start, user_files, lambda folder: loader.folder(folder, approved))
    else:
        last = Walk(loader, key, workspace.above_starts, skipped_roots).last(
            start, before, lambda folder: loader.folder(folder, approved))
        family = last.family
        if family is None and mode == "claude-md-or-agents-md":
            family = _family_on_disk(loader, last, {str(managed), posixpath.join(str(user_dir), "CLAUDE.md")})
        loader.claude_md_at_start = family is not None
        kept_out_by = family if mode == "claude-md-or-agents-md" else None  # (only fallback mode keeps it out)
        loader.agents_mode = mode
        read_agents = mode == "claude-md-and-agents-md" or (
            mode == "claude-md-or-agents-md" and not loader.claude_md_at_start)
        if not read_agents:
            files += walk_files(last)
            files += _added_folders(loader, settings, approved)
        else:
            walk = chain(last)
            files += walk[0].own
            texts = agent_texts(f for node in walk[1:] for f in node.own)
            files += [f for node in walk[1:] for f in node.own]
            groups = []
            loader.forget_held_rules()
            for node in walk[1:]:
                assert node.folder is not None
                groups.append(loader.agents(node.folder, approved, texts, mode == "claude-md-or-agents-md"))
            files += _added_folders(loader, settings, approved)
            files = place_agents(files, [f for group in groups for f in group])
    name = automem_dir_name(release, launch)
    memory_dir = settings.auto_memory_dir or project_automem_folder(workspace, home, project_root, settings.config_dir, name)
    if settings.auto_memory_enabled:  # settings `env` and the real environment included
        index = child(workspace, memory_dir, "MEMORY.md")  # the same file for every start folder of a project: shared
        files += loader.step(("index", str(index)), True, lambda: [
            f for f in [_load_index(loader, index, release)] if f is not None])
    if include_nested:
        defer_nested(loader)
    return LoadedContext(
        start, home, project_root, memory_dir, tuple(files), loader.skipped.build(), loader.deferred.build(),
        settings.excludes, release, settings, kept_out_by,
    )


def _added_folders(loader: _Loader, settings: Settings, approved: bool) -> list[LoadedFile]:
    """The memory files of each `--add-dir` folder, in order, after the walk's (with
    CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD): its CLAUDE.md, `.claude/CLAUDE.md`, rules and
    CLAUDE.local.md as a walk folder's, never its folders above, its AGENTS.md, its settings or its
    nested files; a folder that is not there gives nothing. `--setting-sources` gates its
    CLAUDE.local.md (the local source) but not its project files; its conditional rules are never
    attached (`ad01`-`ad10` in tests/differential)."""
    out: list[LoadedFile] = []
    if not settings.add_dirs:
        return out
    sources = settings.sources | {"project"}
    with loader.set_aside("deferred"):  # its conditional rules never arrive on a Read (ad10)
        for folder in settings.add_dirs:
            real = real_folder_path(loader.workspace, folder)
            if real.is_dir():
                out += loader.folder(real, approved, sources)
    return out


def _within_limits(workspace: Workspace, settings: Settings) -> Settings:
    """`settings` with no more `claudeMdExcludes` patterns than memlint's `max-excludes` (each one
    is compiled and tried on every memory file; a settings file of 100,000 took minutes)."""
    limit = workspace.limits.max_excludes
    if len(settings.excludes) <= limit:
        return settings
    holders = [f.path for f in settings.files if isinstance(f.data.get("claudeMdExcludes"), list)]
    where = holders[-1] if holders else Path("settings.json")
    workspace.note_limit(LimitHit(
        where, "max-excludes", limit,
        f"{len(settings.excludes) - limit:,} more `claudeMdExcludes` patterns are not applied, so memlint may count "
        "as loaded a file that one of them keeps out (Claude Code has no such limit and applies them all)"))
    return replace(settings, excludes=settings.excludes[:limit])


def _load_index(loader: _Loader, path: Path, release: Release) -> LoadedFile | None:
    """MEMORY.md: frontmatter and comments removed, truncated (with `release`'s WARNING line and,
    from 2.1.284, sanitised), its `@` paths never followed."""
    key = posixpath.normpath(str(path))
    if loader.seen(key):
        return None
    doc = loader.workspace.document(path)
    if not doc.readable:
        if doc.problem is not None and doc.problem.reason != "not-found":
            loader.skip(str(path), doc.problem.reason, "automem", None, doc.problem.detail)
        return None
    loader.mark(key)
    truncation = truncate_index(doc.loaded, release)
    if not js_trim(truncation.content):
        loader.skip(str(path), "empty", "automem", None, "nothing left after frontmatter and comments")
        return None
    return LoadedFile(path, "automem", 0, doc, None, truncation)
