from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "oracle: re-runs the real Claude Code CLI (../shared/oracle/cc_oracle.py); needs MEMLINT_ORACLE=1",
    )
