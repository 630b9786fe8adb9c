"""`memlint hook` on input Python reads differently from Claude Code's JavaScript: JSON nested past
Python's recursion limit, and strings that hold a lone surrogate."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memlint.hook import guard
from memlint.hook.hook_input import js_string

DEEP = 100_000


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "CLAUDE.md").write_text("See @gone.md\n", encoding="utf-8")
    return root


def hook(raw: bytes) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = guard.run(io.BytesIO(raw), out, err, {"HOME": os.environ.get("HOME", "/nonexistent")})
    return code, out.getvalue(), err.getvalue()


def write_input(project: Path, original: str = "# Project\n", **extra: Any) -> dict[str, Any]:
    return {"cwd": str(project), "hook_event_name": "PostToolUse", "tool_name": "Write",
            "tool_input": {"file_path": "CLAUDE.md", "content": "See @gone.md\n"},
            "tool_response": {"originalFile": original}, **extra}


def with_deep_field(data: dict[str, Any], opening: str = "[", closing: str = "]") -> bytes:
    text = json.dumps(data)
    return (text[:-1] + ', "extra": ' + opening * DEEP + closing * DEEP + "}").encode()


# nesting -------------------------------------------------------------------------------------------
def test_json_nested_past_the_recursion_limit_is_one_line_not_an_internal_error(project: Path) -> None:
    # (Claude Code never sends it: JSON.stringify overflows first; it was "internal error: RecursionError")
    deep = "memlint hook: the hook input on stdin is JSON nested too deep to read\n"
    assert hook(b"[" * 1_000_000 + b"]" * 1_000_000 + b"\n") == (1, "", deep)
    assert hook(with_deep_field(write_input(project))) == (1, "", deep)
    assert hook(b"[" * 1_000_000 + b"]" * 999_999) in ((1, "", deep), (1, "", "memlint hook: the hook input on stdin is not JSON\n"))
    assert hook(b"[" * 10 + b"]" * 10) == (0, "", "")  # valid JSON that is no hook input: silent, as `[]` is


def test_the_process_claude_code_runs_on_deep_input() -> None:
    done = subprocess.run([sys.executable, "-m", "memlint", "hook"], input=b"{\"a\": " * 200_000, capture_output=True,
                          check=False, timeout=120)
    assert (done.returncode, done.stdout) == (1, b"") and done.stderr.startswith(b"memlint hook: the hook input")
    assert b"internal error" not in done.stderr and b"Traceback" not in done.stderr


# lone surrogates -----------------------------------------------------------------------------------
def test_js_string() -> None:
    assert js_string("plain") == "plain"
    assert js_string("a\ud800b\udfff\U0001f600c\ud83d") == "a\ufffdb\ufffd\U0001f600c\ufffd"


@pytest.mark.parametrize("original", ["\ud800 x", "# Project\n\udcff", "\udfff\ud800"])
def test_a_lone_surrogate_in_the_old_text_is_text(project: Path, original: str) -> None:
    code, out, err = hook(json.dumps(write_input(project, original)).encode())
    assert (code, err) == (0, "") and "`@gone.md`" in json.loads(out)["hookSpecificOutput"]["additionalContext"]


def test_the_old_text_with_a_lone_surrogate_is_the_text_node_wrote(project: Path) -> None:
    """The include was broken before the write too (Node wrote U+FFFD for the surrogate): silent."""
    assert hook(json.dumps(write_input(project, "See @gone.md \ud800\n")).encode()) == (0, "", "")


def test_lone_surrogates_in_the_paths_and_other_fields(project: Path) -> None:
    data = write_input(project, tool_input={"file_path": "CLAUDE\ud800.md", "content": "\ud800",
                                            "new_string": "\udc00", "old_string": "\ud800"})
    assert hook(json.dumps(data).encode()) == (0, "", "")
    data = write_input(project, cwd=str(project) + "\ud800")
    data["tool_input"]["file_path"] = str(project / "CLAUDE.md")
    code, out, err = hook(json.dumps(data).encode())
    assert code == 0 and err == "" and "utf-8" not in out
    data = write_input(project, tool_name="Edit", tool_input={"file_path": "CLAUDE.md", "old_string": "\ud800",
                                                             "new_string": "\udfff"})
    code, out, err = hook(json.dumps(data).encode())
    assert (code, err) == (0, "") and "ML101" in out


def test_the_process_claude_code_runs_with_a_lone_surrogate(project: Path) -> None:
    raw = json.dumps(write_input(project, "\ud800 x")).encode()
    assert b"\\ud800" in raw
    done = subprocess.run([sys.executable, "-m", "memlint", "hook"], input=raw, capture_output=True, check=False,
                          env=dict(os.environ), timeout=60)
    assert (done.returncode, done.stderr) == (0, b"") and b"`@gone.md`" in done.stdout
