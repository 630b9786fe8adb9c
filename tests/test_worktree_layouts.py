"""Git worktree layouts, folder names outside the BMP and settings `env` (issue 28, point 5).

What the real CLI does on these layouts is recorded in tests/differential/cases_layouts.py; here are
the edges the recordings do not cover (broken git links must never crash or mislead) and one run of
the `memlint context` command on a nested worktree made by git."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.cli import main
from memlint.model.loading.settings import Launch, SettingsFile, auto_memory, env_value
from memlint.model.memory.automem import sanitize_project_path
from memlint.model.source.gitroot import canonical_root, find_project_root, git_roots

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
GIT_ENV = {**{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.invalid", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "init.defaultBranch=main", *args], cwd=cwd, check=True, env=GIT_ENV,
                   capture_output=True, stdin=subprocess.DEVNULL)


def fake_worktree(tmp: Path, gitdir_text: str, commondir: str | None = "../..", back: str | None = None) -> Path:
    """A main repository `main/` and a worktree folder `wt/` whose links are written by hand."""
    main = tmp / "main"
    meta = main / ".git" / "worktrees" / "wt"
    meta.mkdir(parents=True)
    wt = tmp / "wt"
    wt.mkdir()
    (wt / ".git").write_text(gitdir_text.replace("<META>", str(meta)))
    if commondir is not None:
        (meta / "commondir").write_text(commondir + "\n")
    (meta / "gitdir").write_text((back or str(wt / ".git")) + "\n")
    return wt


def test_a_worktree_whose_links_agree_maps_to_its_main_repository(tmp_path: Path) -> None:
    wt = fake_worktree(tmp_path, "gitdir: <META>\n")
    assert canonical_root(wt) == (tmp_path / "main", False)
    assert find_project_root(wt / "sub") == tmp_path / "main"


@pytest.mark.parametrize(("gitdir", "commondir", "back"), [
    ("gitdir: <META>\n", None, None),  # no commondir: a submodule's git folder, not a worktree
    ("gitdir: <META>\n", "../..", "/nowhere/.git"),  # moved by hand: the link back is stale
    ("gitdir: <META>\n", "../../../other/.git", None),  # the git folder is not in <common>/worktrees
    ("not a gitdir line\n", "../..", None),
    ("gitdir: /no/such/folder\n", "../..", None),
    ("", "../..", None),
])
def test_a_worktree_whose_links_do_not_agree_is_its_own_root(tmp_path: Path, gitdir: str, commondir: str | None,
                                                              back: str | None) -> None:
    wt = fake_worktree(tmp_path, gitdir, commondir, back)
    assert canonical_root(wt)[0] == wt


def test_a_relative_link_back_is_read_from_the_git_folder_or_by_older_releases_from_the_start(tmp_path: Path) -> None:
    wt = fake_worktree(tmp_path, "gitdir: ../main/.git/worktrees/wt\n", back="../../../../wt/.git")
    assert canonical_root(wt) == (tmp_path / "main", False)
    assert find_project_root(wt, relative_links=True) == tmp_path / "main"
    # 2.1.197 resolved it from the start folder: wrong from wt/, right from wt/x/y/z (four levels below
    # the worktree's parent), and the answer of one start folder is not kept for the other
    deep = wt / "x" / "y" / "z"
    deep.mkdir(parents=True)
    assert canonical_root(wt, wt) == (wt, True)
    memo: dict[object, object] = {}
    assert find_project_root(wt, memo, relative_links=False) == wt
    assert find_project_root(deep, memo, relative_links=False) == tmp_path / "main"
    assert find_project_root(wt, memo, relative_links=False) == wt


def test_a_git_marker_that_is_neither_file_nor_folder_is_no_git_root(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / ".git")
    assert git_roots(tmp_path) is None
    assert find_project_root(tmp_path) == tmp_path


def test_an_unreadable_git_file_is_its_own_root(tmp_path: Path) -> None:
    (tmp_path / ".git").write_bytes(b"\xff\xfe\x00gitdir: \x00\n")
    assert canonical_root(tmp_path) == (tmp_path, False)


def test_folder_names_count_utf16_units() -> None:
    assert sanitize_project_path("/a/caf\u00e9\U0001f389x") == "-a-caf---x"
    long = "/p/" + "\U0001f600" * 150  # 300 units: cut at 200 and hashed, as Claude Code does
    name = sanitize_project_path(long)
    assert name.startswith("-p-" + "-" * 197 + "-") and len(name) > 201
    assert sanitize_project_path("/a/\udcff") == "-a--"  # an undecodable byte (surrogateescape) does not crash
    # over 200 units with emoji: the name the real CLI (2.1.197 and 2.1.332) read MEMORY.md from
    deep = "/tmp/mlhash/" + "d" * 120 + "/\U0001f600" * 40
    assert sanitize_project_path(deep) == "-tmp-mlhash-" + "d" * 120 + "-" * 69 + "kzjs5"


def _files(*blocks: dict[str, object]) -> list[SettingsFile]:
    return [SettingsFile(Path(f"/s{i}.json"), "user", b) for i, b in enumerate(blocks)]


@pytest.mark.parametrize(("real", "blocks", "enabled", "expected"), [
    (None, [{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": " On "}}], True, False),
    (None, [{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "off"}}], False, True),
    (None, [{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "maybe"}}], False, False),
    (None, [{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": True}}], True, False),
    (None, [{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": 0}}], False, True),
    (None, [{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": None}}], False, False),
    (None, [{"env": ["CLAUDE_CODE_DISABLE_AUTO_MEMORY=1"]}], True, True),
    ("1", [{"env": {}}], True, False),
    ("1", [{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}}], True, True),
    ("0", [{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}}, {"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "no"}}],
     False, True),
])
def test_disable_auto_memory_from_settings_env_over_the_real_one(real: str | None, blocks: list[dict[str, object]],
                                                                enabled: bool, expected: bool) -> None:
    launch = Launch.from_environ({"CLAUDE_CODE_DISABLE_AUTO_MEMORY": real} if real is not None else {})
    assert auto_memory(enabled, _files(*blocks), launch) is expected


def test_env_value_takes_the_last_settings_file_that_sets_it() -> None:
    files = _files({"env": {"K": "a"}}, {"env": {"OTHER": "x"}}, {"env": {"K": 2.0}})
    assert env_value(files, Launch(), "K") == "2"
    assert env_value(files[:2], Launch(env={"K": "real"}), "K") == "a"


@needs_git
def test_context_on_a_nested_worktree_made_by_git(tmp_path: Path) -> None:
    repo = (tmp_path / "repo").resolve()
    home = (tmp_path / "home").resolve()
    (repo / ".claude" / "rules").mkdir(parents=True)
    home.mkdir()
    (repo / "CLAUDE.md").write_text("main claude\n")
    (repo / ".claude" / "rules" / "r.md").write_text("main rule\n")
    (repo / ".gitignore").write_text(".claude/worktrees/\nCLAUDE.local.md\n")
    (repo / "CLAUDE.local.md").write_text("main local\n")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "init")
    git(repo, "worktree", "add", "-q", "-b", "feat", ".claude/worktrees/feat")
    wt = repo / ".claude" / "worktrees" / "feat"
    memory = home / ".claude" / "projects" / sanitize_project_path(str(repo)) / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [a](a.md) one\n")
    result = CliRunner().invoke(main, ["context", str(wt), "--home", str(home), "--format", "json",
                                       "--managed-dir", str(tmp_path / "none")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    loaded = [(Path(f["path"]).relative_to(tmp_path.resolve()).as_posix(), f["kind"]) for f in data["files"]]
    assert [(Path(s["path"]).relative_to(repo).as_posix(), s["reason"]) for s in data["skipped"]] == [
        ("CLAUDE.md", "nested-worktree"), (".claude/rules", "nested-worktree")]
    assert loaded == [
        ("repo/CLAUDE.local.md", "local"),
        ("repo/.claude/worktrees/feat/CLAUDE.md", "project"),
        ("repo/.claude/worktrees/feat/.claude/rules/r.md", "project"),
        (f"home/.claude/projects/{sanitize_project_path(str(repo))}/memory/MEMORY.md", "automem"),
    ]


def _built(name: str, tmp_path: Path) -> tuple[Path, Path, object]:
    import sys

    sys.path.insert(0, str(Path(__file__).parent / "differential"))
    from cases import BY_NAME, build

    case = BY_NAME[name]
    tree, home = build(case, tmp_path)
    return tree, home, case


@needs_git
def test_the_bisected_releases_switch_where_the_recordings_say(tmp_path: Path) -> None:
    """The two worktree switches were bisected with the oracle (2.1.198 and 2.1.227): the releases
    either side of each behave as the recorded 2.1.197 and 2.1.332 do."""
    from memlint.api import context
    from memlint.model.loading.reads import on_read
    from memlint.model.release import pick

    tree, home, case = _built("wt_nested_conditional_rule", tmp_path / "a")
    start = tree / case.cwd  # type: ignore[attr-defined]
    attached = {}
    for version in ("2.1.226", "2.1.227"):
        ctx = context(start=start, home=home, managed_dir=tmp_path / "none", release=pick(version))
        attached[version] = sorted(str(i.file.path.relative_to(tree)) for i in on_read(ctx.loaded, tree / case.read))  # type: ignore[attr-defined]
    assert attached == {"2.1.226": [".claude/rules/ts.md", ".claude/worktrees/feat/.claude/rules/ts.md"],
                        "2.1.227": [".claude/worktrees/feat/.claude/rules/ts.md"]}
    tree, home, case = _built("wt_relative_links", tmp_path / "b")
    roots = {v: context(start=tree / "feat", home=home, managed_dir=tmp_path / "none", release=pick(v)).loaded.project_root
             for v in ("2.1.197", "2.1.198")}
    assert roots == {"2.1.197": tree / "feat", "2.1.198": tree / "main"}
