"""`memlint hook`: silent on a harmless write, two lines in Claude Code's hook protocol when a write
made a memory file worse, judged against the text before the write (`tool_response.originalFile`)."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlint.cli import main
from memlint.model.memory.automem import sanitize_project_path as sanitize_path

SECRET = "ghp_Q7f3kLm9Xz2Rt8Vb1Nc4Hy6Jd0Wp5Es3Ga7K"


def index(n: int) -> str:
    return "".join(f"- [Entry {i}](e{i}.md) — fact {i}\n" for i in range(1, n + 1))


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("x = 1\n")
    (root / "CLAUDE.md").write_text("# Project\n")
    return root


def run(project: Path, path: Path, new: str, old: str | None, tool: str = "Write",
        extra: dict[str, Any] | None = None) -> tuple[int, str]:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(new)
    data = {"session_id": "s", "cwd": str(project), "hook_event_name": "PostToolUse", "tool_name": tool,
            "tool_input": {"file_path": str(path), "content": new},
            "tool_response": {"filePath": str(path), "originalFile": old}, **(extra or {})}
    result = CliRunner().invoke(main, ["hook"], input=json.dumps(data))
    return result.exit_code, result.output


def told(output: str) -> str:
    data = json.loads(output)
    assert data["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    text: str = data["hookSpecificOutput"]["additionalContext"]
    assert 1 <= len(text.splitlines()) <= 2
    return text


def memory_index(project: Path) -> Path:
    folder = Path(os.environ["HOME"]) / ".claude" / "projects" / sanitize_path(str(project.resolve()))
    return folder / "memory" / "MEMORY.md"


def test_a_write_to_a_source_file_is_silent(project: Path) -> None:
    assert run(project, project / "src" / "app.py", "x = 2\n", "x = 1\n") == (0, "")


def test_a_harmless_memory_write_is_silent(project: Path) -> None:
    assert run(project, project / "CLAUDE.md", "# Project\nUse tabs.\n", "# Project\n", "Edit") == (0, "")


def test_a_broken_include_is_told(project: Path) -> None:
    code, out = run(project, project / "CLAUDE.md", "# Project\nSee @docs/missing.md\n", "# Project\n", "Edit")
    assert code == 0
    text = told(out)
    assert "`@docs/missing.md`" in text and "ML101" in text and text.startswith("memlint: after this Edit of CLAUDE.md")


def test_an_include_broken_before_the_write_is_not_told_again(project: Path) -> None:
    old = "# Project\nSee @docs/missing.md\n"
    assert run(project, project / "CLAUDE.md", "# Project\n\nSee @docs/missing.md\nMore.\n", old, "Edit") == (0, "")


def test_memory_index_cut_says_which_lines(project: Path) -> None:
    _code, out = run(project, memory_index(project), index(214), index(150))
    text = told(out)
    assert "MEMORY.md is now 214 lines: lines 201-214 will not load next session" in text
    assert "topic files" in text


def test_memory_index_past_the_guard_warning(project: Path) -> None:
    text = told(run(project, memory_index(project), index(165), index(150))[1])
    assert "165 of 200 lines, past the write guard's warning point" in text


def test_memory_index_cut_already_and_not_grown_is_silent(project: Path) -> None:
    old = index(214)
    new = old.replace("fact 3\n", "f 3\n")  # shorter than before
    assert run(project, memory_index(project), new, old, "Edit") == (0, "")


def test_a_memory_index_that_grows_past_the_cut_is_told_again(project: Path) -> None:
    assert "220 lines" in told(run(project, memory_index(project), index(220), index(214))[1])


def test_a_secret_and_hidden_unicode(project: Path) -> None:
    text = told(run(project, project / "CLAUDE.md", f"# Project\ntoken: {SECRET}\n", "# Project\n")[1])
    assert "ML601" in text and SECRET not in text and "rotate" in text
    rule = project / ".claude" / "rules" / "style.md"
    text = told(run(project, rule, "Use tabs.\u200b\u200b\n", None)[1])
    assert "ML602" in text


def test_a_rule_whose_paths_now_match_nothing(project: Path) -> None:
    rule = project / ".claude" / "rules" / "py.md"
    old = "---\npaths: src/**/*.py\n---\nType every function.\n"
    assert run(project, rule, old, None) == (0, "")
    text = told(run(project, rule, old.replace("src/", "scr/"), old, "Edit")[1])
    assert "ML506" in text and "paths:" in text


def test_an_included_file_is_a_memory_file(project: Path) -> None:
    (project / "CLAUDE.md").write_text("# Project\n@docs/notes.md\n")
    text = told(run(project, project / "docs" / "notes.md", f"api key {SECRET}\n", "notes\n")[1])
    assert "ML601" in text


def test_config_ignores_are_honoured(project: Path) -> None:
    (project / ".memlint.toml").write_text('ignore = ["ML101"]\n')
    assert run(project, project / "CLAUDE.md", "See @missing.md\n", "# Project\n") == (0, "")


@pytest.mark.parametrize("data", [
    {"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"file_path": "CLAUDE.md"}},
    {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}},
    {"hook_event_name": "PostToolUse", "tool_name": "Write", "tool_input": {}},
    [1, 2], "text",
])
def test_other_input_is_silent(data: Any) -> None:
    result = CliRunner().invoke(main, ["hook"], input=json.dumps(data))
    assert (result.exit_code, result.output) == (0, "")


def test_input_that_is_no_json_goes_to_the_user_not_the_agent() -> None:
    result = CliRunner().invoke(main, ["hook"], input="{not json")
    assert result.exit_code == 1 and "not JSON" in result.output


def test_unknown_old_text_counts_every_finding(project: Path) -> None:
    path = project / "CLAUDE.md"
    path.write_text("See @missing.md\n")
    data = {"cwd": str(project), "hook_event_name": "PostToolUse", "tool_name": "MultiEdit",
            "tool_input": {"file_path": "CLAUDE.md", "edits": []}}
    result = CliRunner().invoke(main, ["hook"], input=json.dumps(data))
    assert re.search(r"after this MultiEdit of CLAUDE\.md: .*ML101", result.output)


def test_the_process_claude_code_runs(project: Path) -> None:
    """`memlint hook` as Claude Code starts it (answered before the command line is imported)."""
    import subprocess
    import sys

    (project / "CLAUDE.md").write_text("See @gone.md\n")
    data = {"cwd": str(project), "hook_event_name": "PostToolUse", "tool_name": "Write",
            "tool_input": {"file_path": "CLAUDE.md"}, "tool_response": {"originalFile": "# Project\n"}}
    env = dict(os.environ, HOME=os.environ["HOME"])
    done = subprocess.run([sys.executable, "-m", "memlint", "hook"], input=json.dumps(data).encode(),
                          capture_output=True, env=env, check=False)
    assert done.returncode == 0 and "`@gone.md`" in told(done.stdout.decode())
    bad = subprocess.run([sys.executable, "-m", "memlint", "hook"], input=b"\xff{", capture_output=True, check=False)
    assert (bad.returncode, bad.stdout) == (1, b"") and b"not JSON" in bad.stderr


_json = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8)),
                     lambda inner: st.one_of(st.lists(inner, max_size=3),
                                             st.dictionaries(st.text(max_size=12), inner, max_size=4)),
                     max_leaves=8)
_inputs = st.fixed_dictionaries(
    {"hook_event_name": st.sampled_from(["PostToolUse", "PreToolUse", 3]),
     "tool_name": st.sampled_from(["Write", "Edit", "MultiEdit", "Read", None]),
     "tool_input": st.one_of(_json, st.fixed_dictionaries({"file_path": st.sampled_from(
         ["CLAUDE.md", "src/app.py", "", "/", ".claude/rules/x.md", "../x.md", "~/CLAUDE.md", "a\x00b.md"])})),
     "tool_response": st.one_of(_json, st.fixed_dictionaries({"originalFile": st.one_of(st.none(), st.text())}))},
    optional={"cwd": st.one_of(st.just("."), st.text(max_size=5), st.integers())})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_inputs)
def test_any_hook_input_is_answered_without_an_error(project: Path, data: dict[str, Any]) -> None:
    from memlint.hook.guard import answer

    if isinstance(data.get("cwd"), str) and data["cwd"] in (".", ""):
        data["cwd"] = str(project)
    out = answer(json.dumps(data).encode(), {"HOME": os.environ["HOME"]})
    assert out is None or json.loads(out)["hookSpecificOutput"]["hookEventName"] == "PostToolUse"


def test_a_bug_is_one_line_for_the_user(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from memlint.hook import guard

    def broken(raw: bytes, environ: Any) -> str:
        raise RuntimeError("boom")

    monkeypatch.setattr(guard, "answer", broken)
    out, err = io.StringIO(), io.StringIO()
    assert guard.run(io.BytesIO(b"{}"), out, err, {}) == 1
    assert out.getvalue() == "" and err.getvalue().count("\n") == 1 and "internal error: RuntimeError: boom" in err.getvalue()


def test_a_secret_in_a_topic_file(project: Path) -> None:
    index_path = memory_index(project)
    index_path.parent.mkdir(parents=True)
    index_path.write_text("- [Deploy](deploy.md) — how we deploy\n")
    text = told(run(project, index_path.parent / "deploy.md", f"Use {SECRET} to deploy.\n", None)[1])
    assert "auto-memory topic file" in text and "ML601" in text


def test_the_secret_is_told_first_and_the_rest_named(project: Path) -> None:
    user = Path(os.environ["HOME"]) / ".claude" / "CLAUDE.md"
    text = told(run(project, user, f"@gone.md\ntoken {SECRET}\n", "me\n")[1])
    first, second = text.splitlines()
    assert first.startswith("memlint: after this Write of ~/.claude/CLAUDE.md: ") and "ML601" in first
    assert "in every session of the project" in first  # user memory is in no repository
    assert second.endswith("Also ML101 include-target-missing: `memlint check ~/.claude/CLAUDE.md`.")


def test_a_settings_file_left_for_claude_code_to_ignore_is_told(project: Path) -> None:
    settings = project / ".claude" / "settings.json"
    good = '{"claudeMdExcludes": ["**/vendor/**"]}\n'
    code, out = run(project, settings, '{"claudeMdExcludes": ["**/vendor/**"], "cleanupPeriodDays": 0}\n', good, "Edit")
    text = told(out)
    assert code == 0 and "ignores this settings file whole" in text and "`cleanupPeriodDays`" in text and "ML528" in text
    assert "not JSON" not in text
    broken = '{"claudeMdExcludes": ["**/vendor/**"],}\n'  # a trailing comma: JSON.parse refuses it
    assert "no JSON object" in told(run(project, settings, broken, good, "Edit")[1])


def test_a_settings_file_as_broken_before_or_fine_is_silent(project: Path) -> None:
    settings = project / ".claude" / "settings.local.json"
    bad = '{"model": 5}\n'
    assert run(project, settings, '{"model": 5, "verbose": true}\n', bad, "Edit") == (0, "")
    assert run(project, settings, '{"model": "opus", "env": {"A": 1}}\n', bad, "Edit") == (0, "")
    assert run(project, project / "settings.json", bad, None) == (0, "")  # not Claude Code's settings file


def test_ml528_ignored_in_the_config_keeps_the_hook_silent(project: Path) -> None:
    (project / ".memlint.toml").write_text('ignore = ["ML528"]\n')
    assert run(project, project / ".claude" / "settings.json", '{"model": 5}\n', "{}\n") == (0, "")
