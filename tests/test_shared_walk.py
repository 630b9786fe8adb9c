"""A start folder takes the walk above it whole from an earlier start folder when its answers hold
(memlint.model.loading.prefix): on generated trees of nested folders whose includes point inside some start
folders and outside others, loading every start folder through one workspace, in any order and with
or without the run's `above_starts`, must give exactly what loading each alone gives."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlint.model.loading import prefix
from memlint.model.loading.loader import LoadedContext, load
from memlint.model.loading.settings import FULL_PLUGIN_ID, OLD_PLUGIN_ID
from memlint.model.loading.workspace import Workspace
from memlint.model.release import pick

FOLDERS = ["", "a", "a/b", "a/b/c", "a/b/c/d", "a/x", "a/x/y", "a/b/z", "e"]

_PLAIN = {"claude": False, "dot": False, "local": False, "agents": None, "rule": None, "includes": [], "link": None,
          "excludes": False, "rules_link": None}
folder_spec = st.fixed_dictionaries({
    "claude": st.booleans(),
    "dot": st.booleans(),
    "local": st.booleans(),
    "agents": st.sampled_from([None, "same", "own"]),
    "rule": st.sampled_from([None, "always", "conditional"]),
    "includes": st.lists(st.tuples(st.sampled_from(FOLDERS), st.sampled_from(["n.md", "m.md", "CLAUDE.md"])),
                         max_size=3),
    "link": st.one_of(st.none(), st.sampled_from(FOLDERS)),
    "excludes": st.booleans(),
    "rules_link": st.one_of(st.none(), st.sampled_from(FOLDERS)),
})


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _build(root: Path, specs: dict[str, dict[str, Any]], mode: str | None) -> None:
    repo = root / "repo"
    for folder in FOLDERS:
        here = repo / folder
        _write(here / "n.md", f"# Note {folder}\n\nNote of {folder or 'the root'}.\n")
        _write(here / "m.md", f"# Other {folder}\n\n@n.md\n")
    for folder, spec in specs.items():
        here = repo / folder
        lines = [f"@{os.path.relpath(repo / target / name, here)}" for target, name in spec["includes"]]
        body = f"# Folder {folder}\n\n" + "".join(line + "\n" for line in lines)
        if spec["claude"]:
            _write(here / "CLAUDE.md", body)
        if spec["dot"]:
            _write(here / ".claude" / "CLAUDE.md", f"# Dot {folder}\n\n@../n.md\n")
        if spec["local"]:
            _write(here / "CLAUDE.local.md", f"# Local {folder}\n\n@m.md\n")
        if spec["agents"] is not None:
            _write(here / "AGENTS.md", body if spec["agents"] == "same" else f"# Agents {folder}\n\n@n.md\n")
        if spec["rule"] == "always":
            _write(here / ".claude" / "rules" / "r.md", f"# Rule {folder}\n\n@../../m.md\n")
        elif spec["rule"] == "conditional":
            _write(here / ".claude" / "rules" / "r.md", "---\npaths:\n  - \"**/*.ts\"\n---\n# TS\n\n@../../n.md\n")
        if spec["link"] is not None:
            os.symlink(repo / spec["link"] / "n.md", here / "linked.md")
            with (here / "m.md").open("a", encoding="utf-8") as out:
                out.write("@linked.md\n")
        if spec["rules_link"] is not None:  # a rules folder that is a link: followed only to a target in the start
            kept = repo / spec["rules_link"] / "kept"
            _write(kept / "k.md", f"---\npaths:\n  - \"**/*.py\"\n---\n# Kept {spec['rules_link']}\n")
            rules = here / ".claude" / "rules"
            link = rules / "linked" if spec["rule"] is not None else rules
            link.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(kept, link)
        if spec["excludes"]:
            _write(here / ".claude" / "settings.json", json.dumps({"claudeMdExcludes": ["**/x/**"]}))
    if mode is not None:
        options = {"options": {"instructionFiles": mode}}
        _write(root / "home" / ".claude" / "settings.json",
               json.dumps({"pluginConfigs": {FULL_PLUGIN_ID: options, OLD_PLUGIN_ID: options}}))


def _shape(ctx: LoadedContext) -> Any:
    files = [(f.path, f.kind, f.depth, f.content, f.origin, f.globs) for f in ctx.files]
    return files, list(ctx.skipped), [ctx.detail(s) for s in ctx.skipped], list(ctx.deferred)


def _above(starts: list[Path]) -> set[str]:
    above: set[str] = set()
    for start in starts:
        folder = os.path.dirname(os.path.realpath(start))
        while folder not in above:
            above.add(folder)
            if os.path.dirname(folder) == folder:
                break
            folder = os.path.dirname(folder)
    return above


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    specs=st.dictionaries(st.sampled_from(FOLDERS), folder_spec, min_size=1, max_size=6),
    order=st.permutations(list(range(len(FOLDERS)))),
    version=st.sampled_from(["2.1.197", "2.1.332"]),
    mode=st.sampled_from([None, "claude-md-and-agents-md", "claude-md-or-agents-md"]),
    known_starts=st.booleans(),
    span=st.sampled_from([1, 2, 3, 32]),
)
# the start folder's excludes decide whether a nested AGENTS.md is listed in fallback mode (its folder's
# CLAUDE.local.md would load or not): a start with other excludes must not take the listing of one above it
@example(specs={"": {**_PLAIN, "excludes": True}, "a/x": {**_PLAIN, "local": True, "agents": "same"}},
         order=list(range(len(FOLDERS))), version="2.1.332", mode=None, known_starts=False, span=1)
# a nested rules folder that is a link to a folder inside a higher start folder but outside a lower one:
# its rules are listed for the higher start only
@example(specs={"a/b": {**_PLAIN, "rules_link": "e"}}, order=list(range(len(FOLDERS))), version="2.1.332",
         mode=None, known_starts=False, span=1)
def test_shared_walk_loads_like_separate_ones(
    specs: dict[str, dict[str, Any]], order: list[int], version: str, mode: str | None, known_starts: bool,
    span: int,
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(os.path.realpath(tmp))
        _build(root, specs, mode)
        release = pick(version)
        home, managed = root / "home", root / "no-managed"
        starts = [root / "repo" / FOLDERS[i] for i in order]
        with mock.patch.object(prefix, "SPAN", 10**9):  # the long way: no totals kept on the way
            alone = {s: _shape(load(s, home, Workspace(release), managed, True, release)) for s in starts}
        shared = Workspace(release)
        if known_starts:
            shared.above_starts = _above(starts)
        with mock.patch.object(prefix, "SPAN", span):
            for start in starts + starts[::-1]:
                assert _shape(load(start, home, shared, managed, True, release)) == alone[start], start


def test_a_deep_chain_takes_the_walk_above_it(tmp_path: Path) -> None:
    """200 nested start folders: each takes its parent's walk (one new node per start folder) and
    loads what it loads alone, walking every folder (no totals kept on the way)."""
    folder = tmp_path / "repo"
    starts = []
    for level in range(200):
        folder = folder / "d"
        _write(folder / "CLAUDE.md", f"# Level {level}\n\n@../n{level}.md\n")
        _write(folder.parent / f"n{level}.md", f"# Note {level}\n")
        starts.append(folder)
    home, managed = tmp_path / "home", tmp_path / "no-managed"
    shared = Workspace()
    shared.above_starts = _above(starts)
    recorded = 0
    original = prefix.Walk._record

    def counting(self: prefix.Walk, *args: Any) -> prefix.Node:
        nonlocal recorded
        recorded += 1
        return original(self, *args)

    with mock.patch.object(prefix.Walk, "_record", counting):
        got = [_shape(load(s, home, shared, managed)) for s in starts]
    assert recorded <= len(starts) + len(tmp_path.parts) + 2
    with mock.patch.object(prefix, "SPAN", 10**9):
        for start, shape in zip(starts[::37], got[::37]):
            assert shape == _shape(load(start, home, Workspace(), managed)), start
    deepest = load(starts[-1], home, shared, managed)
    assert [f.path for f in deepest.files] == [start / "CLAUDE.md" for start in starts]
    assert [s.path.name for s in deepest.skipped if s.reason == "external"] == [f"n{i}.md" for i in range(200)]
