"""Start folders share what their ancestors contribute (memlint.model.loading.replay): loading many start
folders through one workspace must give exactly what loading each alone gives, in any order."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from memlint.model.loading.chain import Chain, Parts
from memlint.model.loading.loader import LoadedContext, load
from memlint.model.loading.workspace import Workspace
from memlint.model.release import pick


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _tree(root: Path) -> list[Path]:
    """A monorepo whose ancestors' answers change with the start folder: includes inside one start
    and outside another, duplicates, a rules symlink that leaves the tree (C12), conditional rules."""
    repo = root / "repo"
    _write(repo / "CLAUDE.md", "# Root\n\n@docs/a.md\n@pkg/b.md\n@pkg/sub/c.md\n@~/home-note.md\n")
    _write(repo / "docs" / "a.md", "# A\n\nDoc a.\n")
    _write(repo / "pkg" / "b.md", "# B\n\nDoc b.\n")
    _write(repo / "pkg" / "sub" / "c.md", "# C\n\nDoc c.\n")
    _write(repo / "pkg" / "CLAUDE.md", "# Pkg\n\n@b.md\n@../docs/a.md\n@sub/c.md\n")
    _write(repo / "pkg" / "sub" / "CLAUDE.local.md", "# Local\n\n@c.md\n@../b.md\n")
    _write(repo / "pkg" / "other" / "AGENTS.md", "# Agents\n\nUse the tests.\n")
    _write(repo / ".claude" / "rules" / "always.md", "# Always\n\nBe brief.\n")
    _write(repo / ".claude" / "rules" / "ts.md", "---\npaths:\n  - \"**/*.ts\"\n---\n# TS\n\nStrict.\n")
    _write(root / "elsewhere" / "linked.md", "# Linked\n\nFrom outside.\n")
    os.symlink(root / "elsewhere" / "linked.md", repo / ".claude" / "rules" / "linked.md")
    os.symlink(repo / "docs" / "a.md", repo / "pkg" / "a-link.md")
    _write(repo / "pkg" / ".claude" / "CLAUDE.md", "# Pkg dot\n\n@../a-link.md\n")
    _write(root / "home" / "home-note.md", "# Home\n\nNote.\n")
    return [repo, repo / "pkg", repo / "pkg" / "sub", repo / "pkg" / "other", repo / "docs"]


def _shape(ctx: LoadedContext) -> Any:
    files = [(f.path, f.kind, f.depth, f.content, f.origin, f.globs) for f in ctx.files]
    return files, ctx.skipped, ctx.deferred


@pytest.mark.parametrize("version", ["2.1.197", "2.1.332"])
@pytest.mark.parametrize("order", ["root-first", "deepest-first"])
def test_shared_workspace_loads_like_separate_ones(tmp_path: Path, version: str, order: str) -> None:
    starts = _tree(tmp_path)
    release = pick(version)
    home, managed = tmp_path / "home", tmp_path / "no-managed"
    alone = {s: _shape(load(s, home, Workspace(release), managed, True, release)) for s in starts}
    shared = Workspace(release)
    for start in (starts if order == "root-first" else starts[::-1]) * 2:
        assert _shape(load(start, home, shared, managed, True, release)) == alone[start], start


def test_replayed_external_skip_names_its_own_start(tmp_path: Path) -> None:
    starts = _tree(tmp_path)
    shared = Workspace()
    details = {}
    for start in starts[1:3]:
        ctx = load(start, tmp_path / "home", shared, tmp_path / "no-managed")
        details[start] = {ctx.detail(s) for s in ctx.skipped if s.reason == "external" and s.path.name == "a.md"}
    assert details[starts[1]] == {f"outside {starts[1]}"}
    assert details[starts[2]] == {f"outside {starts[2]}"}


def test_ancestor_files_are_shared_not_recreated(tmp_path: Path) -> None:
    starts = _tree(tmp_path)
    shared = Workspace()
    first = load(starts[3], tmp_path / "home", shared, tmp_path / "no-managed")
    second = load(starts[4], tmp_path / "home", shared, tmp_path / "no-managed")
    rule = [f for f in first.files if f.path.name == "always.md"]
    assert rule and any(f is rule[0] for f in second.files)
    ts = next(d for d in first.deferred if d.path.name == "ts.md")
    assert any(d is ts for d in second.deferred)
    # not only the objects: the root's list of them is one tuple held by both start folders
    third = load(starts[2], tmp_path / "home", shared, tmp_path / "no-managed")
    holding = [next(s for s in ctx.deferred.segments if ts in s) for ctx in (second, third)]
    assert holding[0] is holding[1]


def test_a_chain_is_the_sequence_of_its_segments() -> None:
    parts: Parts[int] = Parts()
    parts.append(1)
    parts.share((2, 3))
    parts.share(())
    parts.extend([4, 5])
    assert list(parts) == [1, 2, 3, 4, 5] and len(parts) == 5 and parts[1:3] == (2, 3)
    chain = parts.build()
    assert chain.segments == ((1,), (2, 3), (4, 5))
    assert list(chain) == [1, 2, 3, 4, 5] and len(chain) == 5 and bool(chain)
    assert [chain[i] for i in range(-5, 5)] == [1, 2, 3, 4, 5, 1, 2, 3, 4, 5]
    assert chain[1:4] == (2, 3, 4) and 4 in chain and chain.index(3) == 2
    assert chain == (1, 2, 3, 4, 5) and chain == Chain([(1, 2), (3, 4, 5)]) and chain != (1, 2)
    assert hash(chain) == hash(Chain([(1, 2, 3, 4, 5)]))
    assert not Chain() and len(Chain([(), ()])) == 0
    with pytest.raises(IndexError):
        chain[5]


def test_an_ancestor_that_answers_differently_for_every_start(tmp_path: Path) -> None:
    """A root CLAUDE.md including a file in each of many packages: each package start sees a
    different include as inside; past MAX_VARIANTS the step runs afresh, with the same result."""
    from memlint.model.loading.replay import MAX_VARIANTS

    repo = tmp_path / "repo"
    count = MAX_VARIANTS + 4
    _write(repo / "CLAUDE.md", "# Root\n\n" + "".join(f"@pkg{i}/notes.md\n" for i in range(count)))
    for i in range(count):
        _write(repo / f"pkg{i}" / "CLAUDE.md", f"# Package {i}\n\nBuild with make.\n")
        _write(repo / f"pkg{i}" / "notes.md", f"# Notes {i}\n\nNote.\n")
    starts = [repo / f"pkg{i}" for i in range(count)]
    home, managed = tmp_path / "home", tmp_path / "no-managed"
    shared = Workspace()
    for start in starts:
        got = _shape(load(start, home, shared, managed))
        assert got == _shape(load(start, home, Workspace(), managed)), start
        assert [f.path.name for f in load(start, home, shared, managed).files] == ["CLAUDE.md", "notes.md", "CLAUDE.md"]


def _reference_defer_nested(loader: Any) -> None:
    """The walk `defer_nested` replaced: every start folder walks its whole subtree."""
    from memlint.model.loading.deferred import Deferred, nested_agents
    from memlint.model.loading.loader import PRUNED_FOLDERS
    from memlint.model.loading.workspace import walk

    start = loader.start
    for folder, subfolders, names in walk(start):
        subfolders[:] = sorted(d for d in subfolders if d not in PRUNED_FOLDERS)
        here = Path(folder)
        if here == start:
            continue
        if here.name == ".claude":
            if here.parent != start and "CLAUDE.md" in names:
                loader.deferred.append(Deferred(here / "CLAUDE.md", "nested-claude-md", "project"))
            if here.parent != start and "AGENTS.md" in names and nested_agents(loader, here.parent, here / "AGENTS.md"):
                loader.deferred.append(Deferred(here / "AGENTS.md", "nested-agents-md", "project"))
            continue
        if "CLAUDE.md" in names:
            loader.deferred.append(Deferred(here / "CLAUDE.md", "nested-claude-md", "project"))
        if "CLAUDE.local.md" in names:
            loader.deferred.append(Deferred(here / "CLAUDE.local.md", "nested-claude-md", "local"))
        if "AGENTS.md" in names and nested_agents(loader, here, here / "AGENTS.md"):
            loader.deferred.append(Deferred(here / "AGENTS.md", "nested-agents-md", "project"))
        if ".claude" in here.parts and "rules" in here.parts:
            anchor = here.parts.index(".claude")
            if here.parts[anchor + 1 : anchor + 2] == ("rules",) and Path(*here.parts[:anchor]) != start:
                for name in sorted(n for n in names if n.endswith(".md")):
                    doc = loader.workspace.document(here / name)
                    globs = doc.rule_globs if doc.readable else None
                    reason = "conditional-rule" if globs else "nested-claude-md"
                    loader.deferred.append(Deferred(here / name, reason, "project", tuple(globs or ())))


def _nested_tree(root: Path) -> list[Path]:
    """Memory files below start folders: nested `.claude/` folders, rules folders at several
    depths (conditional and not), AGENTS.md with and without a CLAUDE.md, pruned and linked folders."""
    repo = root / "repo"
    _write(repo / "CLAUDE.md", "# Root\n")
    _write(repo / ".claude" / "CLAUDE.md", "# Root dot\n")
    _write(repo / ".claude" / "rules" / "a.md", "# A\n")
    _write(repo / ".claude" / "rules" / "deep" / "b.md", "---\npaths: src/**\n---\n# B\n")
    _write(repo / ".claude" / "agent-memory" / "x" / "CLAUDE.md", "# Agent note\n")
    _write(repo / "app" / "CLAUDE.md", "# App\n")
    _write(repo / "app" / "AGENTS.md", "# App agents\n")
    _write(repo / "app" / ".claude" / "rules" / "c.md", "---\npaths: \"*.ts\"\n---\n# C\n")
    _write(repo / "app" / ".claude" / "AGENTS.md", "# App dot agents\n")
    _write(repo / "app" / "web" / "AGENTS.md", "# Web agents\n")
    _write(repo / "app" / "web" / "CLAUDE.local.md", "# Web local\n")
    _write(repo / "app" / "web" / ".claude" / "CLAUDE.md", "# Web dot\n")
    _write(repo / "app" / "web" / ".claude" / "rules" / "d.md", "# D\n")
    _write(repo / "lib" / "AGENTS.md", "# Lib agents\n")
    _write(repo / "lib" / "x" / "y" / "CLAUDE.md", "# Deep\n")
    _write(repo / "node_modules" / "pkg" / "CLAUDE.md", "# Pruned\n")
    os.symlink(repo / "lib", repo / "app" / "lib-link")
    plain = root / "plain"  # no CLAUDE.md above `plain`: AGENTS.md files below it arrive on read there
    _write(plain / "AGENTS.md", "# Plain agents\n")
    _write(plain / "sub" / "CLAUDE.md", "# Sub\n")
    _write(plain / "sub" / "deeper" / "AGENTS.md", "# Deeper agents\n")
    return [repo, repo / "app", repo / "app" / "web", repo / "lib", repo / "lib" / "x", repo / ".claude",
            plain, plain / "sub"]


@pytest.mark.parametrize("version", ["2.1.197", "2.1.332"])
@pytest.mark.parametrize("order", ["root-first", "deepest-first"])
@pytest.mark.parametrize("mode", [None, "claude-md-or-agents-md", "claude-md-and-agents-md"])
def test_nested_files_are_deferred_as_a_walk_per_start_defers_them(
    tmp_path: Path, version: str, order: str, mode: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memlint.model.loading import deferred

    starts = _nested_tree(tmp_path)
    if mode is not None:
        plugins = {plugin: {"options": {"instructionFiles": mode}} for plugin in ("agents-md@builtin",
                                                                                    "cc-plugin-agents-md@builtin")}
        _write(tmp_path / "repo" / ".claude" / "settings.json", json.dumps({"pluginConfigs": plugins}))
    release = pick(version)
    home, managed = tmp_path / "home", tmp_path / "no-managed"
    shared = Workspace(release)
    got = {s: load(s, home, shared, managed, True, release).deferred
           for s in (starts if order == "root-first" else starts[::-1])}
    monkeypatch.setattr(deferred, "defer_nested", _reference_defer_nested)
    for start in starts:
        expected = load(start, home, Workspace(release), managed, True, release).deferred
        assert got[start] == expected, start
    assert any(d.reason == "conditional-rule" for d in got[starts[0]])
