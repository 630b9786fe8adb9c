"""What a run's walk listed (`Workspace.walked`) answers later questions without asking the disk
again: a second walk of a folder, whether a name is a symlink (`Workspace.realpath`), which memory
names a folder lacks (`walkpaths.probe`) and a project's files (`projectfiles`). Each answer must be
the one the disk gives."""

from __future__ import annotations

import os
from pathlib import Path
from unittest import mock

import pytest

from memlint.model.loading import workspace as workspace_module
from memlint.model.loading.discovery import discover
from memlint.model.loading.projectfiles import project_files
from memlint.model.loading.walkpaths import probe
from memlint.model.loading.workspace import Workspace, surely_absent, walk


def test_a_symlinked_file_in_a_listed_folder_is_still_followed(tmp_path: Path) -> None:
    (tmp_path / "real.md").write_text("x\n", encoding="utf-8")
    (tmp_path / "CLAUDE.md").symlink_to("real.md")
    workspace = Workspace()
    for _ in walk(tmp_path, workspace.walked):
        pass
    assert workspace.realpath(str(tmp_path / "CLAUDE.md")) == (os.path.realpath(tmp_path / "real.md"), True)
    assert workspace.realpath(str(tmp_path / "real.md")) == (str(tmp_path / "real.md"), False)


def test_a_listed_folder_is_not_listed_again(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "CLAUDE.md").write_text("x\n", encoding="utf-8")
    (tmp_path / "link").symlink_to("a", target_is_directory=True)
    seen: dict[str, workspace_module.Listing] = {}
    first = [(folder, sorted(subs), sorted(names)) for folder, subs, names in walk(tmp_path, seen)]
    with mock.patch.object(workspace_module.os, "scandir", side_effect=AssertionError("listed again")):
        again = [(folder, sorted(subs), sorted(names)) for folder, subs, names in walk(tmp_path, seen)]
    assert again == first == [(folder, sorted(subs), sorted(names)) for folder, subs, names in walk(tmp_path)]
    assert all(not folder.endswith("link") for folder, _, _ in first)  # a symlinked folder is not entered


def test_a_pruned_subfolder_list_is_the_callers_copy(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    seen: dict[str, workspace_module.Listing] = {}
    for _folder, subfolders, _names in walk(tmp_path, seen):
        subfolders.clear()  # the caller prunes: the listing kept for the run is whole
    assert sorted(seen[str(tmp_path)][0]) == ["a", "b"]


def test_the_probe_trusts_a_listing_only_for_names_no_entry_matches_in_any_case(tmp_path: Path) -> None:
    (tmp_path / "claude.md").write_text("x\n", encoding="utf-8")
    seen: dict[str, workspace_module.Listing] = {}
    next(walk(tmp_path, seen))
    listing = seen[str(tmp_path)]
    assert surely_absent(listing, ("CLAUDE.md", "AGENTS.md", ".claude")) == {"AGENTS.md", ".claude"}
    asked: list[str] = []
    real_lstat = os.lstat

    def lstat(path: str) -> os.stat_result:
        asked.append(os.path.basename(path))
        return real_lstat(path)

    with mock.patch("memlint.model.loading.walkpaths.os.lstat", side_effect=lstat):
        present, missing = probe(tmp_path, ("CLAUDE.md", "AGENTS.md", ".claude"), listing)
    assert asked == ["CLAUDE.md"]  # a case-insensitive disk would find claude.md: the disk is asked
    assert missing >= {"AGENTS.md", ".claude"}
    assert (present, missing) == probe(tmp_path, ("CLAUDE.md", "AGENTS.md", ".claude"))


@pytest.mark.parametrize("ignored", [False, True])
def test_project_files_are_the_same_after_discovery_listed_the_tree(tmp_path: Path, ignored: bool) -> None:
    for name in ("CLAUDE.md", "src/app.py", "src/deep/x.ts", "build/out.js", ".git/HEAD", "node_modules/m/i.js"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x\n", encoding="utf-8")
    if ignored:
        (tmp_path / ".gitignore").write_text("build/\n", encoding="utf-8")  # discovery does not enter build/
    after = Workspace()
    discover([tmp_path], seen=after.walked)
    assert project_files(after, tmp_path) == project_files(Workspace(), tmp_path)
    assert "build/out.js" in (project_files(after, tmp_path) or ())


def test_a_listed_regular_file_is_read_without_a_stat_and_its_stat_is_told(tmp_path: Path) -> None:
    from memlint.model.source import files

    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    workspace = Workspace()
    for _ in walk(tmp_path, workspace.walked):
        pass
    told: list[tuple[str, int]] = []
    real_stat = os.stat

    def stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        assert os.fspath(path) != str(tmp_path / "CLAUDE.md"), "stat-ed before it was opened"  # type: ignore[call-overload]
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    with mock.patch.object(files.os, "stat", side_effect=stat), \
            mock.patch.object(files, "stat_seen", lambda path, st: told.append((os.fspath(path), st.st_ino))):
        doc = workspace.document(tmp_path / "CLAUDE.md")
    assert doc.text == "# Project\n"
    assert told == [(str(tmp_path / "CLAUDE.md"), real_stat(tmp_path / "CLAUDE.md").st_ino)]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_listed_fifo_is_stat_ed_and_never_opened(tmp_path: Path) -> None:
    from memlint.model.source import files

    os.mkfifo(tmp_path / "CLAUDE.md")
    workspace = Workspace()
    for _ in walk(tmp_path, workspace.walked):
        pass
    with mock.patch.object(files.os, "open", side_effect=AssertionError("opened")):
        doc = workspace.document(tmp_path / "CLAUDE.md")
    assert doc.problem is not None and doc.problem.reason == "not-a-file"


def test_a_listed_file_gone_before_it_is_read_reads_as_missing(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("x\n", encoding="utf-8")
    workspace = Workspace()
    for _ in walk(tmp_path, workspace.walked):
        pass
    (tmp_path / "CLAUDE.md").unlink()
    doc = workspace.document(tmp_path / "CLAUDE.md")
    assert doc.problem is not None and doc.problem.reason == "not-found"


def test_a_symlinked_folder_in_a_listed_folder_is_still_followed(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "CLAUDE.md").write_text("x\n", encoding="utf-8")
    (tmp_path / "link").symlink_to("real", target_is_directory=True)
    workspace = Workspace()
    for _ in walk(tmp_path, workspace.walked):
        pass
    assert workspace.realpath(str(tmp_path / "link" / "CLAUDE.md")) == (str(tmp_path / "real" / "CLAUDE.md"), True)
    assert workspace.realpath(str(tmp_path / "real" / "CLAUDE.md")) == (str(tmp_path / "real" / "CLAUDE.md"), False)
