"""`memlint hook` with the real Claude Code: the hook installed by `memlint hook install` into the
project's .claude/settings.json, the mock model answering with Write tool calls (the oracle's
`--read TOOL:Write:<json>`), and the agent's next request carrying memlint's message.

Recorded per release in recordings/<release>/_hook_memlint.json: the hook input Claude Code gave memlint
(captured by a wrapper around the command) and the texts the agent got after the writes. The
replay test feeds the recorded input to `memlint hook` and checks that what it answers is exactly
what Claude Code passed on to the agent; the live test (MEMLINT_ORACLE=1, skipped with a reason
when the CLI cannot be fetched) runs Claude Code again and compares with the recording.

    python tests/differential/test_hook_oracle.py 2.1.332     # record
"""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.oracle_live import ORACLE

HERE = Path(__file__).resolve().parent
RECORDINGS = HERE / "recordings"  # <release>/_hook_memlint.json
RELEASES = ("2.1.197", "2.1.332")
PREFIX = "hook additional context: "
MEMORY_LINES = 214


def _sanitize(path: str) -> str:
    from memlint.model.memory.automem import sanitize_project_path

    return sanitize_project_path(path)


def build(root: Path) -> tuple[Path, Path, Path]:
    """A git project whose CLAUDE.md is fine, HOME with its auto-memory folder, and the hook installed
    by `memlint hook install` (the command a wrapper that keeps each hook input)."""
    root = Path(os.path.realpath(root))
    tree, home = root / "tree", root / "home"
    tree.mkdir()
    home.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=tree, check=True)
    (tree / "CLAUDE.md").write_text("# Project\n")
    memory = home / ".claude" / "projects" / _sanitize(str(tree)) / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [Setup](setup.md) — how to set up\n")
    wrapper = root / "hook.sh"
    wrapper.write_text(f"#!/bin/sh\ntee -a {shlex.quote(str(root / 'inputs.jsonl'))} | "
                       f"{shlex.quote(sys.executable)} -m memlint hook\nstatus=$?\necho >> "
                       f"{shlex.quote(str(root / 'inputs.jsonl'))}\nexit $status\n")
    wrapper.chmod(0o755)
    subprocess.run([sys.executable, "-m", "memlint", "hook", "install", "--project-dir", str(tree),
                    "--command", f"{wrapper} memlint hook"], check=True, capture_output=True)
    return tree, home, memory / "MEMORY.md"


def writes(tree: Path, index: Path) -> list[dict[str, str]]:
    """An include broken in CLAUDE.md, then MEMORY.md written past its 200-line cut."""
    entries = "".join(f"- [Note {i}](note-{i}.md) — fact {i}\n" for i in range(1, MEMORY_LINES + 1))
    return [{"file_path": str(tree / "CLAUDE.md"), "content": "# Project\nSee @docs/setup.md\n"},
            {"file_path": str(index), "content": entries}]


def run_oracle(release: str, root: Path) -> tuple[int, dict[str, Any], str]:
    tree, home, index = build(root)
    args = [sys.executable, str(ORACLE), str(tree), "--home", str(home),
            "--arg=--permission-mode", "--arg=acceptEdits", "--arg=--settings",
            f"--arg={json.dumps({'permissions': {'allow': ['Read', 'Write']}})}"]
    args += [f"--read={w['file_path']}" for w in writes(tree, index)]  # 2.1.197 writes only what was read
    args += [f"--read=TOOL:Write:{json.dumps(w)}" for w in writes(tree, index)]
    env = dict(os.environ, CC_ORACLE_VERSION=release, PYTHONIOENCODING="utf-8")
    r = subprocess.run(args, capture_output=True, env=env, timeout=300, stdin=subprocess.DEVNULL, check=False)
    if r.returncode != 0:
        return r.returncode, {}, r.stderr.decode("utf-8", "replace")[-800:]
    out = json.loads(r.stdout)
    texts: list[str] = []  # every text after a tool result, each once, in order
    for request in out.get("after_read") or []:
        texts += [p["text"] for p in request if "text" in p and p["text"] not in texts]
    inputs = [json.loads(line) for line in (root / "inputs.jsonl").read_text().splitlines() if line.strip()]
    subs = [(str(tree), "<TREE>"), (str(home), "<HOME>"), (_sanitize(str(tree)), "<SANITIZED_TREE>")]

    def norm(value: Any) -> Any:
        text = json.dumps(value, ensure_ascii=False)
        for old, new in subs:
            text = text.replace(old, new)
        return json.loads(text)

    keep = ("hook_event_name", "tool_name", "tool_input", "tool_response", "cwd")
    return 0, {"claude_code": out["claude_code"], "inputs": [norm({k: i[k] for k in keep if k in i}) for i in inputs],
               "agent_got": norm([t for t in texts if PREFIX in t])}, ""


