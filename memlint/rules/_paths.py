"""How rule messages show a path."""

from __future__ import annotations

import os
import posixpath
from pathlib import Path

from memlint.engine import RuleContext


def show(ctx: RuleContext, path: Path | str) -> str:
    """A path as a person reads it: relative to the checked root, `~/` in HOME, else absolute."""
    text = posixpath.normpath(str(path))
    for root in ctx.roots:
        for base in {str(root), os.path.realpath(root)}:
            if text.startswith(base.rstrip("/") + "/"):
                return text[len(base.rstrip("/")) + 1 :]
            if text == base:
                return "."
    if ctx.home is not None:
        for base in {str(ctx.home), os.path.realpath(ctx.home)}:
            if text.startswith(base.rstrip("/") + "/"):
                return "~/" + text[len(base.rstrip("/")) + 1 :]
    return text
