"""Vendored folders (memlint.model.loading.vendored) and ML202's silence in them: a nested repository is
made here (a fixture cannot hold a `.git` entry in memlint's own repository)."""

from __future__ import annotations

from pathlib import Path

from memlint import api
from memlint.config import load_config
from memlint.model.loading.vendored import vendored_by
from memlint.model.loading.workspace import Workspace

TEXT = ("# Kit\nRun the generator before each release, compare the snapshots in the golden folder, regenerate the "
        "fixtures, keep the column widths stable and note every change of the public header in the changelog.\n")


def _tree(tmp_path: Path) -> Path:
    tree = tmp_path / "shop"
    for folder in ("app", "tools/lint", "libs/chart", "vendor/acme/kit", "src/vendors"):
        (tree / folder).mkdir(parents=True)
        (tree / folder / "CLAUDE.md").write_text(TEXT, encoding="utf-8")
    (tree / "CLAUDE.md").write_text("# Shop\nBuild with make.\n", encoding="utf-8")
    (tree / "tools/lint/.git").write_text("gitdir: ../../.git/modules/lint\n", encoding="utf-8")
    (tree / "libs/chart/.git").mkdir()
    (tree / ".memlint.toml").write_text("[options.ML202]\nbudget = 40\n", encoding="utf-8")
    return tree


def test_vendored_by_names_the_outermost_signal(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    ws = Workspace()
    assert vendored_by(ws, tree, tree / "tools/lint") == tree / "tools/lint"  # a .git file
    assert vendored_by(ws, tree, tree / "libs/chart") == tree / "libs/chart"  # a .git folder
    assert vendored_by(ws, tree, tree / "vendor/acme/kit") == tree / "vendor"
    assert vendored_by(ws, tree, tree / "app") is None
    assert vendored_by(ws, tree, tree / "src/vendors") is None  # a name like a vendor folder is not one
    assert vendored_by(ws, tree, tree) is None  # the checked root itself, whatever it holds
    assert vendored_by(ws, tree / "app", tree / "tools/lint") is None  # not below the root


def test_submodule_paths_from_gitmodules(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    (tree / ".gitmodules").write_text('[submodule "docs"]\n\tpath = "site/docs"\n\turl = x\n', encoding="utf-8")
    (tree / "site/docs").mkdir(parents=True)
    assert vendored_by(Workspace(), tree, tree / "site/docs/api") == tree / "site/docs"
    assert vendored_by(Workspace(), tree, tree / "site") is None


def test_ml202_is_silent_in_nested_repositories_and_vendor_copies(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    report = api.check([tree], load_config(tree, None, {"select": ["ML202"]}), None)
    where = sorted(str(v.path.relative_to(tree)) for v in report.violations)
    assert where == ["app/CLAUDE.md", "src/vendors/CLAUDE.md"]


def test_answers_kept_per_folder_give_the_same_answers_in_any_order_and_at_any_depth(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    deep = tree / "vendor" / "/".join(["d"] * 1500)  # deeper than Python's recursion limit
    ws = Workspace()
    assert vendored_by(ws, tree, deep) == tree / "vendor"
    assert vendored_by(ws, tree, tree / "vendor/acme/kit") == tree / "vendor"  # an ancestor known: reused
    assert vendored_by(ws, tree, tree / "app/x/y") is None and vendored_by(ws, tree, tree / "app") is None
    fresh = Workspace()  # asked the other way round: the same answers
    assert vendored_by(fresh, tree, tree / "app") is None and vendored_by(fresh, tree, tree / "app/x/y") is None
    assert vendored_by(fresh, tree, tree / "tools/lint/src") == tree / "tools/lint"


def test_a_root_at_the_filesystem_root_ends_the_walk() -> None:
    assert vendored_by(Workspace(), Path("/"), Path("/no-such-folder-here/x")) is None