def _told(texts: list[str]) -> list[str]:
    """What the hooks said, as Claude Code passed it on (its own `<system-reminder>` wrapper removed)."""
    out = []
    for text in texts:
        text = text.removeprefix("<system-reminder>\n").split("\n</system-reminder>", 1)[0]
        out += [part.strip("\n") for part in re.split(r"(?:^|\n\n)PostToolUse:\w+ hook additional context: ", text)
                if part.strip()]
    return list(dict.fromkeys(out))  # a later request repeats what an earlier one got


def recording(release: str) -> dict[str, Any]:
    path = RECORDINGS / release / "_hook_memlint.json"
    if not path.exists():
        pytest.fail(f"no recording: run python tests/differential/test_hook_oracle.py {release}")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("release", RELEASES)
def test_recorded_agent_got_memlints_message(release: str) -> None:
    told = [t for t in _told(recording(release)["agent_got"]) if t.startswith("memlint:")]
    assert len(told) == 2, told
    assert "`@docs/setup.md`" in told[0] and "What to do:" in told[0]
    assert f"MEMORY.md is now {MEMORY_LINES} lines: lines 201-{MEMORY_LINES} will not load next session" in told[1]


@pytest.mark.parametrize("release", RELEASES)
def test_replayed_hook_input_gives_what_the_agent_got(release: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from memlint.cli import main

    data = recording(release)
    tree, home, _index = build(tmp_path)
    monkeypatch.setenv("HOME", str(home))
    subs = [("<SANITIZED_TREE>", _sanitize(str(tree))), ("<TREE>", str(tree)), ("<HOME>", str(home))]
    expected = [t for t in _told(data["agent_got"]) if t.startswith("memlint:")]
    got = []
    for given in data["inputs"]:
        text = json.dumps(given)
        for old, new in subs:
            text = text.replace(old, new)
        hook_input = json.loads(text)
        Path(hook_input["tool_input"]["file_path"]).write_text(hook_input["tool_input"]["content"])
        result = CliRunner().invoke(main, ["hook"], input=text)
        assert result.exit_code == 0
        if result.output:
            said = json.loads(result.output)["hookSpecificOutput"]["additionalContext"]
            for old, new in subs[::-1]:
                said = said.replace(new, old)
            got.append(said)
    assert got == expected


@pytest.mark.oracle
@pytest.mark.parametrize("release", RELEASES)
def test_live_claude_code_gives_the_agent_memlints_message(release: str, tmp_path: Path) -> None:
    if os.environ.get("MEMLINT_ORACLE") != "1":
        pytest.skip("live Claude Code runs only with MEMLINT_ORACLE=1")
    if not ORACLE.exists():
        pytest.skip(f"oracle not found at {ORACLE}")
    code, live, error = run_oracle(release, tmp_path)
    if code == 3:
        pytest.skip(f"oracle cannot fetch the Claude Code CLI (npm unreachable, exit 3): {error}")
    assert code == 0, error
    expected = recording(release)
    assert [t for t in _told(live["agent_got"]) if t.startswith("memlint:")] == \
        [t for t in _told(expected["agent_got"]) if t.startswith("memlint:")]


def main() -> int:
    releases = sys.argv[1:] or list(RELEASES)
    for release in releases:
        with tempfile.TemporaryDirectory(prefix="memlint-hook-") as root:
            code, data, error = run_oracle(release, Path(root))
        if code != 0:
            print(f"{release}: FAILED (exit {code}): {error}")
            return 1
        (RECORDINGS / release / "_hook_memlint.json").write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n",
                                                    encoding="utf-8")
        print(f"{release}: ok ({len(data['inputs'])} hook inputs, {len(data['agent_got'])} texts for the agent)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
