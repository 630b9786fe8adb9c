"""The walk's shortcut for names its probe did not find (`_Loader.folder_missing`) gives the same
loading as reading every name: missing files are still marked as processed, in-memory files of a
fix are still loaded, and a folder's listing shared by discovery gives the same deferred files."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest

from memlint.model.loading.loader import LoadedContext, _Loader, load
from memlint.model.loading.workspace import Workspace

NO_HOME = Path("/nonexistent/memlint-no-home")
NO_MANAGED = Path("/nonexistent/memlint-no-managed")


def _summary(ctx: LoadedContext) -> tuple[object, ...]:
    return (
        [(f.path, f.kind, f.depth, f.content) for f in ctx.files],
        [(s.path, s.reason, s.kind, s.detail) for s in ctx.skipped],
        [(d.path, d.reason, d.kind, d.paths) for d in ctx.deferred],
    )


def _both(start: Path, prepare: object = None) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """The loading of `start` with the shortcut, and with every name read."""
    out = []
    for shortcut in (True, False):
        workspace = Workspace()
        if callable(prepare):
            prepare(workspace)
        if shortcut:
            out.append(_summary(load(start, NO_HOME, workspace, NO_MANAGED)))
        else:
            with mock.patch.object(_Loader, "folder_missing", lambda self, folder: frozenset()):
                out.append(_summary(load(start, NO_HOME, workspace, NO_MANAGED)))
    return out[0], out[1]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "CLAUDE.md").write_text("# Root\n\n@pkg/CLAUDE.md\n")
    # includes of names the probe finds missing, before and after their own step
    (root / "pkg" / "CLAUDE.md").write_text("# Pkg\n\n@CLAUDE.local.md\n@.claude/CLAUDE.md\n")
    (root / "other").mkdir()
    (root / "other" / "CLAUDE.local.md").write_text("# Local\n\n@.claude/CLAUDE.md\n@CLAUDE.md\n")
    return root


def test_missing_names_load_alike(tree: Path) -> None:
    for start in (tree, tree / "pkg", tree / "other"):
        fast, slow = _both(start)
        assert fast == slow, start


def test_a_fix_held_in_memory_still_loads(tree: Path) -> None:
    def prepare(workspace: Workspace) -> None:
        workspace.put(tree / "pkg" / ".claude" / "CLAUDE.md", "# Made by a fix\n")
        workspace.put(tree / "pkg" / "CLAUDE.local.md", "# Local by a fix\n")

    fast, slow = _both(tree / "pkg", prepare)
    assert fast == slow
    loaded = [path for path, *_ in fast[0]]  # type: ignore[index]
    assert tree / "pkg" / ".claude" / "CLAUDE.md" in loaded
    assert tree / "pkg" / "CLAUDE.local.md" in loaded


def test_discovery_listings_give_the_same_deferred_files(tree: Path) -> None:
    from memlint.model.loading.discovery import discover

    (tree / "pkg" / "deep" / ".claude" / "rules").mkdir(parents=True)
    (tree / "pkg" / "deep" / ".claude" / "rules" / "r.md").write_text("---\npaths: ['*.py']\n---\nRule\n")
    (tree / "pkg" / "deep" / "AGENTS.md").write_text("# Agents\n")
    (tree / "linked").symlink_to(tree / "pkg", target_is_directory=True)
    plain = Workspace()
    walked = Workspace()
    discover([tree], seen=walked.walked)
    assert str(tree / "pkg" / "deep") in walked.walked
    assert _summary(load(tree, NO_HOME, walked, NO_MANAGED)) == _summary(load(tree, NO_HOME, plain, NO_MANAGED))


def test_the_shortcut_reads_no_missing_file(tree: Path) -> None:
    workspace = Workspace()
    ctx = load(tree / "other", NO_HOME, workspace, NO_MANAGED)
    assert [s.reason for s in ctx.skipped][-2:] == ["duplicate", "duplicate"]  # marked although never read
    assert str(tree / "other" / ".claude" / "CLAUDE.md") not in workspace._documents
    assert str(tree / "other" / "CLAUDE.md") not in workspace._documents


def test_a_name_that_cannot_be_probed_is_read_not_taken_as_missing(tmp_path: Path) -> None:
    # `.claude` is a file: `.claude/CLAUDE.md` fails with ENOTDIR, which Claude Code's read
    # reports (unreadable), unlike a missing file (the same holds for a folder without permission)
    start = tmp_path / "repo"
    start.mkdir()
    (start / "CLAUDE.md").write_text("# Repo\n")
    (start / ".claude").write_text("not a folder\n")
    fast, slow = _both(start)
    assert fast == slow
    skipped = [(path, reason) for path, reason, *_ in fast[1]]  # type: ignore[index]
    assert (start / ".claude" / "CLAUDE.md", "unreadable") in skipped


def test_discovery_listings_give_the_same_git_root_and_settings(tree: Path) -> None:
    """The walk's listings stand in for the `.git` and `.claude/settings*.json` look-ups: a start
    folder with its own settings and a nested repository loads as it does without them."""
    from memlint.model.loading.discovery import discover

    nested = tree / "pkg" / "vendored"
    (nested / ".git").mkdir(parents=True)
    (nested / "CLAUDE.md").write_text("# Nested\n\n@notes.md\n")
    (nested / "notes.md").write_text("notes\n")
    (nested / ".claude").mkdir()
    (nested / ".claude" / "settings.json").write_text('{"claudeMdExcludes": ["**/pkg/CLAUDE.md"]}\n')
    (tree / ".git").mkdir()
    for start in (tree, tree / "pkg", nested):
        walked = Workspace()
        discover([tree], seen=walked.walked)
        assert str(start) in walked.walked
        with_listings = load(start, NO_HOME, walked, NO_MANAGED)
        alone = load(start, NO_HOME, Workspace(), NO_MANAGED)
        assert _summary(with_listings) == _summary(alone), start
        assert with_listings.project_root == alone.project_root == (nested if start == nested else tree)
    excluded = load(nested, NO_HOME, Workspace(), NO_MANAGED)
    assert any(s.reason == "excluded" for s in excluded.skipped)  # the start folder's settings were read
