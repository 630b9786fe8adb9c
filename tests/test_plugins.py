"""Plugins for real: the example package in tests/plugin_example installs through its entry point and
its rule runs; a broken, crashing or colliding plugin is reported once and skipped while the built-in
rules still run and decide the exit code."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint import cli
from memlint.commands import common
from memlint.rules import all_rules, plugin_problems

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent


def _tree(root: Path, broken: bool) -> Path:
    root.mkdir(parents=True)
    (root / "CLAUDE.md").write_text("# P\n\nDeploys follow ACME-1167.\n" + ("See @gone.md\n" if broken else ""),
                                    encoding="utf-8")
    return root


@pytest.mark.slow
def test_example_plugin_installed_through_its_entry_point(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(HERE / "plugin_example", src, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    target = tmp_path / "site"
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
                           "--target", str(target), str(src)], capture_output=True, text=True, env=env, check=False,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert (target / "memlint_plugin_example-1.0.0.dist-info" / "entry_points.txt").is_file()
    run_env = {**os.environ, "PYTHONPATH": str(target), "NO_COLOR": "1"}
    project = _tree(tmp_path / "project", broken=False)

    def memlint(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(BIN / "memlint"), *args], cwd=project, env=run_env, capture_output=True,
                              text=True, check=False, timeout=300)

    listed = memlint("rules")
    assert "EX101  ticket-reference" in listed.stdout and listed.stderr == ""
    checked = memlint("check", ".")
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "CLAUDE.md:3:16: EX101 ticket-reference Claude Code loads `ACME-1167` as a bare ticket" in checked.stdout
    assert memlint("check", ".", "--select", "EX").returncode == 1
    assert memlint("check", ".", "--ignore", "ticket-reference").returncode == 0
    assert memlint("explain", "EX101").stdout.startswith("# EX101 ticket-reference")


PLUGINS = {
    "broken": "raise ImportError('no module named acme_helpers')\n",
    "colliding": (
        "from memlint.rules import RuleMeta\n"
        "META = RuleMeta(code='ML101', slug='acme-missing', severity='error', summary='x')\n"
        "def check(ctx):\n    return iter(())\n"),
    "slugclash": (
        "from memlint.rules import RuleMeta\n"
        "META = RuleMeta(code='AC101', slug='include-target-missing', severity='error', summary='x')\n"
        "def check(ctx):\n    return iter(())\n"),
    "mlcode": (
        "from memlint.rules import RuleMeta\n"
        "META = RuleMeta(code='ML990', slug='acme-rule', severity='error', summary='x')\n"
        "def check(ctx):\n    return iter(())\n"),
    "crashing": (
        "from memlint.rules import RuleMeta\nfrom memlint.violations import Finding\n"
        "META = RuleMeta(code='AC201', slug='acme-crash', severity='error', summary='x')\n"
        "def check(ctx):\n    f = ctx.files[0]\n    yield Finding(f.path, 1, 'half done')\n    raise RuntimeError('boom')\n"),
}


@pytest.fixture
def with_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """Install one of PLUGINS as a distribution on sys.path (a dist-info with its entry point)."""
    site = tmp_path / "site"

    def install(kind: str) -> None:
        site.mkdir()
        (site / f"acme_{kind}.py").write_text(PLUGINS[kind], encoding="utf-8")
        info = site / f"acme_{kind}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: acme-{kind}\nVersion: 1.0\n", encoding="utf-8")
        (info / "entry_points.txt").write_text(f"[memlint.rules]\nacme = acme_{kind}\n", encoding="utf-8")
        monkeypatch.syspath_prepend(str(site))
        importlib.invalidate_caches()
        all_rules.cache_clear()

    yield install
    all_rules.cache_clear()
    common._REPORTED.clear()


@pytest.mark.parametrize("kind", sorted(PLUGINS))
def test_a_bad_plugin_leaves_builtin_findings_and_exit_code(kind: str, tmp_path: Path, with_plugin: Callable[[str], None]) -> None:
    with_plugin(kind)
    broken = _tree(tmp_path / "broken", broken=True)
    clean = _tree(tmp_path / "clean", broken=False)
    result = CliRunner().invoke(cli.main, ["check", str(broken)])
    assert result.exit_code == 1, result.output
    assert "ML101 include-target-missing" in result.stdout and "AC" not in result.stdout
    warnings = [line for line in result.stderr.splitlines() if "warning: plugin acme" in line]
    assert len(warnings) == 1, result.stderr
    assert {"broken": "acme_helpers", "colliding": "ML101", "slugclash": "include-target-missing",
            "mlcode": "ML990", "crashing": "boom"}[kind] in warnings[0]
    result = CliRunner().invoke(cli.main, ["check", str(clean)])
    assert result.exit_code == 0, result.output  # the bad plugin does not decide the exit code
    assert "warning: plugin acme" not in result.stderr  # reported once
    assert len(plugin_problems()) == 1
    assert CliRunner().invoke(cli.main, ["rules"]).exit_code == 0
