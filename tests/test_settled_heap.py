"""A check run sets the cyclic garbage collector aside, and puts it back at the end."""

from __future__ import annotations

import gc
from pathlib import Path

from memlint import api, engine


def _tree(root: Path) -> Path:
    (root / ".claude" / "rules").mkdir(parents=True)
    (root / "CLAUDE.md").write_text("# Project\n\n@docs/a.md\n", encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "a.md").write_text("# A\n\nBuild with make.\n", encoding="utf-8")
    (root / ".claude" / "rules" / "ts.md").write_text("---\npaths: [\"**/*.ts\"]\n---\nStrict.\n", encoding="utf-8")
    return root


def test_a_run_sets_the_collector_aside_and_puts_it_back(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    enabled_during: list[bool] = []
    original = engine.run_rules

    def spy(ctx: engine.RuleContext, rules: list[engine.Rule] | None = None) -> list[engine.Violation]:
        enabled_during.append(gc.isenabled())
        return original(ctx, rules)

    engine.run_rules = spy  # type: ignore[assignment]
    try:
        assert gc.isenabled()
        api.check([root])
    finally:
        engine.run_rules = original  # type: ignore[assignment]
    assert enabled_during == [False]
    assert gc.isenabled()


def test_outside_a_run_the_collector_is_left_alone_and_blocks_nest(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    config = api.load_config(root)
    ctx = engine.build_context([root], config, None)
    engine.run_rules(ctx)
    assert gc.isenabled()  # the API's lower-level calls never touch it
    with engine.settled_heap():
        with engine.settled_heap():
            engine.build_context([root], config, None)
        assert not gc.isenabled()  # the inner block put back what it found: off
    assert gc.isenabled()
    gc.disable()
    try:
        with engine.settled_heap():
            pass
        assert not gc.isenabled()  # a caller that runs without the collector keeps it off
    finally:
        gc.enable()


def test_a_run_leaves_almost_no_cyclic_garbage(tmp_path: Path) -> None:
    """What the collector would have found had it run: nearly nothing (the reason to set it aside)."""
    root = _tree(tmp_path)
    for i in range(40):
        (root / f"pkg{i}").mkdir()
        (root / f"pkg{i}" / "CLAUDE.md").write_text(f"# P{i}\n\n@../docs/a.md\n", encoding="utf-8")
    gc.collect()
    gc.disable()
    try:
        api.check([root])
        assert gc.collect() < 2000
    finally:
        gc.enable()
