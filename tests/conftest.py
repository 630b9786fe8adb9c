"""The whole suite runs with HOME set to an empty folder of its own: `check`, `fix` and `context`
model $HOME by default (the user memory and the project's auto memory), and no test may depend on
what the machine's real HOME holds. Tests that want a HOME give `--home DIR` or set HOME themselves.

Set before any test module is imported, so subprocesses (pre-commit, pip, the installed command)
inherit it too. The caches that live under the real HOME and that tests only use to save a download
(the Claude Code oracle's packages, pip's cache) keep pointing there. memlint's own user cache (run
entries outside a project, the tokenizer's rank table) goes to a folder of the test session's own,
never to the user's real `~/.cache/memlint`."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

REAL_HOME = os.environ.get("HOME") or os.path.expanduser("~")
TEST_HOME = tempfile.mkdtemp(prefix="memlint-tests-home-")

os.environ.setdefault("CC_ORACLE_CACHE", str(Path(REAL_HOME) / ".cache" / "cc-oracle"))
os.environ.setdefault("PIP_CACHE_DIR", str(Path(REAL_HOME) / ".cache" / "pip"))
os.environ["HOME"] = TEST_HOME
os.environ.pop("CLAUDE_CONFIG_DIR", None)  # else the user settings would come from the machine's


def pytest_unconfigure() -> None:
    shutil.rmtree(TEST_HOME, ignore_errors=True)


@pytest.fixture(autouse=True, scope="session")
def private_user_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
        yield
