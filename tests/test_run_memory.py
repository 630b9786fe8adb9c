"""What a check run holds, and for how long: its model is freed when the run is over (the command
line runs with the cyclic garbage collector off), and the facts rules work out for themselves are
kept only while rules ask for them (`RuleContext.hand_over`), without working any out twice."""

from __future__ import annotations

import gc
import weakref
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from memlint import api, engine
from memlint.model.loading.workspace import Workspace
from memlint.model.run.rule_context import RuleContext


def _tree(root: Path) -> Path:
    (root / "CLAUDE.md").write_text("# Project\n\n@docs/a.md\n@docs/missing.md\n", encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "a.md").write_text("# A\n\nBuild with make.\n", encoding="utf-8")
    memory = root / ".claude" / "agent-memory" / "helper"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [Deploy](deploy.md) \u2014 how we deploy\n", encoding="utf-8")
    (memory / "deploy.md").write_text("---\nname: deploy\ndescription: how\ntype: project\n---\nUse make.\n",
                                      encoding="utf-8")
    (root / "pkg").mkdir()
    (root / "pkg" / "AGENTS.md").write_text("# Package\n\nRun the tests.\n", encoding="utf-8")
    return root


def test_a_check_run_frees_its_model_when_it_is_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing outside the run keeps its context or workspace (a module-level cache of the last
    context did): with the cyclic collector off, as on the command line, both are gone once
    `api.check` returns."""
    root = _tree(tmp_path)
    made: list[weakref.ref[Any]] = []
    original = engine.build_context

    def spy(*args: Any, **kwargs: Any) -> RuleContext:
        ctx = original(*args, **kwargs)
        made.append(weakref.ref(ctx.workspace))
        made.append(weakref.ref(ctx.workspace.texts))
        return ctx

    monkeypatch.setattr(engine, "build_context", spy)
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        report = api.check([root])
        assert report.violations  # the missing include: the run did look at the tree
        assert made and all(ref() is None for ref in made)
    finally:
        if was_enabled:
            gc.enable()


def _context() -> RuleContext:
    return RuleContext(None, Workspace(), (), (), {}, None)  # type: ignore[arg-type]


def test_facts_handed_over_are_taken_back_when_asked_and_let_go_when_not() -> None:
    ctx = _context()
    computed: Counter[str] = Counter()

    def fact(name: str) -> str:
        computed[name] += 1
        return name.upper()

    assert ctx.once(("a",), lambda: fact("a")) == "A"
    assert ctx.once(("b",), lambda: fact("b")) == "B"
    ctx.hand_over()
    assert ctx.once(("a",), lambda: fact("a")) == "A"  # asked again: taken over, not worked out again
    ctx.let_go()  # "b" was not asked for since the hand-over
    assert ctx.once(("b",), lambda: fact("b")) == "B"
    assert computed == Counter({"a": 1, "b": 2})
    assert ("a",) in ctx.memo and not ctx.earlier


def test_kept_facts_stay_through_every_hand_over() -> None:
    ctx = _context()
    computed: Counter[str] = Counter()

    def fact(name: str) -> str:
        computed[name] += 1
        return name

    ctx.once(("kept",), lambda: fact("kept"))
    ctx.once(("other",), lambda: fact("other"))
    ctx.kept = frozenset({("kept",)})
    for _ in range(3):
        ctx.hand_over()
        ctx.let_go()
    ctx.once(("kept",), lambda: fact("kept"))
    ctx.once(("other",), lambda: fact("other"))
    assert computed == Counter({"kept": 1, "other": 2})


def test_a_run_works_out_no_fact_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Facts are handed over between families of rules and before the per-file pass; what the
    per-file rules' lists of files need is kept, and a family's shared facts live while it runs:
    on this tree no fact is worked out twice, but how paths are shown (a memo of display texts,
    started again by the families that show paths: each worked out in a few microseconds)."""
    root = _tree(tmp_path)
    computed: Counter[object] = Counter()
    original = RuleContext.once

    def counting(self: RuleContext, key: object, compute: Any) -> Any:
        def counted() -> Any:
            computed[key] += 1
            return compute()

        return original(self, key, counted)

    monkeypatch.setattr(RuleContext, "once", counting)
    api.check([root])
    twice = {key for key, n in computed.items() if n > 1 and key not in (("show-memo",), ("show-bases",))}
    assert computed and not twice
