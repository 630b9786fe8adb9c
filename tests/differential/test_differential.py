"""Differential tests: memlint's `context()` must list what the real Claude Code loads.

The expected lists are recordings made by record.py with the real CLI (recordings/<case>.json).
Rules in one `.claude/rules` folder may come in any order among themselves (directory order).

    pytest tests/differential                      # memlint vs recordings
    MEMLINT_ORACLE=1 pytest tests/differential -m oracle   # live CLI vs recordings
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cases import BY_NAME, CASES, build, canonical, normalize, rule_groups

RECORDINGS = HERE / "recordings"
ORACLE = Path(__file__).resolve().parents[3] / "shared/oracle/cc_oracle.py"
NAMES = [c.name for c in CASES]

Entry = tuple[str, str, str]


def recording(name: str) -> dict[str, Any]:
    path = RECORDINGS / f"{name}.json"
    if not path.exists():
        pytest.fail(f"no recording for {name}: run python tests/differential/record.py {name}")
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


def test_every_case_has_a_recording() -> None:
    missing = [n for n in NAMES if not (RECORDINGS / f"{n}.json").exists()]
    assert not missing, f"run record.py for: {missing}"


def test_canonical_sorts_runs_of_one_rules_folder_only() -> None:
    r = "<TREE>/.claude/rules/"
    got = canonical([("<TREE>/CLAUDE.md", "project", ""), (r + "b.md", "project", ""),
                     (r + "a.md", "project", ""), ("<TREE>/x.md", "project", ""),
                     (r + "d.md", "project", ""), (r + "c.md", "project", "")])
    assert [p for p, _, _ in got] == ["<TREE>/CLAUDE.md", r + "a.md", r + "b.md", "<TREE>/x.md",
                                      r + "c.md", r + "d.md"]


@pytest.mark.parametrize("name", NAMES)
def test_memlint_matches_claude_code(name: str, tmp_path: Path) -> None:
    case = BY_NAME[name]
    expected = recording(name)
    from memlint.api import Context
    from memlint.model.loader import load
    from memlint.model.release import pick

    tree, home = build(case, tmp_path)
    # model the release the recording was made with
    ctx = Context(load(tree / case.cwd, home, release=pick(expected.get("claude_code"))))
    data = ctx.to_dict()
    actual = entries(normalize(data["files"], tree, home))
    assert_same(actual, entries(expected["files"]), rule_groups(tree, home), case.note)


@pytest.mark.oracle
@pytest.mark.parametrize("name", NAMES)
def test_recording_matches_live_claude_code(name: str, tmp_path: Path) -> None:
    if os.environ.get("MEMLINT_ORACLE") != "1":
        pytest.skip("live Claude Code runs only with MEMLINT_ORACLE=1")
    if not ORACLE.exists():
        pytest.skip(f"oracle not found at {ORACLE}")
    case = BY_NAME[name]
    expected = recording(name)
    tree, home = build(case, tmp_path)
    env = dict(os.environ, PYTHONIOENCODING="utf-8:surrogatepass")
    r = subprocess.run([sys.executable, str(ORACLE), str(tree), "--cwd", case.cwd, "--home", str(home)],
                       check=False, capture_output=True, env=env, timeout=300, stdin=subprocess.DEVNULL)
    if r.returncode == 3:
        pytest.skip("oracle cannot fetch the Claude Code CLI (exit 3): "
                    + r.stderr.decode("utf-8", "replace")[-300:])
    assert r.returncode == 0, r.stderr.decode("utf-8", "replace")[-1500:]
    live = json.loads(r.stdout.decode("utf-8", "surrogatepass"))
    if live["claude_code"] != expected["claude_code"]:
        pytest.skip(f"live CLI is {live['claude_code']}, recording is {expected['claude_code']}")
    actual = entries(normalize(live["files"], tree, home))
    assert_same(actual, entries(expected["files"]), rule_groups(tree, home), case.note)
