"""memlint's MEMORY.md sanitiser (C08) against node's Unicode tables (gen_sanitise.js)."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

from memlint.model.memory.sanitise import DEFAULT_IGNORABLE, is_removed

DATA = json.loads((Path(__file__).parent / "sanitise_ranges.json").read_text(encoding="utf-8"))


def _points(ranges: list[list[int]]) -> set[int]:
    return {p for low, high in ranges for p in range(low, high + 1)}


def test_default_ignorable_is_the_unicode_set() -> None:
    assert [list(r) for r in DEFAULT_IGNORABLE] == DATA["default_ignorable"]


def test_removed_set_matches_node_but_for_newer_unicode() -> None:
    """Every code point agrees, except those Python's older Unicode database has not assigned yet
    (node's is newer): memlint removes them as unassigned, Claude Code keeps them."""
    node = _points(DATA["removed"])
    ours = {p for p in range(0x110000) if is_removed(chr(p))}
    assert not node - ours
    newer = ours - node
    assert all(unicodedata.category(chr(p)) == "Cn" for p in newer)
    if unicodedata.unidata_version == DATA["unicode"]:
        assert not newer
