"""A check run sets its model aside from the cyclic garbage collector, and hands it back at the end."""

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


def test_a_run_freezes_what_it_built_and_unfreezes_it_at_the_end(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    frozen_during: list[int] = []
    original = engine.run_rules

    def spy(ctx: engine.RuleContext, rules: list[engine.Rule] | None = None) -> list[engine.Violation]:
        frozen_during.append(gc.get_freeze_count())
        return original(ctx, rules)

    engine.run_rules = spy  # type: ignore[assignment]
    try:
        api.check([root])
    finally:
        engine.run_rules = original  # type: ignore[assignment]
    assert frozen_during and frozen_during[0] > 0
    assert gc.get_freeze_count() == 0


def test_outside_a_run_nothing_is_frozen_and_blocks_nest(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    config = api.load_config(root)
    ctx = engine.build_context([root], config, None)
    engine.run_rules(ctx)
    assert gc.get_freeze_count() == 0  # the API's lower-level calls never freeze
    with engine.settled_heap():
        with engine.settled_heap():
            engine.build_context([root], config, None)
        assert gc.get_freeze_count() > 0  # the inner block left it to the outer one
    assert gc.get_freeze_count() == 0
