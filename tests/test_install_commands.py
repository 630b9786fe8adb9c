"""Every install command in the README, in docs/ and in the CI examples (docs/ci/gitlab-ci.yml,
action.yml) runs as written on a machine with no memlint, and gives a working `memlint` command.

Network-free: the repository's URL (https://git.example.com/you/memlint, standing for the user's copy)
becomes a file:// URL of a clone of this tree; `pip install` and `pip wheel` get `--no-index
--no-build-isolation`; the runtime dependencies and the build backend come from this test
environment through a path in the fresh environment (no `.pth` hook of it runs, so this checkout's
editable memlint stays invisible). Nothing else of a command is changed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sysconfig
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from memlint import __version__
from tests.readme_examples import README, blocks

REPO = Path(__file__).resolve().parents[1]
URL = "https://git.example.com/you/memlint"
pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")]
IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1"}


def _install_commands() -> list[tuple[str, str]]:
    """(where, command) of every command that installs memlint or a plugin, as the user reads it."""
    found: list[tuple[str, str]] = []
    readme = README.read_text(encoding="utf-8")
    for language in ("sh", "bash", "shell"):
        for _, body in blocks(readme, language):
            for line in body.splitlines():
                if re.search(r"\bpipx? (install|wheel)\b", line):
                    found.append(("README.md", line.strip()))
    for doc in sorted((REPO / "docs").rglob("*.md")):
        for line in doc.read_text(encoding="utf-8").splitlines():
            if re.match(r"^\$? ?pipx? install\b", line.strip()):
                found.append((str(doc.relative_to(REPO)), line.strip().removeprefix("$ ")))
    job = yaml.safe_load((REPO / "docs" / "ci" / "gitlab-ci.yml").read_text(encoding="utf-8"))["memlint"]
    for command in job["script"]:
        if "pip" in command.split()[0:1]:
            for name, value in job.get("variables", {}).items():
                command = command.replace(f'"${name}"', f'"{value}"').replace(f"${name}", value)
            found.append(("docs/ci/gitlab-ci.yml", command))
    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    for step in action["runs"]["steps"]:
        if step.get("name") == "Install memlint":
            found.append(("action.yml", step["run"].replace('"$ACTION_PATH"', "<CLONE>")))
    return found


COMMANDS = _install_commands()


def test_every_place_that_installs_is_found() -> None:
    places = {where for where, _ in COMMANDS}
    assert {"README.md", "docs/ci/gitlab-ci.yml", "action.yml", "docs/plugins.md"} <= places
    assert not any("claude-memlint" in command.split() for _, command in COMMANDS), "not on the index yet"


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A clone of this repository whose last commit holds the working tree's files (a user's copy)."""
    base = tmp_path_factory.mktemp("install")
    env = {**os.environ, **IDENTITY}
    clone = base / "memlint"
    done = subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(REPO), str(clone)], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot clone this checkout: {done.stderr[-300:]}")
    for name in ("memlint", "tests", "docs", "pyproject.toml", "README.md", "LICENSE", "action.yml"):
        target = clone / name
        if target.is_dir():
            shutil.rmtree(target)
        if (REPO / name).is_dir():
            # (links as links, as git keeps them: rule fixtures hold links to nothing)
            shutil.copytree(REPO / name, target, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        elif (REPO / name).exists():
            shutil.copy2(REPO / name, target)
    subprocess.run(["git", "add", "-A"], cwd=clone, env=env, check=True, capture_output=True)
    subprocess.run(["git", "commit", "-qm", "working tree", "--allow-empty"], cwd=clone, env=env, check=True)
    subprocess.run(["git", "branch", "-f", "main", "HEAD"], cwd=clone, env=env, check=False, capture_output=True)
    yield clone


def _prepare(python: str) -> str:
    """Shell commands that give a new venv this environment's packages instead of a download: the
    setuptools ensurepip bundles (older than the build needs; build isolation would fetch a newer
    one) goes, and this environment's site-packages is added as a plain path."""
    ours = sysconfig.get_paths()["purelib"]
    write = ("import pathlib, sysconfig; pathlib.Path(sysconfig.get_paths()['purelib'], "
             f"'deps-from-test-env.pth').write_text({ours + chr(10)!r})")
    return f'{python} -m pip uninstall -q -y setuptools >/dev/null 2>&1 || true; {python} -c "{write}"'


def _fresh_venv(where: Path) -> Path:
    venv.EnvBuilder(with_pip=True).create(where)
    subprocess.run(["bash", "-c", _prepare(str(where / "bin" / "python"))], check=True)
    return where / "bin"


def _offline(command: str, clone: Path) -> str:
    command = command.replace(URL, f"file://{clone}").replace("<CLONE>", f'"{clone}"')
    command = command.replace("python3 -m venv .venv", f"python3 -m venv .venv && {{ {_prepare('.venv/bin/python')}; }}")
    command = command.replace("python -m pytest -q", "python -m pytest --version")  # the suite itself: not here
    return re.sub(r"\bpip (install|wheel)\b", r"pip \1 --no-index --no-build-isolation", command)


@pytest.mark.parametrize(("where", "command"), COMMANDS, ids=[f"{w}: {c[:50]}" for w, c in COMMANDS])
def test_install_command_works_as_written(where: str, command: str, source: Path, tmp_path: Path) -> None:
    bin_dir = _fresh_venv(tmp_path / "venv")
    work = tmp_path / "work"
    if re.search(r"pip install (-e )?'?\.(\s|\[|$)", command) or "./tests/" in command:
        shutil.copytree(source, work, symlinks=True, ignore=shutil.ignore_patterns(".git"))  # run in a clone, as written
    else:
        work.mkdir()
        if "./memlint" in command and "git clone" not in command:  # the README's wheel line follows its clone line
            subprocess.run(["git", "clone", "-q", str(source), str(work / "memlint")], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_FIND_LINKS", "PIP_INDEX", "PIP_EXTRA"))}
    env.update(IDENTITY)
    env["PATH"] = str(bin_dir) + os.pathsep + env.get("PATH", "")
    env["PIP_NO_INDEX"] = "1"
    env.pop("PYTHONPATH", None)
    if "plugin_example" in command:  # docs/plugins.md: "Install it beside memlint"
        first = subprocess.run(["bash", "-e", "-c", _offline("pip install .", source)], cwd=work, env=env,
                               capture_output=True, text=True, check=False, timeout=900)
        assert first.returncode == 0, first.stdout[-2000:] + first.stderr[-2000:]
    done = subprocess.run(["bash", "-e", "-c", _offline(command, source)], cwd=work, env=env, capture_output=True,
                          text=True, check=False, timeout=900)
    ok = (0, 1) if command.rstrip().split(";")[-1].strip().startswith("memlint check") else (0,)  # 1: findings
    assert done.returncode in ok, f"{where}: {command}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
    if "plugin_example" in command:
        rules = subprocess.run([str(bin_dir / "memlint"), "rules"], capture_output=True, text=True, env=env,
                               check=False, cwd=tmp_path)
        assert rules.returncode == 0 and "EX101  ticket-reference" in rules.stdout, rules.stdout + rules.stderr
    own = work / ".venv" if "python3 -m venv .venv" in command else tmp_path / "venv"  # the README's set-up makes one
    bin_dir = own / "bin"
    version = subprocess.run([str(bin_dir / "memlint"), "--version"], capture_output=True, text=True, env=env,
                             check=False, cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.strip() == f"memlint, version {__version__}", version.stderr
    where_from = subprocess.run([str(bin_dir / "python"), "-c", "import memlint; print(memlint.__file__)"],
                                capture_output=True, text=True, env=env, check=True, cwd=tmp_path).stdout
    expected = work if " -e " in command else own  # an editable install runs the clone's code
    assert where_from.startswith(str(expected)), where_from  # the installed copy, never this checkout
