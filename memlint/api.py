"""memlint's Python API: what the CLI calls, and what tests and plugins may call too."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from memlint.model.loader import MANAGED_DIR, LoadedContext, load
from memlint.model.workspace import Workspace


class Context:
    """What Claude Code loads at start, with the output helpers of `memlint context`."""

    def __init__(self, loaded: LoadedContext) -> None:
        self.loaded = loaded

    def to_dict(self, tokenizer: str = "cl100k") -> dict[str, Any]:
        from memlint.reporters.context import as_dict

        return as_dict(self.loaded, tokenizer)


def default_home() -> Path:
    return Path(os.environ.get("HOME") or os.path.expanduser("~"))


def context(
    start: Path | str = ".",
    home: Path | str | None = None,
    managed_dir: Path | str = MANAGED_DIR,
    workspace: Workspace | None = None,
) -> Context:
    """What Claude Code loads when started in `start` with HOME `home`."""
    return Context(load(Path(start), Path(home) if home else default_home(), workspace, Path(managed_dir)))
