"""Frontmatter read as Claude Code 2.1.332 reads it (Bun.YAML.parse; table from gen_frontmatter.js)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from memlint.model.text.frontmatter import parse_frontmatter, rule_paths

DATA = json.loads((Path(__file__).parent / "frontmatter_table.json").read_text(encoding="utf-8"))


def _encode(value: Any, seen: tuple[Any, ...] = ()) -> Any:
    """Python values in the table's JSON shape (numbers compared as JavaScript doubles)."""
    if isinstance(value, float) and not math.isfinite(value):
        return {"$number": "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"}
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, (list, dict)):
        if any(value is s for s in seen):
            return {"$cycle": True}
        if isinstance(value, list):
            return [_encode(v, (*seen, value)) for v in value]
        return {str(k): _encode(v, (*seen, value)) for k, v in value.items()}
    return {"$python": repr(value)}


def _numbers(value: Any) -> Any:
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, list):
        return [_numbers(v) for v in value]
    return {k: _numbers(v) for k, v in value.items()}


def test_table_is_large_enough() -> None:
    assert len(DATA["cases"]) >= 60


@pytest.mark.parametrize("case", DATA["cases"], ids=lambda c: repr(c["text"][:40]))
def test_frontmatter_as_claude_code_reads_it(case: dict[str, Any]) -> None:
    found = parse_frontmatter(case["text"])
    if not case["block"]:
        assert found is None
        return
    assert found is not None
    assert found.end_offset == case["body_offset"]
    assert (found.error is not None) == case["failed"]
    assert _encode(found.data) == _numbers(case["data"])


def test_alias_bombs_are_bounded() -> None:
    levels = ['l0: &l0 ["*.md", "*.ts", "*.py", "*.js", "*.go", "*.rs", "*.c", "*.h", "*.cc"]']
    levels += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, 10)]  # 9**10 leaves
    found = parse_frontmatter("---\n" + "\n".join([*levels, "paths: *l9"]) + "\n---\n")
    assert found is not None
    paths = rule_paths(found.data)
    assert paths is not None and len(paths) == 1000
    cyclic = parse_frontmatter("---\npaths: &a [*a]\n---\n")
    assert cyclic is not None and rule_paths(cyclic.data) is None
