"""Running the real Claude Code through ../shared/oracle/cc_oracle.py, for the live tests.

Live tests run only with MEMLINT_ORACLE=1 (`require_live`), and are skipped with the reason when
the oracle cannot fetch the CLI (its exit 3: npm unreachable); any other failure fails the test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ORACLE = Path(__file__).resolve().parents[2] / "shared/oracle/cc_oracle.py"


def require_live() -> None:
    """Skip unless live runs are asked for (MEMLINT_ORACLE=1) and the oracle is there."""
    if os.environ.get("MEMLINT_ORACLE") != "1":
        pytest.skip("live Claude Code runs only with MEMLINT_ORACLE=1")
    if not ORACLE.exists():
        pytest.skip(f"oracle not found at {ORACLE}")


def live_output(tree: Path, *args: str, release: str | None = None, timeout: float = 300) -> str:
    """The oracle's standard output for `tree` with `args` (on `release`, else its default)."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8:surrogatepass")
    if release is not None:
        env["CC_ORACLE_VERSION"] = release
    done = subprocess.run([sys.executable, str(ORACLE), str(tree), *args], check=False, capture_output=True,
                          env=env, timeout=timeout, stdin=subprocess.DEVNULL)
    if done.returncode == 3:
        pytest.skip("oracle cannot fetch the Claude Code CLI (npm unreachable, exit 3): "
                    + done.stderr.decode("utf-8", "replace")[-300:])
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-1500:]
    return done.stdout.decode("utf-8", "surrogatepass")


def live_json(tree: Path, *args: str, release: str | None = None) -> dict[str, Any]:
    """The oracle's JSON answer for `tree` with `args`."""
    data: dict[str, Any] = json.loads(live_output(tree, *args, release=release))
    return data
