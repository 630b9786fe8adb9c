"""Every command in the README runs, and prints what the README shows (tests/readme_examples.py);
its two set-up commands are .ci/run's; its configuration, Python and workflow examples work. The
pre-commit blocks run with the real pre-commit in test_precommit.py."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from memlint.cli import main
from tests import readme_examples as rx

TEXT = rx.README.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def workdir() -> Path:
    where = rx.workdir()
    yield where  # type: ignore[misc]
    shutil.rmtree(where, ignore_errors=True)


EXAMPLES = rx.examples(TEXT)


@pytest.fixture(scope="module")
def outcomes(workdir: Path) -> dict[int, tuple[int, list[str]]]:
    """Every console example run once, in the README's order, in one folder: a later command may
    read what an earlier one wrote (a baseline), whichever worker runs which test."""
    return {index: rx.run(example, workdir) for index, example in enumerate(EXAMPLES)}


@pytest.mark.parametrize("index", range(len(EXAMPLES)), ids=[e.command[:60] for e in EXAMPLES])
def test_console_example(index: int, outcomes: dict[int, tuple[int, list[str]]]) -> None:
    example = EXAMPLES[index]
    code, actual = outcomes[index]
    assert code in (0, 1), "\n".join(actual)
    assert rx.matches(example.expected, actual), (
        "README output differs (update with `python tests/readme_examples.py --update`):\n" + "\n".join(actual))


def test_exactly_two_setup_commands_and_the_second_is_ci(workdir: Path) -> None:
    commands = [body.strip() for _, body in rx.blocks(TEXT, "sh")]
    assert len(commands) == 2
    install, tests = commands
    assert install.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install . && ")
    for part in install.split("pip install . && ")[1].split(";"):  # pip install itself: test_packaging.py
        code, actual = rx.run(rx.Example(part.strip(), ("...",), (0, 0)), workdir)
        assert code in (0, 1) and actual, "\n".join(actual)
        assert "context at start in" in actual[0] or actual[-1].startswith("Found ")
    ci = (rx.REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert tests == "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' && python -m pytest -q -n auto"
    assert "pip install --quiet -e '.[test]'" in ci and "python -m pytest -q -n auto\n" in ci
    assert "`python -m pytest -q -m slow`" in TEXT and "python -m pytest -q -m slow\n" in ci  # the second command


@pytest.mark.parametrize("index", range(len(rx.blocks(TEXT, "toml"))))
def test_configuration_example_is_valid(index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(rx.REPO / "examples" / "app", tmp_path / "app")
    (tmp_path / "app" / "notes").mkdir()
    (tmp_path / "app" / "notes" / "TEMPLATE.md").write_text("# Session Title\n_A short title_\n", encoding="utf-8")
    (tmp_path / "app" / "pyproject.toml").write_text(rx.blocks(TEXT, "toml")[index][1], encoding="utf-8")
    monkeypatch.chdir(tmp_path / "app")
    result = CliRunner().invoke(main, ["check", "."])
    assert result.exit_code in (0, 1), result.output
    assert "ML510" not in result.stdout  # the example's ignore is in force
    context = CliRunner().invoke(main, ["context", "."])
    assert "1,000,000-token window (" in context.stdout and "pyproject.toml: options.context-over-budget.window" in context.stdout


def test_python_example_runs(workdir: Path) -> None:
    for _, code in rx.blocks(TEXT, "python"):
        done = subprocess.run([sys.executable, "-c", code], cwd=workdir, capture_output=True, text=True,
                              check=False, timeout=300, env={**os.environ, "PYTHONPATH": str(rx.REPO)})
        assert done.returncode == 0, done.stderr
        assert "ML102" in done.stdout


def test_action_example_uses_real_inputs() -> None:
    action = yaml.safe_load((rx.REPO / "action.yml").read_text(encoding="utf-8"))
    steps = [yaml.safe_load(body) for _, body in rx.blocks(TEXT, "yaml")]
    uses = [s[0] for s in steps if isinstance(s, list) and "uses" in s[0]]
    assert len(uses) == 1 and set(uses[0]["with"]) <= set(action["inputs"])
