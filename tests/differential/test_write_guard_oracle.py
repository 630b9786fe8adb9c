"""Claude Code's MEMORY.md write guard (C19) with the real CLI, per release and per size.

Each probe is one Claude Code session (the oracle's mock model): a Read of the project's MEMORY.md,
then a Write of it with the probe's text (2.1.197 refuses a Write of a file it has not read), and
what Claude Code passed on to the agent after the Write (`PostToolUse:Write hook additional
context: ...`). Recorded per release in write_guard/<release>.json (beside recordings/, whose
release folders hold every loading case of a release); the replay test
checks that `guard_text` says exactly what the CLI said for every probe, silence included; the live
test (MEMLINT_ORACLE=1, skipped with a reason when the CLI cannot be fetched) runs the CLI again.

    python tests/differential/test_write_guard_oracle.py [RELEASE ...]     # record
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.oracle_live import ORACLE

HERE = Path(__file__).resolve().parent
RECORDINGS = HERE / "write_guard"  # <release>.json
RELEASES = ("2.1.197", "2.1.198", "2.1.199", "2.1.209", "2.1.210", "2.1.332")
HOOKS = (None, "Write")  # no PostToolUse hook; a PostToolUse hook whose matcher is `Write`
# Other matchers, each with the 214-line probe: does the Write count as hooked? (memlint's own matcher,
# all tools, and two that do not match a Write)
MATCHERS = {"Write|Edit|MultiEdit": True, "": True, "Bash": False, "Edit": False}
TOLD = re.compile(r"PostToolUse:Write hook additional context: (.*?)"
                  r"(?=\n\nPostToolUse:|\n</system-reminder>|\Z)", re.DOTALL)


def _entries(count: int, end: str = "\n") -> str:
    """`count` index entries of about 35 units, one a line."""
    return "\n".join(f"- [Note {i}](note-{i}.md) \u2014 fact {i}" for i in range(1, count + 1)) + end


def _units(units: int, lines: int = 5) -> str:
    """ASCII text of exactly `units` units in `lines` lines, no newline at the end."""
    width = (units - (lines - 1)) // lines
    rows = [f"- [N{i}](n{i}.md) " for i in range(lines)]
    rows = [row + "x" * (width - len(row)) for row in rows]
    rows[-1] += "x" * (units - (lines - 1) - width * lines)
    text = "\n".join(rows)
    assert len(text) == units
    return text


def _lines_and_units(count: int, units: int) -> str:
    """`count` lines that together are `units` units long, no newline at the end."""
    return _units(units, count)


# name -> the text written to MEMORY.md. Around the line thresholds (160 = 80 %, 200 = the cut), around
# the size thresholds (20,000 = 80 %, 25,000 = the cut), and what each dimension counts.
PROBES: dict[str, str] = {
    **{f"lines_{n}": _entries(n) for n in (159, 160, 161, 199, 200, 201, 214)},
    "lines_200_no_final_newline": _entries(200, ""),
    "lines_200_then_blank_lines": _entries(200, "\n\n\n"),
    **{f"units_{n}": _units(n) for n in (19_999, 20_000, 20_001, 24_999, 25_000, 25_001)},
    "units_19999_then_newline": _units(19_999) + "\n",  # is the final newline counted?
    "emoji_20000_units": "\U0001F600" * 10_000,  # 20,000 UTF-16 units, 10,000 code points, 40,000 bytes
    "cjk_7000": "\u8a18" * 7_000,  # 7,000 units, 21,000 UTF-8 bytes
    "lines_160_units_20000": _lines_and_units(160, 20_000),  # 80 % of both caps
    "lines_214_units_30000": _lines_and_units(214, 30_000),  # over both, more so in size
    "lines_230_units_25001": _lines_and_units(230, 25_001),  # over both, more so in lines
}


def _sanitize(path: str) -> str:
    from memlint.model.memory.automem import sanitize_project_path

    return sanitize_project_path(path)


def run_probe(release: str, name: str, root: Path,
              hook: str | None = None) -> tuple[int, dict[str, Any], str]:
    """One session: Read MEMORY.md (one entry), then Write the probe's text over it. With `hook`, the
    project's settings have a PostToolUse command hook (`true`, which says nothing) with that matcher."""
    root = Path(os.path.realpath(root))
    tree, home = root / "tree", root / "home"
    tree.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=tree, check=True)
    (tree / "CLAUDE.md").write_text("# Project\n")
    if hook is not None:
        (tree / ".claude").mkdir()
        hooks = {"PostToolUse": [{"matcher": hook, "hooks": [{"type": "command", "command": "true"}]}]}
        (tree / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    memory = home / ".claude" / "projects" / _sanitize(str(tree)) / "memory"
    memory.mkdir(parents=True)
    index = memory / "MEMORY.md"
    index.write_text("- [Setup](setup.md) \u2014 how to set up\n", encoding="utf-8")
    write = {"file_path": str(index), "content": PROBES[name]}
    args = [sys.executable, str(ORACLE), str(tree), "--home", str(home),
            "--arg=--permission-mode", "--arg=acceptEdits", "--arg=--settings",
            f"--arg={json.dumps({'permissions': {'allow': ['Read', 'Write']}})}",
            f"--read={index}", f"--read=TOOL:Write:{json.dumps(write)}"]
    env = dict(os.environ, CC_ORACLE_VERSION=release, PYTHONIOENCODING="utf-8")
    r = subprocess.run(args, capture_output=True, env=env, timeout=300, stdin=subprocess.DEVNULL, check=False)
    if r.returncode != 0:
        return r.returncode, {}, r.stderr.decode("utf-8", "replace")[-800:]
    out = json.loads(r.stdout)
    requests = out.get("after_read") or []
    if len(requests) < 2:
        return 5, {}, f"the session stopped before the Write was answered: {json.dumps(requests)[:800]}"
    after_write = requests[1]
    results = [p["tool_result"] for p in after_write if "tool_result" in p]
    told: list[str] = []
    for part in after_write:
        for said in TOLD.findall(part.get("text", "")):
            if said not in told:
                told.append(said)
    written = index.read_text(encoding="utf-8") == PROBES[name]
    results = [json.loads(json.dumps(r).replace(str(memory), "<MEMORY>")) for r in results]
    return 0, {"probe": name, "hook": hook, "written": written, "tool_result": results, "told": told}, ""


def record(release: str, matchers: bool = False) -> list[dict[str, Any]]:
    def one(job: tuple[str, str | None]) -> dict[str, Any]:
        with tempfile.TemporaryDirectory(prefix="memlint-guard-") as root:
            code, data, error = run_probe(release, job[0], Path(root), job[1])
        if code != 0:
            raise RuntimeError(f"{release} {job}: exit {code}: {error}")
        return data

    with ThreadPoolExecutor(2) as pool:
        jobs = [("lines_214", m) for m in MATCHERS] if matchers else [(n, h) for h in HOOKS for n in PROBES]
        return list(pool.map(one, jobs))


def recording(release: str) -> list[dict[str, Any]]:
    path = RECORDINGS / f"{release}.json"
    if not path.exists():
        pytest.fail(f"no recording: run python tests/differential/test_write_guard_oracle.py {release}")
    data: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["probes"]
    return data


def recorded_matchers(release: str) -> list[dict[str, Any]]:
    recording(release)
    data: list[dict[str, Any]] = json.loads((RECORDINGS / f"{release}.json").read_text("utf-8"))["matchers"]
    return data


def expected(probe: dict[str, Any]) -> str | None:
    told = [t for t in probe["told"] if "MEMORY.md" in t]
    assert len(told) <= 1, told
    return told[0] if told else None


def modelled(release: str, name: str, hook: str | None) -> str | None:
    from memlint.model.memory.automem import cut_index, guard_text
    from memlint.model.release import pick

    t = cut_index(PROBES[name], pick(release))
    return guard_text(t.line_count, t.size, pick(release), hooked=hook is not None)


def recorded(release: str, name: str, hook: str | None) -> dict[str, Any]:
    return next(p for p in recording(release) if p["probe"] == name and p["hook"] == hook)


@pytest.mark.parametrize("release", RELEASES)
def test_recording_covers_every_probe_and_every_write_succeeded(release: str) -> None:
    probes = recording(release)
    assert [(p["probe"], p["hook"]) for p in probes] == [(name, hook) for hook in HOOKS for name in PROBES]
    assert all(p["written"] for p in probes)
    assert all(any("updated successfully" in str(r) for r in p["tool_result"]) for p in probes)


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("hook", HOOKS)
@pytest.mark.parametrize("name", list(PROBES))
def test_guard_text_is_what_the_cli_said(release: str, hook: str | None, name: str) -> None:
    assert modelled(release, name, hook) == expected(recorded(release, name, hook))


@pytest.mark.parametrize("release", RELEASES)
def test_a_write_is_hooked_when_a_post_tool_use_matcher_matches_it(release: str) -> None:
    said = {p["hook"]: expected(p) for p in recorded_matchers(release)}
    assert list(said) == list(MATCHERS)
    for matcher, hooked in MATCHERS.items():
        assert said[matcher] == modelled(release, "lines_214", matcher if hooked else None), matcher


@pytest.mark.oracle
@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("hook", HOOKS)
@pytest.mark.parametrize("name", ["lines_159", "lines_160", "lines_200", "units_25000"])
def test_live_claude_code_says_what_was_recorded(release: str, hook: str | None, name: str,
                                                  tmp_path: Path) -> None:
    if os.environ.get("MEMLINT_ORACLE") != "1":
        pytest.skip("live Claude Code runs only with MEMLINT_ORACLE=1")
    if not ORACLE.exists():
        pytest.skip(f"oracle not found at {ORACLE}")
    code, live, error = run_probe(release, name, tmp_path, hook)
    if code == 3:
        pytest.skip(f"oracle cannot fetch the Claude Code CLI (npm unreachable, exit 3): {error}")
    assert code == 0, error
    assert live["written"]
    assert expected(live) == expected(recorded(release, name, hook))
    assert expected(live) == modelled(release, name, hook)


def main() -> int:
    for release in sys.argv[1:] or list(RELEASES):
        try:
            probes, matchers = record(release), record(release, matchers=True)
        except RuntimeError as error:
            print(f"FAILED: {error}")
            return 1
        RECORDINGS.mkdir(exist_ok=True)
        (RECORDINGS / f"{release}.json").write_text(
            json.dumps({"claude_code": release, "probes": probes, "matchers": matchers}, ensure_ascii=False,
                       indent=1) + "\n", encoding="utf-8")
        said = [f"{p['probe']}/{p['hook']}: {'told' if expected(p) else '-'}" for p in probes]
        print(f"{release}: " + ", ".join(said))
    return 0


if __name__ == "__main__":
    sys.exit(main())
