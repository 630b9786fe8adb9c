"""What a MEMORY.md is (model/memory_identity.py), and the index rules judging only real indexes."""

from __future__ import annotations

import json
from pathlib import Path

from memlint.config import load_config
from memlint.engine import build_context
from memlint.model.memory.automem import sanitize_project_path
from memlint.model.run.memory_identity import identity, memory_identities
from tests.rules.harness import run_check

TOPIC = "---\nname: {name}\ndescription: {name} in one line\nmetadata:\n  type: project\n---\n\nBody of {name}.\n"
# Shaped like a hand-kept project memory committed under .claude/memory/: facts inline, no topic files.
HAND_KEPT = (
    "# Project memory\n\n## Context\n- compiler written in itself\n- targets two VMs\n\n"
    "## Branches\n- main is stable\n- dev takes features first\n\n"
    + "## History\n" + "".join(f"- release {n} went out on a Tuesday\n" for n in range(150)) + "\n"
    + "x" * 230 + "\n"
)  # (over the write guard's 140-line target, where ML304 looks at an index)


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _kinds(tree: Path, home: Path | None = None) -> dict[str, str]:
    ctx = build_context([tree], load_config(tree), home)
    return {p.relative_to(tree).as_posix() if tree in p.parents else p.name: i.kind
            for p, i in memory_identities(ctx).items()}


def test_hand_kept_memory_is_no_index(tmp_path: Path) -> None:
    _write(tmp_path, {".claude/memory/MEMORY.md": HAND_KEPT, "CLAUDE.md": "# Project\n"})
    assert _kinds(tmp_path) == {".claude/memory/MEMORY.md": "hand-kept"}
    for code in ("ML303", "ML304", "ML305", "ML307", "ML309"):
        assert not run_check(tmp_path, code, None).violations, code


def test_included_memory_is_an_include(tmp_path: Path) -> None:
    _write(tmp_path, {".claude/memory/MEMORY.md": HAND_KEPT, "CLAUDE.md": "@.claude/memory/MEMORY.md\n"})
    ctx = build_context([tmp_path], load_config(tmp_path), None)
    found = identity(ctx, tmp_path / ".claude/memory/MEMORY.md")
    assert (found.kind, found.is_index, found.includers) == ("included", False, (tmp_path / "CLAUDE.md",))
    assert not run_check(tmp_path, "ML304", None).violations


def test_exported_folder_is_an_index(tmp_path: Path) -> None:
    memory = ("# Memory\n- [Deploy](deploy.md) \u2014 how we ship\n\n## Notes\nwe ship on Fridays\nthe release train leaves at noon\n"
              + "".join(f"the train of week {n} left on time\n" for n in range(150)))  # over the guard's target
    _write(tmp_path, {".claude/memory/MEMORY.md": memory, ".claude/memory/deploy.md": TOPIC.format(name="deploy")})
    assert _kinds(tmp_path) == {".claude/memory/MEMORY.md": "exported"}
    assert [v.code for v in run_check(tmp_path, "ML304", None).violations] == ["ML304"]


def test_links_to_plain_files_are_no_evidence(tmp_path: Path) -> None:
    # A table of dated logs linking plain files: a project log that happens to be called MEMORY.md.
    _write(tmp_path, {"memory/MEMORY.md": "# Log\n- [2026-01-02](2026-01-02.md) \u2014 day two\n",
                      "memory/2026-01-02.md": "worked on the parser\n"})
    assert _kinds(tmp_path) == {"memory/MEMORY.md": "hand-kept"}


def test_home_project_folder_and_agent_memory(tmp_path: Path) -> None:
    tree, home = tmp_path / "tree", tmp_path / "home"
    _write(tree, {"CLAUDE.md": "# P\n", ".claude/agent-memory/reviewer/MEMORY.md": "- note\n"})
    folder = f".claude/projects/{sanitize_project_path(str(tree))}/memory"
    _write(home, {f"{folder}/MEMORY.md": "# Memory\n"})
    kinds = _kinds(tree, home)
    assert kinds == {".claude/agent-memory/reviewer/MEMORY.md": "agent-memory", "MEMORY.md": "auto-memory"}


def test_auto_memory_directory_setting(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    _write(tree, {"CLAUDE.md": "# P\n", "notes/MEMORY.md": HAND_KEPT,
                  ".claude/settings.json": json.dumps({"autoMemoryDirectory": str(tree / "notes")})})
    assert _kinds(tree) == {"notes/MEMORY.md": "auto-memory"}
    assert [v.code for v in run_check(tree, "ML304", None).violations] == ["ML304"]


def test_one_problem_one_finding_and_the_cut(tmp_path: Path) -> None:
    long_entry = "- [Deploy](deploy.md) \u2014 " + "blue/green " * 25
    lines = ["# Memory", long_entry, "", "## Build", "make all", "make test", "", "## Notes"]
    lines += [f"- [Note {n}](deploy.md) \u2014 fact {n}" for n in range(194)]
    lines += ["", "## Old", "kept for history", long_entry]
    _write(tmp_path, {"MEMORY.md": "\n".join(lines) + "\n", "deploy.md": TOPIC.format(name="deploy")})
    ml303 = run_check(tmp_path, "ML303", None).violations
    ml304 = run_check(tmp_path, "ML304", None).violations
    assert [(v.line, v.end_line) for v in ml303] == [(2, 2)]  # the long entry past the cut is not "loaded"
    assert len(ml304) == 1
    assert "lines 4-6 (a section with a body 'Build') are detail" in ml304[0].detail  # the whole message
    assert "205" not in ml304[0].detail  # past the cut: ML301 says it is never loaded
    assert not {*range(ml303[0].line, ml303[0].end_line + 1)} & {4, 5, 6, 203, 204, 205, 206}
