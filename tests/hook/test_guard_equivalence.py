"""The hook's shortcuts change no finding: it imports only the rule modules of its codes, runs the
rules that look at files one at a time on the touched file alone, and finds the file's role and
checks the text after the write and before it in one workspace (memlint/hook/guard.py). Here its
findings after the write and before it are compared with those of the plain way: the rules as
`all_rules` registers them, over every file, each check in a fresh workspace."""
from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlint import engine
from memlint.config import load_config
from memlint.hook import guard
from memlint.model.loading.loader import load
from memlint.model.loading.settings import Launch
from memlint.model.loading.workspace import Workspace
from memlint.model.memory.automem import sanitize_project_path
from memlint.rules import all_rules

SECRET = "ghp_Q7f3kLm9Xz2Rt8Vb1Nc4Hy6Jd0Wp5Es3Ga7K"
PIECES = (
    "# Notes\n", "Run the tests twice.\n", "@docs/a.md\n", "@docs/missing.md\n", "@docs\n", "@CLAUDE.md\n",
    f"token {SECRET}\n", "Use tabs.\u200b\u200b\n", "- [Entry](e.md) \u2014 a fact\n", "\n",
    "---\npaths: src/**/*.py\n---\n", "---\npaths: scr/**/*.py\n---\n", "---\npaths: [broken\n---\n",
)


def _reference(write: guard.Write, text: str | None, codes: list[str], home: Path, roots: tuple[Path, ...],
               environ: Mapping[str, str]) -> list[Any]:
    config = load_config(write.cwd)
    workspace = Workspace(config.release, config.limits)
    if text is not None:
        workspace.put(write.path, text)
    launch = Launch.from_environ(dict(environ), None)
    rules = [r for r in all_rules() if r.code in codes]
    ctx = engine.build_context(list(roots), config, home, workspace, launch, rules=rules)
    if write.cwd not in ctx.loads:
        ctx.loads[write.cwd] = load(write.cwd, home, workspace, engine.NO_MANAGED, False, config.release, launch)
    ctx.roots = (write.cwd,) if write.cwd in write.path.parents else ()
    return [v for v in engine.run_rules(ctx, rules) if v.path == write.path]


def _shown(found: list[Any]) -> list[tuple[str, int, int, str]]:
    return [(v.code, v.line, v.column, v.message) for v in found]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("equivalence")
    root = base / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("x = 1\n")
    (root / "docs").mkdir()
    (root / "docs" / "a.md").write_text(f"Shared notes.\n@b.md\nkey {SECRET}\n")
    (root / "docs" / "b.md").write_text("More notes.\u200b\n@a.md\n")
    (root / "CLAUDE.md").write_text("# Project\n@docs/a.md\n")
    rules = root / ".claude" / "rules"
    rules.mkdir(parents=True)
    (rules / "other.md").write_text(f"---\npaths: [broken\n---\nsecret {SECRET}\n")
    (rules / "py.md").write_text("---\npaths: src/**/*.py\n---\nType hints.\n")
    memory = base / "home" / ".claude" / "projects" / sanitize_project_path(str(root)) / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [Deploy](deploy.md) \u2014 how\n")
    (memory / "deploy.md").write_text(f"Use {SECRET}.\n")
    return root


TOUCHED = ("CLAUDE.md", ".claude/rules/py.md", "docs/a.md", "MEMORY", "deploy")
texts = st.lists(st.sampled_from(PIECES), max_size=6).map("".join)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(TOUCHED), texts, texts)
def test_the_hooks_findings_are_those_of_the_plain_way(tree: Path, touched: str, before: str, after: str) -> None:
    home = tree.parent / "home"
    memory = home / ".claude" / "projects" / sanitize_project_path(str(tree)) / "memory"
    path = {"MEMORY": memory / "MEMORY.md", "deploy": memory / "deploy.md"}.get(touched, tree / touched)
    original = path.read_text()
    environ = dict(os.environ, HOME=str(home))
    try:
        path.write_text(after)
        write = guard.Write("Edit", path, tree, before, True)
        config = load_config(tree)
        workspace = Workspace(config.release, config.limits)  # as `guard.check` shares it
        launch = Launch.from_environ(environ, None)
        kind, roots = guard.role(path, tree, home, config.release, workspace, launch)
        assert (kind, roots) == guard.role(path, tree, home, config.release)
        codes = list(guard.CODES.get(kind, guard.OTHER)) if kind else list(guard.OTHER)
        roots = roots or (path,)
        got_after = guard._findings(write, workspace, codes, config, home, roots, launch)
        workspace.put(path, before)
        got_before = guard._findings(write, workspace, codes, config, home, roots, launch)
        assert _shown(got_after) == _shown(_reference(write, None, codes, home, roots, environ))
        assert _shown(got_before) == _shown(_reference(write, before, codes, home, roots, environ))
    finally:
        path.write_text(original)


def test_the_comparison_sees_findings(tree: Path) -> None:
    """The texts above do make findings of every kind the hook tells (else the comparison proves little)."""
    home = tree.parent / "home"
    path = tree / ".claude" / "rules" / "other.md"
    write = guard.Write("Edit", path, tree, None, False)
    codes = list(guard.CODES["rule"])
    config = load_config(tree)
    found = guard._findings(write, Workspace(config.release, config.limits), codes, config, home, (path,),
                            Launch.from_environ(dict(os.environ, HOME=str(home)), None))
    assert {"ML507", "ML601"} <= {v.code for v in found}
