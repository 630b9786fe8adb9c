"""Nothing from a repository reaches a terminal or a CI log raw: escapes and control characters in
file content, newlines and undecodable bytes in file names, hostile keys in .memlint.toml."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from memlint.escape import for_terminal, github_message, github_property
from tests.hostile.helpers import memlint

FORGED = "::error file=x.md,line=1::forged"
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def hostile_tree(root: Path) -> None:
    (root / "CLAUDE.md").write_text("# P\n@docs/\x1b]0;owned\x07\x1b[2Jx.md\n@a%0A::warning::b.md\n",
                                    encoding="utf-8")
    forged = root / f"a\nb.md:1:1: ML101 {FORGED}"
    forged.mkdir()
    (forged / "CLAUDE.md").write_text("@nothing.md\n", encoding="utf-8")
    raw = os.fsencode(root) + b"/\xff\xfe-latin1-\xe9"
    os.mkdir(raw)
    with open(raw + b"/CLAUDE.md", "wb") as handle:
        handle.write(b"@zz.md\n")


def test_text_output_has_no_control_characters_and_no_forged_lines(tmp_path: Path) -> None:
    hostile_tree(tmp_path)
    run = memlint("check", tmp_path)
    assert not CONTROL.search(run.out), repr(run.out)
    for line in run.out.splitlines()[:-1]:
        assert re.match(r"^\S.*:\d+:\d+: ML\d{3} [a-z-]+ ", line), line
    assert len(run.out.splitlines()) == 4  # three findings (the root's two includes are one) and the summary


def test_github_output_cannot_forge_workflow_commands(tmp_path: Path) -> None:
    hostile_tree(tmp_path)
    run = memlint("check", tmp_path, "--format", "github")
    lines = run.out.splitlines()
    assert len(lines) == 3 and all(line.startswith("::error title=ML101 ") for line in lines), lines
    assert not CONTROL.search(run.out)
    for line in lines:
        properties, _message = line.split("::", 2)[1:]
        assert properties.count("::") == 0 and properties.count(",") == 5, properties


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_and_sarif_stay_valid_for_any_file_name(tmp_path: Path, fmt: str) -> None:
    hostile_tree(tmp_path)
    run = memlint("check", tmp_path, "--format", fmt)
    data = json.loads(run.out)
    if fmt == "sarif":
        uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in data["runs"][0]["results"]]
        assert all(re.fullmatch(r"(?:file://)?[A-Za-z0-9%/._~-]+", u) for u in uris), uris
        assert any("%FF%FE" in u for u in uris)
    else:
        assert any("\\xff\\xfe" in v["path"] for v in data["violations"])


@pytest.mark.parametrize("fmt", ["", "true"])
def test_configuration_errors_are_escaped(tmp_path: Path, fmt: str) -> None:
    (tmp_path / ".memlint.toml").write_text(f'[options]\n"x\\n{FORGED}\\u001b[2J" = {{}}\n', encoding="utf-8")
    (tmp_path / "CLAUDE.md").write_text("# P\n", encoding="utf-8")
    run = memlint("check", tmp_path, env={"GITHUB_ACTIONS": fmt})
    assert run.code == 2
    assert run.err.count("\n") == 1 and not CONTROL.search(run.err), repr(run.err)
    assert not any(line.startswith("::") for line in run.err.splitlines())


def test_context_and_diff_are_escaped(tmp_path: Path) -> None:
    hostile_tree(tmp_path)
    run = memlint("context", tmp_path, "--home", tmp_path / "home")
    assert not CONTROL.search(run.out)
    folder = tmp_path / ".claude" / "agent-memory" / "r"
    folder.mkdir(parents=True)
    entries = "".join(f"- [Note {n}](note-{n}.md) \u2014 fact {n}\n" for n in range(150))  # over the guard's target
    (folder / "MEMORY.md").write_text("# Memory\n\n## Deploy \x1b[31m\n\nBlue/green, on Fridays.\nThe pool drains "
                                      "first.\n\n## Notes\n" + entries, encoding="utf-8")
    run = memlint("fix", tmp_path, "--diff", "--unsafe-fixes", "--verbose")  # the heading is in the whole message
    assert "\x1b" not in run.out and "\\x1b[31m" in run.out


def test_escape_functions() -> None:
    assert for_terminal("a\x1b[2Jb\r\nc\x9bd\udcff") == "a\\x1b[2Jb\\r\\nc\\x9bd\\xff"
    assert for_terminal("tab\tstays") == "tab\tstays"
    assert github_message("50%\r\n::x") == "50%25%0D%0A::x"
    assert github_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


def test_json_writes_a_fix_shared_by_many_findings_once(tmp_path: Path) -> None:
    folder = tmp_path / ".claude" / "agent-memory" / "r"
    folder.mkdir(parents=True)
    sections = [f"## Topic {i}\n\nDetail {i} that belongs in a topic file.\nIt came up in review {i}.\n" for i in range(150)]
    (folder / "MEMORY.md").write_text("# Memory\n\n" + "\n".join(sections), encoding="utf-8")
    size = (folder / "MEMORY.md").stat().st_size
    run = memlint("check", tmp_path, "--format", "json")
    data = json.loads(run.out)
    written = [json.dumps(v["fix"]) for v in data["violations"] if v["fix"] and "edits" in v["fix"]]
    assert written and len(set(written)) == len(written), "a fix was written out twice"
    for v in data["violations"]:
        if v["fix"] and "same_as" in v["fix"]:
            assert data["violations"][v["fix"]["same_as"]]["fix"]["title"] == v["fix"]["title"]
    assert len(run.out) < 1500 * len(data["violations"]) + 20 * size, "the split was written once per finding"


@pytest.mark.parametrize("reading", [False, True])
def test_context_json_stays_utf8_for_any_file_name(tmp_path: Path, reading: bool) -> None:
    raw = os.fsencode(tmp_path) + b"/.claude/rules/\xff\xfe-rule.md"
    os.makedirs(os.path.dirname(raw))
    with open(raw, "wb") as handle:
        handle.write(b"---\npaths: src/**\n---\nKeep it short.\n" if reading else b"Keep it short.\n")
    (tmp_path / "CLAUDE.md").write_text("# P\n", encoding="utf-8")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("", encoding="utf-8")
    extra = ["--reading", tmp_path / "src" / "a.py"] if reading else []
    run = memlint("context", tmp_path, "--no-home", "--format", "json", *extra)  # the output decodes as UTF-8
    data = json.loads(run.out)
    paths = [f["path"] for f in data["attached" if reading else "files"]]
    assert any(p.endswith("/.claude/rules/\\xff\\xfe-rule.md") for p in paths), paths
