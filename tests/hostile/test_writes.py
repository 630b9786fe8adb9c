"""`memlint fix` on hostile or unlucky trees: it never writes outside the folders the user named,
never replaces a symlink by a copy, never overwrites a file changed since it was read, never
creates a name that breaks another system, keeps modes, and one failure leaves the rest fixed."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import time
from pathlib import Path

import pytest

from memlint import api
from memlint.config import build, load_config
from memlint.fixes import FixResult, write_changes
from memlint.safe_io import Interrupted, fix_lock
from tests.hostile.helpers import MEMLINT, memlint, snapshot

# over Claude Code's 140-line write-guard target, so the split moves the Deploy section out
SPLIT = "# Memory\n\n## Deploy\n\n" + "".join(f"Step {i} of the deploy took an hour on the old cluster.\n"
                                               for i in range(1, 161))
TOPIC = "---\nname: a\ndescription: A.\nmetadata:\n  type: project\n---\n\nA.\n"
SPACES = "- [A](a.md) \u2014 about a   \n"  # trailing white space: ML320's safe fix


def memory_folder(root: Path, index: str = SPACES) -> Path:
    folder = root / ".claude" / "agent-memory" / "r"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text(index, encoding="utf-8")
    (folder / "a.md").write_text(TOPIC, encoding="utf-8")
    return folder


def test_memory_dirs_of_a_cloned_repository_never_send_a_fix_outside(tmp_path: Path) -> None:
    repo, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    repo.mkdir()
    elsewhere.mkdir()
    (repo / ".memlint.toml").write_text('memory-dirs = ["../elsewhere"]\n', encoding="utf-8")
    (repo / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    (elsewhere / "MEMORY.md").write_text(SPLIT, encoding="utf-8")
    before = snapshot(elsewhere)
    run = memlint("fix", "--unsafe-fixes", cwd=repo)
    assert snapshot(elsewhere) == before
    assert run.code == 1 and "outside the folders named on the command line" in run.err
    run = memlint("fix", "--unsafe-fixes", "--config", ".memlint.toml", cwd=repo)  # the user names them
    assert run.code in (0, 1) and snapshot(elsewhere) != before


def test_an_absolute_auto_memory_directory_in_project_settings_is_not_written(tmp_path: Path) -> None:
    repo, home, outside = tmp_path / "repo", tmp_path / "home", tmp_path / "outside" / "memory"
    (repo / ".claude").mkdir(parents=True)
    home.mkdir()
    outside.mkdir(parents=True)
    (repo / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    (repo / ".claude" / "settings.json").write_text(json.dumps({"autoMemoryDirectory": str(outside)}),
                                                     encoding="utf-8")
    (outside / "MEMORY.md").write_text(SPLIT, encoding="utf-8")
    before = snapshot(outside)
    memlint("fix", repo, "--home", home, "--unsafe-fixes")
    assert snapshot(outside) == before


def test_a_symlinked_index_inside_the_project_is_edited_at_its_target(tmp_path: Path) -> None:
    folder = memory_folder(tmp_path)
    real = tmp_path / "shared-index.md"
    os.replace(folder / "MEMORY.md", real)
    os.symlink(os.path.relpath(real, folder), folder / "MEMORY.md")
    run = memlint("fix", tmp_path, "--select", "ML320")
    assert run.code in (0, 1), run.err
    assert (folder / "MEMORY.md").is_symlink()
    assert real.read_text(encoding="utf-8") == "- [A](a.md) \u2014 about a\n"


def test_a_symlink_to_a_file_outside_the_project_is_reported_and_skipped(tmp_path: Path) -> None:
    project, outside = tmp_path / "project", tmp_path / "outside.md"
    folder = memory_folder(project)
    os.replace(folder / "MEMORY.md", outside)
    os.symlink(outside, folder / "MEMORY.md")
    run = memlint("fix", project, "--select", "ML320")
    assert run.code == 1 and "symlink" in run.err
    assert (folder / "MEMORY.md").is_symlink() and outside.read_text(encoding="utf-8") == SPACES


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_new_files_get_the_umask_mode_and_rewritten_files_keep_theirs(tmp_path: Path, umask: int) -> None:
    folder = memory_folder(tmp_path, SPLIT)
    os.chmod(folder / "MEMORY.md", 0o640)
    old = os.umask(umask)
    try:
        outcome = api.fix([tmp_path], build({}, None, tmp_path), None, unsafe=True)
        report = write_changes(outcome.result)
    finally:
        os.umask(old)
    assert not report.not_written
    new = [p for p in report.written if p.name not in ("MEMORY.md", "a.md")]
    assert new, "the split wrote a topic file"
    for path in new:
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o666 & ~umask, path
    assert stat.S_IMODE(os.stat(folder / "MEMORY.md").st_mode) == 0o640


def _two_fixes(tmp_path: Path) -> tuple[FixResult, Path, Path]:
    first, second = memory_folder(tmp_path / "one"), memory_folder(tmp_path / "two")
    outcome = api.fix([tmp_path], build({"select": ["ML320"]}, None, tmp_path), None)
    assert {p.name for p in outcome.result.changed} == {"MEMORY.md"} and len(outcome.result.changed) == 2
    return outcome.result, first / "MEMORY.md", second / "MEMORY.md"


def test_a_file_changed_after_it_was_read_is_never_overwritten(tmp_path: Path) -> None:
    result, first, second = _two_fixes(tmp_path)
    first.write_text(SPACES + "- [B](b.md) \u2014 a line the user just added\n", encoding="utf-8")
    report = write_changes(result)
    assert [n.path for n in report.not_written] == [first]
    assert "changed on disk" in report.not_written[0].reason
    assert "a line the user just added" in first.read_text(encoding="utf-8")
    assert second.read_text(encoding="utf-8") == "- [A](a.md) \u2014 about a\n", "the other file is still fixed"


def test_a_file_changed_while_its_fix_is_written_is_never_overwritten(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    result, first, _second = _two_fixes(tmp_path)
    from memlint import fixes

    real = fixes.write_temp

    def racing(target: Path, data: bytes, like: os.stat_result | None, umask: int) -> Path:
        temp = real(target, data, like, umask)
        if target == first:  # the user saves MEMORY.md between the temp file and the rename
            with open(first, "a", encoding="utf-8") as handle:
                handle.write("- [C](c.md) \u2014 written during the fix\n")
        return temp

    monkeypatch.setattr(fixes, "write_temp", racing)
    report = write_changes(result)
    assert [n.path for n in report.not_written] == [first]
    assert "written during the fix" in first.read_text(encoding="utf-8")
    assert not [p for p in first.parent.iterdir() if p.name.endswith(".memlint-tmp")]


def test_a_failing_file_leaves_the_others_fixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result, first, second = _two_fixes(tmp_path)
    real = os.replace

    def read_only(src: str | Path, dst: str | Path) -> None:
        if Path(dst) == first:
            raise PermissionError(13, "Permission denied", str(dst))
        real(src, dst)

    monkeypatch.setattr(os, "replace", read_only)
    report = write_changes(result)
    assert [n.path for n in report.not_written] == [first] and "Permission denied" in report.not_written[0].reason
    assert first.read_text(encoding="utf-8") == SPACES
    assert second.read_text(encoding="utf-8") == "- [A](a.md) \u2014 about a\n"
    assert not [p for p in first.parent.iterdir() if p.name.endswith(".memlint-tmp")]


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True, reason="root writes anywhere")
def test_a_read_only_folder_is_a_clear_message(tmp_path: Path) -> None:
    first, second = memory_folder(tmp_path / "one"), memory_folder(tmp_path / "two")
    os.chmod(first, 0o555)
    try:
        run = memlint("fix", tmp_path, "--select", "ML320")
    finally:
        os.chmod(first, 0o755)
    assert run.code == 1 and "not written" in run.err and "Traceback" not in run.err
    assert (second / "MEMORY.md").read_text(encoding="utf-8") == "- [A](a.md) \u2014 about a\n"


def test_an_interrupt_mid_split_puts_everything_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = memory_folder(tmp_path, SPLIT)
    before = snapshot(tmp_path)
    outcome = api.fix([tmp_path], build({}, None, tmp_path), None, unsafe=True)
    real = os.replace

    def interrupted(src: str | Path, dst: str | Path) -> None:
        if Path(dst).name == "MEMORY.md":
            raise Interrupted(15)
        real(src, dst)

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(Interrupted):
        write_changes(outcome.result)
    assert snapshot(tmp_path) == before
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("name", ["../escape.md", "CON.md", "nul.md", "a\x01b.md", "x" * 300 + ".md", "A.md",
                                  "e\u0301.md"])
def test_unsafe_names_are_never_created(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "a.md").write_text("a\n", encoding="utf-8")
    (folder / "\u00e9.md").write_text("e\n", encoding="utf-8")
    target = folder / name
    result = FixResult(before={target: None}, after={target: "text\n"})
    before = snapshot(tmp_path)
    report = write_changes(result, allowed=[folder])
    assert report.not_written and not report.written
    assert snapshot(tmp_path) == before


def test_stale_temp_files_of_a_dead_run_are_removed_and_a_live_runs_kept(tmp_path: Path) -> None:
    folder = memory_folder(tmp_path)
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = folder / f".MEMORY.md.{dead.pid}.0a1b2c3d.memlint-tmp"
    running = subprocess.Popen(["sleep", "60"])  # another run still writing
    try:
        live = folder / f".MEMORY.md.{running.pid}.0a1b2c3d.memlint-tmp"
        stale.write_text("partial", encoding="utf-8")
        live.write_text("partial", encoding="utf-8")
        outcome = api.fix([tmp_path], build({"select": ["ML320"]}, None, tmp_path), None)
        report = write_changes(outcome.result)
        assert report.written and not stale.exists() and live.exists()
    finally:
        running.kill()
        running.wait()


def test_a_second_fix_waits_for_the_first(tmp_path: Path) -> None:
    folder = memory_folder(tmp_path)
    with fix_lock([tmp_path]):
        proc = subprocess.Popen([*MEMLINT, "fix", str(tmp_path), "--select", "ML320"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        time.sleep(2.0)
        assert proc.poll() is None, "the second run did not wait for the lock"
        assert (folder / "MEMORY.md").read_text(encoding="utf-8") == SPACES
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert (folder / "MEMORY.md").read_text(encoding="utf-8") == "- [A](a.md) \u2014 about a\n"


def test_check_reads_config_from_the_project_not_the_named_file(tmp_path: Path) -> None:
    """A repository's .memlint.toml still applies to check (reading is harmless)."""
    (tmp_path / ".memlint.toml").write_text('ignore = ["ML320"]\n', encoding="utf-8")
    memory_folder(tmp_path)
    assert "ML320" not in load_config(tmp_path).selected


def test_a_symlinked_rules_file_is_never_renamed_into_a_copy(tmp_path: Path) -> None:
    rules = tmp_path / ".claude" / "rules"
    rules.mkdir(parents=True)
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "style.MD").write_text("# Style\nUse tabs.\n", encoding="utf-8")
    os.symlink("../../shared/style.MD", rules / "style.MD")
    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    before = snapshot(tmp_path)
    run = memlint("fix", tmp_path, "--select", "ML501", "--unsafe-fixes")
    assert snapshot(tmp_path) == before
    assert (rules / "style.MD").is_symlink()
    assert run.code == 1 and "symlink" in run.err
