"""What the settings rules (ML513, ML514, ML519, ML520) share: every Claude Code settings file a modelled start
folder read, once, and where a value stands in it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from memlint.model.loading.settings import SettingsFile
from memlint.model.run.rule_context import RuleContext


def settings_files(ctx: RuleContext) -> Iterator[SettingsFile]:
    """Each settings file read by any modelled start, once, in a stable order."""
    seen: dict[Path, SettingsFile] = {}
    for loaded in ctx.loads.values():
        for item in loaded.settings.files:
            seen.setdefault(item.path, item)
    yield from sorted(seen.values(), key=lambda s: str(s.path))


def line_of(ctx: RuleContext, path: Path, value: str, after: str = "") -> int:
    """The 1-based line where the JSON string `value` is written (after the key `after`), else 1."""
    doc = ctx.document(path)
    if not doc.readable:
        return 1
    text = doc.text
    start = text.find(json.dumps(after)) if after else 0
    index = text.find(json.dumps(value, ensure_ascii=False), max(start, 0))
    if index == -1:
        index = text.find(json.dumps(value), max(start, 0))
    return text.count("\n", 0, index) + 1 if index != -1 else 1
