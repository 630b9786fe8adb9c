"""Differential tests: memlint's `context()` must list what the real Claude Code loads, per release.

The expected lists are recordings made with the real CLI of each release
(recordings/<release>/<case>.json, by scripts/record_release.py); memlint runs with that release picked.
Rules in one `.claude/rules` folder may come in any order among themselves (directory order).

    pytest tests/differential                      # memlint vs recordings
    MEMLINT_ORACLE=1 pytest tests/differential -m oracle   # live CLI vs recordings
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.oracle_live import live_json, require_live

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cases import (
    BY_NAME,
    CASES,
    build,
    canonical,
    case_launch,
    normalize,
    oracle_args,
    placeholders,
    rule_groups,
)

RECORDINGS = HERE / "recordings"
RELEASES = sorted((p.name for p in RECORDINGS.iterdir() if p.is_dir()), key=lambda v: tuple(map(int, v.split("."))))
NAMES = [c.name for c in CASES]
PAIRS = [(r, c.name) for r in RELEASES for c in CASES if c.releases is None or r in c.releases]

Entry = tuple[str, str, str]


def recording(release: str, name: str) -> dict[str, Any]:
    path = RECORDINGS / release / f"{name}.json"
    if not path.exists():
        pytest.fail(f"no recording for {name} on {release}: run python scripts/record_release.py {release} {name}")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def entries(files: list[dict[str, Any]]) -> list[Entry]:
    return [(f["path"], f["kind"], f["content"]) for f in files]


def assert_same(actual: list[Entry], expected: list[Entry], groups: dict[str, str], note: str) -> None:
    a, e = canonical(actual, groups), canonical(expected, groups)
    if a == e:
        return
    ap, ep = [x[0] for x in a], [x[0] for x in e]
    lines = [f"case note: {note}", f"expected paths: {ep}", f"actual paths:   {ap}"]
    for x, y in zip(a, e):
        if x != y:
            lines.append(f"first difference:\n  actual:   {x!r:.600}\n  expected: {y!r:.600}")
            break
    pytest.fail("\n".join(lines), pytrace=False)


def test_every_case_has_a_recording_per_release() -> None:
    assert {"2.1.197", "2.1.332"} <= set(RELEASES)
    missing = [f"{r}/{n}" for r, n in PAIRS if not (RECORDINGS / r / f"{n}.json").exists()]
    assert not missing, f"run scripts/record_release.py for: {missing}"


def test_canonical_sorts_runs_of_one_rules_folder_only() -> None:
    r = "<TREE>/.claude/rules/"
    got = canonical([("<TREE>/CLAUDE.md", "project", ""), (r + "b.md", "project", ""),
                     (r + "a.md", "project", ""), ("<TREE>/x.md", "project", ""),
                     (r + "d.md", "project", ""), (r + "c.md", "project", "")])
    assert [p for p, _, _ in got] == ["<TREE>/CLAUDE.md", r + "a.md", r + "b.md", "<TREE>/x.md",
                                      r + "c.md", r + "d.md"]


@pytest.mark.parametrize(("release", "name"), PAIRS)
def test_memlint_matches_claude_code(release: str, name: str, tmp_path: Path) -> None:
    case = BY_NAME[name]
    if case.steps and shutil.which("git") is None:
        pytest.skip("the case's layout is made with git, which is not installed")
    expected = recording(release, name)
    from memlint.api import context
    from memlint.model.release import pick

    tree, home = build(case, tmp_path)
    launch = case_launch(case, tree, home)
    managed = tmp_path / "no-managed"
    ctx = context(start=tree / case.cwd, home=home, managed_dir=managed, release=pick(release), launch=launch)
    assert ctx.loaded.release.name == release
    data = ctx.to_dict()
    actual = entries(normalize(data["files"], tree, home))
    assert_same(actual, entries(expected["files"]), rule_groups(tree, home), case.note)
    if expected.get("block_format") not in (None, "none"):  # C10, recorded since 2.1.332 cases were added
        assert data["block_format"] == expected["block_format"], case.note
    if case.read is not None:
        from memlint.model.loading.reads import on_read

        got = on_read(ctx.loaded, tree / case.read)
        subs = placeholders(tree, home)
        shown = []
        for item in got:
            path = str(item.file.path)
            for old, new in subs:
                path = path.replace(old, new)
            shown.append({"path": path, "via": item.via})
        key = lambda a: (a["path"], a["via"])
        assert sorted(shown, key=key) == sorted(expected["after_read"], key=key), case.note


@pytest.mark.oracle
@pytest.mark.parametrize(("release", "name"), PAIRS)
def test_recording_matches_live_claude_code(release: str, name: str, tmp_path: Path) -> None:
    require_live()
    case = BY_NAME[name]
    expected = recording(release, name)
    tree, home = build(case, tmp_path)
    live = live_json(tree, *oracle_args(case, tree, home), release=release)
    if live["claude_code"] != expected["claude_code"]:
        pytest.skip(f"live CLI is {live['claude_code']}, recording is {expected['claude_code']}")
    actual = entries(normalize(live["files"], tree, home))
    assert_same(actual, entries(expected["files"]), rule_groups(tree, home), case.note)
