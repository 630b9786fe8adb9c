"""The distribution: a wheel builds offline from the tree, installs into a fresh venv, and its
`memlint` command runs; the metadata says what the README and CHANGELOG say."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from memlint import __version__

REPO = Path(__file__).resolve().parents[1]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def _project() -> dict[str, object]:
    project: dict[str, object] = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return project


def test_metadata_names_version_license_and_no_unused_dependency() -> None:
    project = _project()
    assert project["name"] == "claude-memlint"
    assert project["version"] == __version__
    assert project["license"] == "MIT" and (REPO / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert f"## [{__version__}]" in (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert (REPO / "memlint" / "py.typed").is_file()
    deps = " ".join(str(d) for d in project["dependencies"])  # type: ignore[attr-defined]
    assert "mdit-py-plugins" not in deps
    imported = set()
    for path in (REPO / "memlint").rglob("*.py"):
        imported |= set(re.findall(r"^\s*(?:from|import) (\w+)", path.read_text(encoding="utf-8"), re.MULTILINE))
    assert "mdit_py_plugins" not in imported


@pytest.mark.slow
def test_wheel_builds_offline_and_installs_into_a_fresh_venv(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(REPO / "memlint", src / "memlint", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(REPO / name, src / name)
    dist = tmp_path / "dist"
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(dist),
         str(src)], capture_output=True, text=True, env=env, check=False, timeout=600)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    wheel = next(dist.glob("claude_memlint-*.whl"))
    assert wheel.name.startswith(f"claude_memlint-{__version__}-py3-none-any")
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        metadata = zf.read(f"claude_memlint-{__version__}.dist-info/METADATA").decode()
    assert "memlint/py.typed" in names and f"claude_memlint-{__version__}.dist-info/licenses/LICENSE" in names
    assert "License-Expression: MIT" in metadata and "mdit" not in metadata

    fresh = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(fresh)
    python = fresh / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)],
        capture_output=True, text=True, env=env, check=False, timeout=600)
    assert installed.returncode == 0, installed.stdout[-2000:] + installed.stderr[-2000:]
    # The runtime dependencies come from this test environment, added as a plain path (no .pth hooks run
    # from it, so this checkout's editable memlint stays invisible): nothing is downloaded.
    (Path(purelib) / "deps-from-test-env.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    version = subprocess.run([str(fresh / "bin" / "memlint"), "--version"], capture_output=True, text=True,
                             check=False, cwd=tmp_path)
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"memlint, version {__version__}"
    where = subprocess.run([str(python), "-c", "import memlint; print(memlint.__file__)"], capture_output=True,
                           text=True, check=True, cwd=tmp_path).stdout.strip()
    assert where.startswith(purelib), where
    checked = subprocess.run([str(fresh / "bin" / "memlint"), "check", str(REPO / "examples" / "app"), "--select",
                              "ML101"], capture_output=True, text=True, check=False, cwd=tmp_path)
    assert checked.returncode in (0, 1), checked.stderr
