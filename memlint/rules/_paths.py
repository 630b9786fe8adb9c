"""How rule messages show a path."""

from __future__ import annotations

import os
import posixpath
from pathlib import Path

from memlint.model.run.rule_context import RuleContext


def show(ctx: RuleContext, path: Path | str) -> str:
    """A path as a person reads it: relative to the checked root, `~/` in HOME, else absolute
    (worked out once per path and run: rules show the same start folders many times)."""
    shown: dict[Path | str, str] = ctx.once(("show-memo",), dict)
    known = shown.get(path)
    if known is None:
        known = shown[path] = _show(ctx, path)
    return known


def _show(ctx: RuleContext, path: Path | str) -> str:
    text = posixpath.normpath(str(path))
    roots, home = ctx.once(("show-bases",), lambda: _bases(ctx))
    for bases in roots:
        for base in bases:
            if text.startswith(base.rstrip("/") + "/"):
                return text[len(base.rstrip("/")) + 1 :]
            if text == base:
                return "."
    if ctx.home is not None:
        for base in home:
            if text.startswith(base.rstrip("/") + "/"):
                return "~/" + text[len(base.rstrip("/")) + 1 :]
    return text


def _bases(ctx: RuleContext) -> tuple[list[set[str]], set[str]]:
    """Each root and HOME as written and resolved (resolved once per run)."""
    roots = [{str(root), os.path.realpath(root)} for root in ctx.roots]
    home = {str(ctx.home), os.path.realpath(ctx.home)} if ctx.home is not None else set()
    return roots, home
