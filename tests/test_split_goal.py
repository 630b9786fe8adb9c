"""`memlint fix` makes every over-limit MEMORY.md load whole (issue 24): on realistic indexes of each
kind, in several languages, the fixed auto-memory folder loads whole, keeps every line, keeps the
always-on instructions and the newest entry per topic in the index, has no new finding on MEMORY.md
or the new files, and a second fix changes nothing."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from memlint import api
from memlint.config import load_config
from memlint.fixes import write_all
from memlint.model.memory.automem import MAX_LINES, MAX_UNITS, sanitize_project_path
from memlint.rules.automem.split import measure
from tests.split_cases import KINDS

LINK = re.compile(r"\]\(([^)\s]+\.md)\)")


def _layout(tmp_path: Path, text: str, files: dict[str, str]) -> tuple[Path, Path, Path]:
    project = tmp_path / "project"
    project.mkdir()
    (project / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    home = tmp_path / "home"
    memory = home / ".claude" / "projects" / sanitize_project_path(str(project.resolve())) / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text(text, encoding="utf-8")
    for name, body in files.items():
        (memory / name).write_text(body, encoding="utf-8")
    return project.resolve(), home.resolve(), memory.resolve()


def _fix(project: Path, home: Path) -> int:
    outcome = api.fix([project], load_config(project), home, unsafe=True)
    assert outcome.result.converged
    return len(write_all(outcome.result)) if outcome.result.changed else 0


def _findings(project: Path, home: Path, memory: Path) -> set[tuple[str, str]]:
    report = api.check([project], load_config(project), home)
    return {(v.path.name, v.code) for v in report.violations if v.path.parent == memory}


def _nonblank(text: str) -> list[str]:
    return [line.rstrip("\r") for line in text.split("\n") if line.strip()]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_fix_makes_the_index_load_whole(kind: str, tmp_path: Path) -> None:
    text, files, instructions = KINDS[kind]()
    assert measure(text).truncated, "the case must start over the limit"
    project, home, memory = _layout(tmp_path, text, files)
    before_files = set(files) | {"MEMORY.md"}
    before = _findings(project, home, memory)
    assert ("MEMORY.md", "ML301") in before

    _fix(project, home)

    index = (memory / "MEMORY.md").read_text(encoding="utf-8")
    after = measure(index)
    assert not after.truncated and after.line_count <= MAX_LINES and after.size <= MAX_UNITS
    new_files = {p.name: p.read_text(encoding="utf-8") for p in memory.iterdir() if p.name not in before_files}
    # nothing lost: every non-blank line of the old index is in the new index or in a new file
    have = Counter(_nonblank(index))
    for body in new_files.values():
        have.update(_nonblank(body))
    missing = Counter(_nonblank(text)) - have
    assert not missing, f"lines lost: {list(missing)[:3]}"
    # the always-on instructions are still in the index
    kept = set(_nonblank(index))
    assert all(line in kept for line in instructions)
    # the newest entry per topic is still in the index, or in a second-level index file it links
    # (an index of nothing but entries reaches the warning point only so)
    newest = {}
    for line in _nonblank(text):
        for target in LINK.findall(line):
            newest[target] = line
    second_level = {name: set(_nonblank(body)) for name, body in new_files.items() if name in LINK.findall(index)}
    for target, line in newest.items():
        if target in files:
            assert line in kept or any(line in body for body in second_level.values()), \
                f"newest entry of {target} left the index"
    # no new finding anywhere in the folder: every topic file is still reached from the index
    found = _findings(project, home, memory)
    assert not {f for f in found if f[0] in new_files}, sorted(found)
    assert not {f for f in found if f[1] == "ML308"} - before, sorted(found)
    assert not {f for f in found if f[0] == "MEMORY.md" and f[1] != "ML302"} - before, sorted(found)
    assert not {f for f in found if f[0] == "MEMORY.md" and f[1] in {"ML301", "ML302", "ML304"}}
    # a second run changes nothing
    snapshot = {p.name: p.read_bytes() for p in memory.iterdir()}
    assert _fix(project, home) == 0
    assert {p.name: p.read_bytes() for p in memory.iterdir()} == snapshot


def test_past_the_cap_instructions_go_to_one_feedback_file(tmp_path: Path) -> None:
    rules = [f"- Always check case {n} of the release before tagging it" for n in range(230)]
    text = "\n".join(["# Memory", "", *rules]) + "\n"
    project, home, memory = _layout(tmp_path, text, {})
    _fix(project, home)
    index = (memory / "MEMORY.md").read_text(encoding="utf-8")
    assert not measure(index).truncated
    assert all(line in index for line in rules[:30]) and rules[30] not in index
    more = sorted(p for p in memory.iterdir() if p.name.startswith("more-standing-instructions"))
    bodies = [p.read_text(encoding="utf-8") for p in more]
    assert all("type: feedback" in body for body in bodies)
    assert all(any(line in body for body in bodies) for line in rules[30:])
    assert all(f"]({p.name}) \u2014 " in index for p in more)
    assert "more standing instructions from MEMORY.md: read before starting any task" in index


def test_truly_impossible_changes_nothing_and_names_the_floor(tmp_path: Path) -> None:
    entries = [f"- [Fact {n}](fact-{n}.md) \u2014 what we know about fact {n}" for n in range(230)]
    files = {f"fact-{n}.md": f"---\nname: fact-{n}\ndescription: fact {n}\nmetadata:\n  type: project\n---\n\nfact\n"
             for n in range(230)}
    text = "\n".join(["# Memory", "", "- NEVER rewrite history", *entries]) + "\n"
    project, home, memory = _layout(tmp_path, text, files)
    report = api.check([project], load_config(project), home)
    (ml301,) = [v for v in report.violations if v.code == "ML301"]
    message = ml301.detail or ml301.message  # the whole message (the first line is kept short)
    assert "no split makes it load whole" in message
    assert "entries outside any section: 230" in message and "smallest change by hand" in message
    assert ml301.fix is None
    assert _fix(project, home) == 0
    assert (memory / "MEMORY.md").read_text(encoding="utf-8") == text
