"""Hostile trees memlint must read without crashing, hanging or blocking: deep folders, FIFOs,
devices, /proc files, symlink loops, huge files and lines, many includes, a bad .memlint.toml."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.hostile.helpers import memlint, remove_deep


def test_a_10000_deep_tree_is_walked_without_recursion_error(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    here = str(tmp_path)
    fd = os.open(here, os.O_RDONLY)
    try:
        for _ in range(10_000):  # relative mkdirs: the full path soon passes PATH_MAX
            os.mkdir("d", dir_fd=fd)
            new = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = new
        os.close(os.open("CLAUDE.md", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd))
    finally:
        os.close(fd)
    try:
        run = memlint("check", tmp_path, "--format", "json")
        assert run.code in (0, 1)
        assert json.loads(run.out)["files_checked"] >= 1
    finally:
        remove_deep(tmp_path)


@pytest.mark.parametrize("text", ["tool = 5\n", "[tool]\nmemlint = 3\n", "tool = [1, 2]\n"])
def test_a_malformed_tool_table_is_a_config_error(tmp_path: Path, text: str) -> None:
    (tmp_path / ".memlint.toml").write_text(text, encoding="utf-8")
    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    run = memlint("check", tmp_path)
    assert run.code == 2
    assert run.err.startswith("memlint: ") and run.err.count("\n") == 1, run.err


@pytest.mark.parametrize("name", ["CLAUDE.md", ".claude/rules/pipe.md", ".claude/agent-memory/r/MEMORY.md",
                                  "docs/included.md"])
def test_a_fifo_named_like_a_memory_file_is_reported_never_opened(tmp_path: Path, name: str) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)  # nobody ever writes: opening it blocking would hang until the time limit
    if name != "CLAUDE.md":
        (tmp_path / "CLAUDE.md").write_text("# Project\nSee @docs/included.md\n", encoding="utf-8")
    run = memlint("check", tmp_path, "--format", "json", timeout=30)
    found = json.loads(run.out)["violations"]
    assert any(v["code"] in ("ML903", "ML103", "ML101") and v["path"].endswith(name.split("/")[-1]) or
               name.split("/")[-1] in v["message"] for v in found), found


def test_a_fifo_named_on_the_command_line_is_reported_as_the_file_it_is_not(tmp_path: Path) -> None:
    # it was "no memory files found under CLAUDE.md", exit 1, while `check .` reported it
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "CLAUDE.md")
    run = memlint("check", tmp_path / "CLAUDE.md", "--format", "json", timeout=30)
    found = json.loads(run.out)["violations"]
    assert run.code == 1 and [(v["code"], Path(v["path"]).name) for v in found] == [("ML903", "CLAUDE.md")], run.err


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/urandom", "/proc/self/status", "/proc/self/mem"])
def test_devices_and_proc_files_behind_a_link_finish_quickly(tmp_path: Path, target: str) -> None:
    if not os.path.exists(target):
        pytest.skip(f"{target} does not exist here")
    (tmp_path / ".claude" / "rules").mkdir(parents=True)
    os.symlink(target, tmp_path / ".claude" / "rules" / "device.md")
    os.symlink(target, tmp_path / "CLAUDE.md")
    run = memlint("check", tmp_path, "--format", "json", timeout=30)
    assert run.code in (0, 1)


def test_symlink_loops_are_reported(tmp_path: Path) -> None:
    os.symlink("CLAUDE.md", tmp_path / "CLAUDE.md")
    (tmp_path / ".claude" / "rules").mkdir(parents=True)
    os.symlink("b.md", tmp_path / ".claude" / "rules" / "a.md")
    os.symlink("a.md", tmp_path / ".claude" / "rules" / "b.md")
    os.symlink(".", tmp_path / ".claude" / "rules" / "loop")  # a folder loop
    run = memlint("check", tmp_path, "--format", "json")
    codes = [v["code"] for v in json.loads(run.out)["violations"]]
    assert codes.count("ML903") >= 2, codes


def test_huge_files_and_long_lines(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_bytes(b"# Big\n" + b"x" * (5 * 1024 * 1024))
    (tmp_path / ".claude" / "rules").mkdir(parents=True)
    (tmp_path / ".claude" / "rules" / "line.md").write_bytes(b"@a " * 1_300_000)  # one 3.9 MB line
    run = memlint("check", tmp_path, "--format", "json")
    found = json.loads(run.out)["violations"]
    assert any(v["code"] == "ML903" and "too large" in v["message"] for v in found)


def test_a_100000_line_memory_index_is_checked(tmp_path: Path) -> None:
    folder = tmp_path / ".claude" / "agent-memory" / "reviewer"
    folder.mkdir(parents=True)
    lines = ["# Memory", ""] + [f"- n{i}: use t{i}" for i in range(100_000)]  # 2 MB: Claude Code reads it
    (folder / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = memlint("check", tmp_path, "--format", "json", "--select", "ML301")
    assert any(v["code"] == "ML301" for v in json.loads(run.out)["violations"])


def test_includes_past_the_limit_are_reported_not_followed(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("\n".join(f"@docs/f{i}.md" for i in range(5_000)) + "\n", encoding="utf-8")
    run = memlint("check", tmp_path, "--format", "json")
    found = json.loads(run.out)["violations"]
    limit = [v for v in found if v["code"] == "ML904"]
    assert len(limit) == 1 and "max-includes-per-file" in limit[0]["message"]
    assert "4,000 more includes" in limit[0]["message"]
    missing = [v for v in found if v["code"] == "ML101"]  # one finding for the file, with the count
    assert len(missing) == 1 and "for 1,000 includes" in missing[0]["message"]
    (tmp_path / ".memlint.toml").write_text("[limits]\nmax-includes-per-file = 6000\n", encoding="utf-8")
    found = json.loads(memlint("check", tmp_path, "--format", "json").out)["violations"]
    assert not [v for v in found if v["code"] == "ML904"]
    missing = [v for v in found if v["code"] == "ML101"]
    assert len(missing) == 1 and "for 5,000 includes" in missing[0]["message"]


@pytest.mark.parametrize("value", ["0", "-3", "'many'", "true", "{}"])
def test_a_bad_limit_is_a_config_error(tmp_path: Path, value: str) -> None:
    (tmp_path / ".memlint.toml").write_text(f"[limits]\nmax-includes-per-file = {value}\n", encoding="utf-8")
    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    run = memlint("check", tmp_path)
    assert run.code == 2 and "limits.max-includes-per-file" in run.err


def test_session_notes_globs_never_walk_from_the_root(tmp_path: Path) -> None:
    (tmp_path / ".memlint.toml").write_text('[session-notes]\npaths = ["/**/*.md", "../**/*.md", "notes/**/*.md"]\n',
                                            encoding="utf-8")
    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    (tmp_path / "notes" / "a").mkdir(parents=True)
    (tmp_path / "notes" / "a" / "summary.md").write_text("# Session Title\n", encoding="utf-8")
    run = memlint("check", tmp_path, "--format", "json", timeout=30)
    paths = {v["path"] for v in json.loads(run.out)["violations"]}
    assert all(p.startswith(str(tmp_path)) for p in paths), paths


def test_an_unreadable_include_fails_check_as_context_reports_it(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    os.symlink("loop.md", tmp_path / "docs" / "loop.md")  # unreadable even for root: a loop
    (tmp_path / "CLAUDE.md").write_text("# Project\n@docs/loop.md\n", encoding="utf-8")
    run = memlint("check", tmp_path, "--format", "json")
    found = json.loads(run.out)["violations"]
    assert run.code == 1 and any(v["code"] == "ML903" and v["path"].endswith("loop.md") for v in found), found


NESTED = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("name", [".claude/settings.json", ".claude/settings.local.json", "package.json"])
def test_json_nested_past_the_recursion_limit_is_ignored_like_any_bad_json(tmp_path: Path, name: str) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / name).write_text(NESTED, encoding="utf-8")
    (tmp_path / "CLAUDE.md").write_text("# Project\n\nRun `npm run build` first.\n", encoding="utf-8")
    run = memlint("check", tmp_path, timeout=60)
    assert run.code in (0, 1), run.err


def test_a_fifo_named_settings_json_is_never_opened(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    (tmp_path / ".claude").mkdir()
    os.mkfifo(tmp_path / ".claude" / "settings.json")
    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    assert memlint("check", tmp_path, timeout=30).code == 0


def test_toml_nested_past_the_recursion_limit_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / ".memlint.toml").write_text(f"a = {NESTED}\n", encoding="utf-8")
    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    run = memlint("check", tmp_path, timeout=60)
    assert run.code == 2 and run.err.startswith("memlint: ") and run.err.count("\n") == 1, run.err


def test_a_jwt_whose_payload_nests_past_the_recursion_limit(tmp_path: Path) -> None:
    import base64

    payload = base64.urlsafe_b64encode(b"[" * 1500).decode().rstrip("=")
    token = f"eyJhbGciOiJIUzI1NiJ9.eyJ{payload}.c2lnbmF0dXJlc2lnbmF0dXJl"
    (tmp_path / "CLAUDE.md").write_text(f"# Project\n\nToken: {token}\n", encoding="utf-8")
    run = memlint("check", tmp_path, "--format", "json", timeout=60)
    assert not [v for v in json.loads(run.out)["violations"] if v["code"] == "ML901"], run.out


@pytest.mark.parametrize("name", [".gitignore", ".ignore", "pkg/.gitignore"])
def test_a_fifo_named_like_an_ignore_file_is_never_opened(tmp_path: Path, name: str) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    (tmp_path / "pkg").mkdir()
    os.mkfifo(tmp_path / name)
    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    (tmp_path / "pkg" / "CLAUDE.md").write_text("# Package\n", encoding="utf-8")
    assert memlint("check", tmp_path, timeout=30).code == 0


def test_an_ignore_file_linked_to_an_endless_device_is_not_read(tmp_path: Path) -> None:
    os.symlink("/dev/zero", tmp_path / ".gitignore")
    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    assert memlint("check", tmp_path, timeout=30).code == 0



def test_a_settings_file_of_100000_excludes_is_bounded_and_reported(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    patterns = [f"**/generated{i}/**" for i in range(100_000)]
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps({"claudeMdExcludes": patterns}), encoding="utf-8")
    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    run = memlint("check", tmp_path, "--format", "json", timeout=120)
    hits = [v for v in json.loads(run.out)["violations"] if v["code"] == "ML904"]
    assert len(hits) == 1 and "max-excludes" in hits[0]["message"] and "99,000 more" in hits[0]["message"], hits


def test_an_include_whose_name_is_too_long_is_reported_not_a_crash(tmp_path: Path) -> None:
    """`@<300 letters>.md,` seen from a second start folder (where it is external): ML101 asked
    whether `<300 letters>.md` without the comma is a file with `Path.is_file`, which raises for a
    name too long before Python 3.12, and crashed (ML901); so did its case probe of `@DOCS/<300
    letters>.md` beside a `docs/` folder."""
    long = "n" * 300
    (tmp_path / "CLAUDE.md").write_text(f"# Project\n@{long}.md,\n@DOCS/{long}.md\n", encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "CLAUDE.md").write_text("# Sub\n", encoding="utf-8")
    run = memlint("check", tmp_path, "--no-home", "--format", "json")
    codes = [v["code"] for v in json.loads(run.out)["violations"]]
    assert "ML901" not in codes and "ML903" in codes, codes


def test_an_orphan_topic_file_whose_name_is_not_utf8_is_reported_not_a_crash(tmp_path: Path) -> None:
    """ML308 wrote the index entry of an orphan named `bad\\xff.md` into MEMORY.md's text, which
    cannot hold that byte, and crashed (ML901): the orphan is reported, with no entry to add."""
    folder = tmp_path / ".claude" / "agent-memory" / "reviewer"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text("- [Deploy](deploy.md) \u2014 how we ship\n", encoding="utf-8")
    topic = "---\nname: {0}\ndescription: {0} notes\nmetadata:\n  type: project\n---\nShip on Fridays.\n"
    (folder / "deploy.md").write_text(topic.format("deploy"), encoding="utf-8")
    with open(os.fsencode(folder) + b"/bad\xff.md", "w", encoding="utf-8") as handle:
        handle.write(topic.format("bad"))
    run = memlint("check", tmp_path, "--no-home", "--format", "json")
    found = [(v["code"], v["path"], v["fix"]) for v in json.loads(run.out)["violations"]]
    assert found == [("ML308", str(folder) + "/bad\\xff.md", None)], found


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("option", ["--config", "--baseline"])
@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_config_or_baseline_named_on_the_command_line_that_is_no_file_is_exit_2(
        tmp_path: Path, option: str, kind: str) -> None:
    """A FIFO (nobody writes to it) or a device that never ends, named as the configuration or the
    baseline, is refused as no regular file: exit 2 naming it, never a run that waits or reads forever."""
    (tmp_path / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    named = tmp_path / "named.toml"
    if kind == "fifo":
        os.mkfifo(named)
    else:
        named.symlink_to("/dev/zero")
    run = memlint("check", tmp_path, "--no-home", option, named, timeout=30)
    assert run.code == 2
    assert "named.toml" in run.err and "cannot read" in run.err
