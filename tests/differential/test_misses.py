"""ML526, ML527 and the `@`-words of `context` against what the real Claude Code sends (cases_misses.py).

The replay tests compare memlint with the recordings (recordings/<release>/mi0*.json); the live
tests (MEMLINT_ORACLE=1, skipped with a reason when the CLI cannot be had) look at the whole
request the CLI sends: no text of an unread settings key in it anywhere, and no comment text in the
files attached after a Read. The schema test reads the settings keys out of each cached CLI.
"""
from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.oracle_live import live_json, require_live

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cases import BY_NAME, build, oracle_args
from cases_misses import HIDDEN, SETTINGS_PHRASE

from memlint import api
from memlint.config import load_config
from memlint.model.loading.settings_keys import SETTINGS_KEYS
from memlint.model.loading.workspace import Workspace
from memlint.model.text.comments import hidden_comments

RECORDINGS = HERE / "recordings"
RELEASES = ("2.1.197", "2.1.332")
_COMMENT = re.compile(r"<!--(.*?)-->", re.DOTALL)


def _recorded(release: str, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDINGS / release / f"{name}.json").read_text(encoding="utf-8"))
    return data


def _codes(tree: Path, codes: list[str]) -> list[tuple[str, str]]:
    report = api.check([tree], load_config(tree, None, {"select": codes}), None)
    return sorted((str(v.path.relative_to(tree)), v.code) for v in report.violations)


@pytest.mark.parametrize("release", RELEASES)
def test_comments_memlint_calls_hidden_are_the_ones_claude_code_cuts(release: str, tmp_path: Path) -> None:
    case = BY_NAME["mi01_comment_instructions"]
    tree, _ = build(case, tmp_path)
    sent = next(f["content"] for f in _recorded(release, case.name)["files"] if f["path"] == "<TREE>/CLAUDE.md")
    source = (tree / "CLAUDE.md").read_text(encoding="utf-8")
    hidden = {c.text for c in hidden_comments(Workspace().document(tree / "CLAUDE.md"))}
    assert hidden == {f"\n{HIDDEN}\n"}
    for text in _COMMENT.findall(source):
        assert (text in sent) == (text not in hidden), text
    # the rule reports the cut comment at the start and those of the files attached on a read
    assert _codes(tree, ["ML526"]) == [(".claude/rules/ts.md", "ML526"), ("CLAUDE.md", "ML526"),
                                       ("pkg/CLAUDE.md", "ML526")]


@pytest.mark.parametrize("release", RELEASES)
def test_unread_settings_keys_reach_no_loaded_file(release: str, tmp_path: Path) -> None:
    case = BY_NAME["mi03_settings_unread_keys"]
    recorded = _recorded(release, case.name)
    assert all(SETTINGS_PHRASE not in f["content"] for f in recorded["files"])
    tree, _ = build(case, tmp_path)
    report = api.check([tree], load_config(tree, None, {"select": ["ML527"]}), None)
    assert [(v.path.name, v.code) for v in report.violations] == [("settings.json", "ML527")]
    message = report.violations[0].detail or report.violations[0].message
    assert "`instructions` and `memory`" in message and "`claudeMd` only from managed settings" in message


@pytest.mark.parametrize("release", RELEASES)
def test_at_words_are_paths_to_claude_code_and_no_finding(release: str, tmp_path: Path) -> None:
    case = BY_NAME["mi02_at_words"]
    recorded = [f["path"] for f in _recorded(release, case.name)["files"]]
    assert recorded == ["<TREE>/CLAUDE.md", "<TREE>/types/node"]  # tried as a path: it loads when it exists
    tree, _ = build(case, tmp_path)
    (tree / "types" / "node").unlink()
    assert _codes(tree, ["ML101", "ML108"]) == []
    data = api.context(tree, home=tmp_path / "none").to_dict("chars4")
    words = {Path(s["path"]).name: s["names_no_file"] for s in data["skipped"]}
    assert words == {"node": True, "react.": True, "octocat.": True}  # the full stop is part of the path


def _live(case_name: str, tmp_path: Path, release: str, *extra: str) -> dict[str, Any]:
    require_live()
    case = BY_NAME[case_name]
    tree, home = build(case, tmp_path)
    args = [*oracle_args(case, tree, home), *extra]
    if case.read is not None:
        args.append(f"--read={tree / case.read}")
    return live_json(tree, *args, release=release)


@pytest.mark.oracle
@pytest.mark.parametrize("release", RELEASES)
def test_live_no_text_of_an_unread_key_in_the_request(release: str, tmp_path: Path) -> None:
    request = _live("mi03_settings_unread_keys", tmp_path, release, "--raw")
    assert SETTINGS_PHRASE not in json.dumps(request, ensure_ascii=False)


@pytest.mark.oracle
@pytest.mark.parametrize("release", RELEASES)
def test_live_attached_files_come_without_their_comments(release: str, tmp_path: Path) -> None:
    out = _live("mi01_comment_instructions", tmp_path, release)
    attached = json.dumps(out.get("after_read", []), ensure_ascii=False)
    assert "Package notes." in attached and "TS rule." in attached
    assert "Always write tests first." not in attached and "Never use any." not in attached


def _schema_keys(binary: Path) -> list[str]:
    """The keys of the settings schema object in a CLI bundle (the object holding `$schema`)."""
    data = binary.read_bytes().decode("latin-1")
    best: list[str] = []
    for match in re.finditer(r'describe\("JSON Schema reference for Claude Code settings"\)', data):
        start = data.rfind("{", 0, data.rfind("$schema:", 0, match.start())) + 1
        keys, depth, quote, token, k = [], 1, "", start, start
        while depth and k < len(data):
            c = data[k]
            if quote:
                k += 2 if c == "\\" else 1
                quote = "" if c == quote else quote
                continue
            if c in "\"'`":
                quote = c
            elif c in "{([":
                depth += 1
            elif c in "})]":
                depth -= 1
            elif c == "," and depth == 1:
                token = k + 1
            elif c == ":" and depth == 1 and re.fullmatch(r'[\w$"-]+', data[token:k].strip()):
                keys.append(data[token:k].strip().strip('"'))
                token = len(data)
            k += 1
        best = max(best, keys, key=len)
    return best


@pytest.mark.oracle
@pytest.mark.parametrize("release", RELEASES)
def test_every_settings_key_of_the_cli_is_known(release: str) -> None:
    if os.environ.get("MEMLINT_ORACLE") != "1":
        pytest.skip("reads the cached Claude Code CLI only with MEMLINT_ORACLE=1")
    cache = Path(os.environ.get("CC_ORACLE_CACHE", Path.home() / ".cache/cc-oracle"))
    binary = cache / release / "package" / "claude"
    if not binary.exists():
        pytest.skip(f"no cached CLI at {binary} (run the oracle once for {release})")
    keys = _schema_keys(binary)
    assert len(keys) > 100, "the settings schema was not found in the bundle"
    assert not set(keys) - SETTINGS_KEYS
