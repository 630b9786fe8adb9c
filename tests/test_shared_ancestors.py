"""Start folders share what their ancestors contribute (memlint.model.replay): loading many start
folders through one workspace must give exactly what loading each alone gives, in any order."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from memlint.model.loader import LoadedContext, load
from memlint.model.release import pick
from memlint.model.workspace import Workspace


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
        details[start] = {s.detail for s in ctx.skipped if s.reason == "external" and s.path.name == "a.md"}
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


def test_an_ancestor_that_answers_differently_for_every_start(tmp_path: Path) -> None:
    """A root CLAUDE.md including a file in each of many packages: each package start sees a
    different include as inside; past MAX_VARIANTS the step runs afresh, with the same result."""
    from memlint.model.replay import MAX_VARIANTS

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
