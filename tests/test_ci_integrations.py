"""The GitHub Action (action.yml) and the GitLab CI example (docs/ci/gitlab-ci.yml): their shell
commands run here as CI would run them (the install step aside: the package is installed already and
its wheel is tested in test_packaging.py), and `memlint check --watch` re-checks on change."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
BIN = str(Path(sys.executable).parent)


def _project(tmp_path: Path, broken: bool) -> Path:
    project = tmp_path / "project"
    project.mkdir(parents=True)
    (project / "CLAUDE.md").write_text("# P\n\n" + ("See @gone.md\n" if broken else "Fine.\n"), encoding="utf-8")
    return project


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    env["PATH"] = BIN + os.pathsep + env.get("PATH", "")
    env.update(extra)
    return env


def _expand(value: str, inputs: dict[str, str], outputs: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        expr = match.group(1).strip()
        if expr.startswith("inputs."):
            return inputs[expr[len("inputs."):]]
        if expr.startswith("steps.check.outputs."):
            return outputs[expr[len("steps.check.outputs."):]]
        if expr == "github.action_path":
            return str(REPO)
        raise AssertionError(f"unexpected expression {expr}")
    return re.sub(r"\$\{\{(.*?)\}\}", one, value)


def _run_action(project: Path, tmp_path: Path, args: str = "") -> tuple[dict[str, str], str, str]:
    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    inputs = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    inputs["args"] = args
    outputs: dict[str, str] = {}
    output_file, summary = tmp_path / "gh-output", tmp_path / "gh-summary"
    output_file.write_text("", encoding="utf-8")
    summary.write_text("", encoding="utf-8")
    log = ""
    final = ""
    uses = [step["uses"].split("@")[0] for step in action["runs"]["steps"] if "uses" in step]
    assert uses == ["actions/setup-python", "github/codeql-action/upload-sarif"]
    for step in action["runs"]["steps"]:
        if "run" not in step or step["name"] == "Install memlint":
            continue
        assert step["shell"] == "bash" and "${{" not in step["run"]  # inputs only through env
        env = _env(GITHUB_OUTPUT=str(output_file), GITHUB_STEP_SUMMARY=str(summary),
                   **{k: _expand(str(v), inputs, outputs) for k, v in step.get("env", {}).items()})
        done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=project, env=env, capture_output=True,
                              text=True, check=False, timeout=300)
        log += done.stdout + done.stderr
        for line in output_file.read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition("=")
            outputs[key] = value
        final = str(done.returncode)
    return outputs, log + f"\nfinal={final}", summary.read_text(encoding="utf-8")


def test_action_on_a_broken_tree(tmp_path: Path) -> None:
    project = _project(tmp_path, broken=True)
    outputs, log, summary = _run_action(project, tmp_path)
    assert outputs["exit-code"] == "1" and log.endswith("final=1")
    assert "::error title=ML101 include-target-missing,file=CLAUDE.md,line=3" in log
    sarif = json.loads((project / "memlint.sarif").read_text(encoding="utf-8"))
    assert sarif["runs"][0]["results"][0]["ruleId"] == "ML101"
    assert summary.startswith("## memlint") and "ML101" in summary


def test_action_on_a_clean_tree_and_with_args(tmp_path: Path) -> None:
    project = _project(tmp_path, broken=False)
    outputs, log, summary = _run_action(project, tmp_path)
    assert outputs["exit-code"] == "0" and log.endswith("final=0") and "No problems" in summary
    broken = _project(tmp_path / "b", broken=True)
    outputs, _, _ = _run_action(broken, tmp_path / "b", args="--ignore ML101")
    assert outputs["exit-code"] == "0"


def test_gitlab_ci_example(tmp_path: Path) -> None:
    job = yaml.safe_load((REPO / "docs" / "ci" / "gitlab-ci.yml").read_text(encoding="utf-8"))["memlint"]
    project = _project(tmp_path, broken=True)
    codes = []
    for command in job["script"]:
        if command.startswith("pip install"):  # run in test_install_commands.py
            assert command == 'pip install "$MEMLINT_PIP_SPEC"'
            continue
        done = subprocess.run(["sh", "-c", command], cwd=project, env=_env(), capture_output=True, text=True,
                              check=False, timeout=300)
        codes.append(done.returncode)
    assert codes == [0, 0, 1]  # the reports never fail the job; the last check does
    reports = job["artifacts"]["reports"]
    quality = json.loads((project / reports["codequality"]).read_text(encoding="utf-8"))
    assert quality[0]["check_name"].startswith("ML101") and quality[0]["location"]["path"] == "CLAUDE.md"
    assert ET.parse(project / reports["junit"]).getroot().find("testsuite/testcase/failure") is not None


def test_watch_rechecks_on_change_and_ctrl_c_exits_0(tmp_path: Path) -> None:
    project = _project(tmp_path, broken=False)
    # Ctrl-C as a terminal sends it: a suite started in the background (`pytest &`) runs with SIGINT
    # ignored, which its children would inherit (a process started so rightly ignores Ctrl-C), so the
    # command is run with Python's own Ctrl-C handler put back first
    start = ("import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
             "sys.argv = ['memlint', *sys.argv[1:]]; runpy.run_module('memlint', run_name='__main__')")
    proc = subprocess.Popen([sys.executable, "-c", start, "check", ".", "--watch", "--color", "never"],
                            cwd=project, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    try:
        assert "All checks passed" in proc.stdout.readline()
        time.sleep(0.6)
        (project / "CLAUDE.md").write_text("# P\n\nSee @gone.md\n", encoding="utf-8")
        seen = ""
        deadline = time.monotonic() + 60
        while "ML101" not in seen and time.monotonic() < deadline:
            seen += proc.stdout.readline()
        assert "change detected" in seen and "ML101" in seen
    finally:
        proc.send_signal(signal.SIGINT)
        rest = proc.communicate(timeout=30)[0]
    assert proc.returncode == 0, rest


def test_runs_that_write_files_are_never_replayed_from_the_run_cache(tmp_path: Path) -> None:
    project = _project(tmp_path, broken=True)
    (project / ".git").mkdir()  # the cache lives at the project root
    memlint = [str(Path(BIN) / "memlint"), "check", "."]
    for args, written in ((["-o", "out.txt"], "out.txt"), (["--output-file", "out.sarif", "--format", "sarif"],
                                                           "out.sarif"),
                          (["--write-baseline", "b.json"], "b.json")):
        for _ in range(2):
            (project / written).unlink(missing_ok=True)
            subprocess.run([*memlint, *args], cwd=project, env=_env(), capture_output=True, check=False, timeout=120)
            assert (project / written).is_file(), args
    first = subprocess.run([*memlint, "--color", "never"], cwd=project, env=_env(), capture_output=True, text=True,
                           check=False)
    again = subprocess.run([*memlint, "--color", "never"], cwd=project, env=_env(), capture_output=True, text=True,
                           check=False)
    assert first.stdout == again.stdout and "ML101" in again.stdout and again.returncode == 1
