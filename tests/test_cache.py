"""The whole-run cache (memlint/cache.py): a warm `check` replays the same output, and anything the
run read, listed or probed that changes afterwards makes the next run compute again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import memlint.__main__ as entry_point
from memlint import cache, cache_folders
from memlint.model.text import tokens


@pytest.fixture(autouse=True)
def trust_fresh_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """The trees are written by the test itself just before the run: trust them (the racy-file
    guard is tested on its own below). Every change below alters a size or sets a new mtime."""
    monkeypatch.setattr(cache, "RACY_NS", 0)


class Runner:
    """Runs the `memlint` command in-process and tells whether it was replayed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], cwd: Path) -> None:
        self.capsys = capsys
        self.computed = 0
        real = entry_point._invoke

        def counting(argv: list[str]) -> int:
            self.computed += 1
            return real(argv)

        monkeypatch.setattr(entry_point, "_invoke", counting)
        # the command ends its process with os._exit; in-process it raises SystemExit instead
        monkeypatch.setattr(entry_point, "_leave", sys.exit)
        monkeypatch.chdir(cwd)

    def __call__(self, *args: str) -> tuple[int, str, str, bool]:
        """(exit code, stdout, stderr, replayed from the cache)."""
        before = self.computed
        sys.argv = ["memlint", *args]
        with pytest.raises(SystemExit) as exc:
            entry_point.run()
        out, err = self.capsys.readouterr()
        code = exc.value.code
        assert isinstance(code, int)
        return code, out, err, self.computed == before


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def touch(path: Path) -> None:
    """A new mtime, content unchanged (what an editor's save of the same text does)."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    write(root / "CLAUDE.md", "# Project\n\n- Style: @docs/style.md\n- Missing: @docs/gone.md\n")
    write(root / "docs" / "style.md", "Use four spaces.\n")
    write(root / ".claude" / "rules" / "api.md", "---\npaths:\n  - \"src/**/*.ts\"\n---\n\n# API\n\nValidate input.\n")
    write(root / "src" / "main.ts", "export {}\n")
    write(root / "packages" / "web" / "CLAUDE.md", "# Web\n\nRun the web tests.\n")
    return root


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tree: Path) -> Runner:
    return Runner(monkeypatch, capsys, tree)


def test_warm_run_replays_the_same_output(run: Runner, tree: Path) -> None:
    first = run("check", ".", "--format", "json")
    assert not first[3]
    second = run("check", ".", "--format", "json")
    assert second[3], "nothing changed: the run should be replayed"
    assert second[:3] == first[:3]
    assert json.loads(second[1])  # the JSON report itself
    text = run("check", ".")
    assert not text[3], "other arguments: another entry"
    assert run("check", ".")[:3] == text[:3]
    ignore = tree / ".memlint_cache" / ".gitignore"
    assert ignore.read_text(encoding="utf-8").splitlines()[-1] == "*"


CHANGES: dict[str, Callable[[Path], None]] = {
    "included file touched": lambda root: touch(root / "docs" / "style.md"),
    "included file edited": lambda root: write(root / "docs" / "style.md", "Use tabs.\n"),
    "missing include created": lambda root: write(root / "docs" / "gone.md", "Now here.\n"),
    "rule file touched": lambda root: touch(root / ".claude" / "rules" / "api.md"),
    "rule file added": lambda root: write(root / ".claude" / "rules" / "db.md", "# DB\n\nUse migrations.\n"),
    "project file added": lambda root: write(root / "src" / "other.ts", "export {}\n"),
    "settings file created": lambda root: write(root / ".claude" / "settings.json", '{"claudeMdExcludes": []}\n'),
    "config file created": lambda root: write(root / ".memlint.toml", 'ignore = ["ML101"]\n'),
    "local memory created where a probe found nothing": lambda root: write(root / "CLAUDE.local.md", "# Mine\n"),
    "nested CLAUDE.md removed": lambda root: (root / "packages" / "web" / "CLAUDE.md").unlink(),
    "file mode changed": lambda root: (root / "docs" / "style.md").chmod(0o600),
    # found missing in a folder that was listed, or under a folder found missing (not re-probed one by one)
    "local memory created in a package": lambda root: write(root / "packages" / "web" / "CLAUDE.local.md", "# Mine\n"),
    "package settings created with their folder": lambda root: write(
        root / "packages" / "web" / ".claude" / "settings.json", '{"claudeMdExcludes": ["**/web/CLAUDE.md"]}\n'),
    "local settings created": lambda root: write(root / ".claude" / "settings.local.json", '{"claudeMdExcludes": []}\n'),
    "a package becomes a repository": lambda root: (root / "packages" / "web" / ".git").mkdir(),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_any_change_to_what_the_run_read_invalidates(run: Runner, tree: Path, change: str) -> None:
    run("check", ".", "--format", "json")
    assert run("check", ".", "--format", "json")[3]
    CHANGES[change](tree)
    code, out, err, replayed = run("check", ".", "--format", "json")
    assert not replayed, f"{change}: a stale result was replayed"
    fresh = run("check", ".", "--format", "json", "--no-cache")
    assert (code, out, err) == fresh[:3]


def test_a_change_in_home_invalidates(run: Runner, tree: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    run("check", ".", "--home", str(home))
    assert run("check", ".", "--home", str(home))[3]
    write(home / ".claude" / "CLAUDE.md", "# Me\n\nBe brief.\n")
    assert not run("check", ".", "--home", str(home))[3]
    assert run("check", ".", "--home", str(home))[3]
    write(home / ".claude" / "CLAUDE.md", "# Me\n\nBe brief, always.\n")
    assert not run("check", ".", "--home", str(home))[3]


def test_a_claude_code_variable_is_part_of_the_key(
    run: Runner, tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("check", ".")
    assert run("check", ".")[3]
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "config"))
    assert not run("check", ".")[3]


def test_no_cache_neither_replays_nor_stores(run: Runner, tree: Path) -> None:
    run("check", ".", "--no-cache")
    assert not (tree / ".memlint_cache").exists()
    run("check", ".")
    assert not run("check", ".", "--no-cache")[3]


def test_fix_and_context_are_never_cached(run: Runner, tree: Path) -> None:
    assert not cache.cacheable(["check", "--fix", "."])
    assert not cache.cacheable(["check", "--diff"])
    assert not cache.cacheable(["fix", "."])
    assert not cache.cacheable(["context", "."])
    assert cache.cacheable(["check", ".", "--format", "json"])
    run("fix", ".")
    run("context", ".")
    assert not (tree / ".memlint_cache").exists()


def _entries(tree: Path) -> list[Path]:
    return sorted((tree / ".memlint_cache").glob("run-*"))


@pytest.mark.parametrize("content", [b"", b"not marshal at all", b"\xff" * 100])
def test_a_corrupt_entry_is_ignored_and_rewritten(run: Runner, tree: Path, content: bytes) -> None:
    first = run("check", ".")
    (entry,) = _entries(tree)
    entry.write_bytes(content)
    again = run("check", ".")
    assert not again[3] and again[:3] == first[:3]
    assert entry.read_bytes() != content
    assert run("check", ".")[3]


def test_a_foreign_entry_is_ignored(run: Runner, tree: Path) -> None:
    import marshal
    import struct

    run("check", ".")
    (entry,) = _entries(tree)
    raw = entry.read_bytes()
    sizes = struct.unpack_from("<5Q", raw)
    _fmt, _key, err, code = marshal.loads(raw[40:40 + sizes[0]])
    header = marshal.dumps((cache.FORMAT, "another key", err, code))
    forged = b"forged\n"
    tables = raw[40 + sizes[0] + sizes[1]:]
    entry.write_bytes(struct.pack("<5Q", len(header), len(forged), *sizes[2:]) + header + forged + tables)
    _code, out2, _err, replayed = run("check", ".")
    assert not replayed and "forged" not in out2


def test_an_unwritable_cache_folder_leaves_the_run_working(run: Runner, tree: Path) -> None:
    (tree / ".memlint_cache").write_text("a file where the folder should be\n", encoding="utf-8")
    first = run("check", ".")
    second = run("check", ".")
    assert not second[3] and second[:3] == first[:3]


def test_a_cache_folder_that_is_a_link_is_never_written_through(run: Runner, tree: Path, tmp_path: Path) -> None:
    # a repository can hold `.memlint_cache` as a symbolic link: `check` must write nothing outside it
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tree / ".memlint_cache").symlink_to(elsewhere)
    first = run("check", ".")
    second = run("check", ".")
    assert not second[3] and second[:3] == first[:3]
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize("planted", [".gitignore", "temporary"])
def test_a_link_planted_in_the_cache_folder_is_never_written_through(
    run: Runner, tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, planted: str,
) -> None:
    # the `.gitignore` memlint writes, or the temporary file of an entry (its name is predictable),
    # planted as a dangling link to a file outside: the run goes on, and that file is never made
    target = tmp_path / "victim"
    folder = tree / ".memlint_cache"
    folder.mkdir()
    if planted == ".gitignore":
        (folder / ".gitignore").symlink_to(target)
    else:
        monkeypatch.setattr(os, "getpid", lambda: 4242)
        path = cache.Entry(["check", "."], str(folder)).path
        Path(f"{path}.4242.tmp").symlink_to(target)
    code, out, _err, _ = run("check", ".")
    assert code == 1 and "ML101" in out
    assert not target.exists()


def test_clean_removes_the_cache(run: Runner, tree: Path) -> None:
    run("check", ".")
    assert (tree / ".memlint_cache").is_dir()
    code, _out, err, _ = run("clean", ".")
    assert code == 0 and "Removed" in err
    assert not (tree / ".memlint_cache").exists()
    assert run("clean", ".")[2].startswith("No cache")


def test_clean_of_a_path_that_is_not_there_removes_nothing(run: Runner, tree: Path) -> None:
    # the cache of its folder is not its own: `clean /gone` removed the cache of `/`
    run("check", ".")
    code, _out, err, _ = run("clean", str(tree / "gone"))
    assert code == 2 and "no such file or folder" in err
    assert (tree / ".memlint_cache").is_dir()


def test_a_file_changed_just_before_the_run_is_not_trusted(
    run: Runner, tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "RACY_NS", 3_600 * 1_000_000_000)  # every file counts as just written
    run("check", ".")
    assert not _entries(tree)


def test_the_cache_folder_never_changes_the_report(run: Runner, tree: Path) -> None:
    """memlint's own walks skip `.memlint_cache/`: its files are not project files."""
    write(tree / ".claude" / "rules" / "ghost.md", "---\npaths:\n  - \"**/*.marshal\"\n---\n\nGhost.\n")
    without = run("check", ".", "--no-cache")
    run("check", ".")
    assert run("check", ".", "--no-cache")[:3] == without[:3]


def test_cache_root_is_the_project_folder(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "a" / "b").mkdir(parents=True)
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    assert cache.cache_root(str(root / "a" / "b")) == str(root)
    assert cache.cache_root(str(root / "a" / "b" / "CLAUDE.md")) == str(root)


@pytest.mark.parametrize("plant", ["fifo", "device", "garbage"])
def test_a_planted_entry_is_passed_over_never_read_blocking(run: Runner, tree: Path, plant: str) -> None:
    """What a repository could commit under the name the next run looks up: a FIFO (reading it
    would block), a link to an endless device, or bytes that are no entry."""
    first = run("check", ".")
    entries = list((tree / ".memlint_cache").glob("run-*"))
    assert len(entries) == 1
    entries[0].unlink()
    if plant == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(entries[0])
    elif plant == "device":
        os.symlink("/dev/zero", entries[0])
    else:
        entries[0].write_bytes(b"\x00not marshal")
    again = run("check", ".")
    assert not again[3] and again[:3] == first[:3]


# Where the cache lives (issue 27, point 5).


def _plain_tree(folder: Path) -> Path:
    """Memory files in a folder that is no project: no .git, no pyproject.toml, no .memlint.toml."""
    write(folder / "CLAUDE.md", "# Notes\n\n- Deploy with `make ship`.\n- Missing: @gone.md\n")
    return folder


def _files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, xdg: bool = True) -> tuple[Path, Path]:
    home, xdg_cache = tmp_path / "home", tmp_path / "xdg"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    if xdg:
        monkeypatch.setenv("XDG_CACHE_HOME", str(xdg_cache))
    else:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    return home, xdg_cache


def test_outside_a_project_entries_go_to_the_user_cache_keyed_by_path(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _home, xdg = _isolated(monkeypatch, tmp_path)
    one, two = _plain_tree(tmp_path / "notes" / "one"), _plain_tree(tmp_path / "notes" / "two")
    before = {p: _files_under(p) for p in (one, two)}
    run = Runner(monkeypatch, capsys, tmp_path)
    first = run("check", str(one))
    assert run("check", str(one))[3] and not run("check", str(two))[3]
    assert run("check", str(one))[:3] == first[:3]
    assert {p: _files_under(p) for p in (one, two)} == before  # nothing written into the checked folders
    folders = sorted(p.name for p in (xdg / "memlint" / "runs").iterdir())
    assert len(folders) == 2 and folders[0].startswith("one-") and folders[1].startswith("two-")
    assert cache.cache_folder(str(one)) == str(xdg / "memlint" / "runs" / folders[0])
    assert cache.cache_root(str(one)) is None


def test_without_xdg_cache_home_the_user_cache_is_dot_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    home, _ = _isolated(monkeypatch, tmp_path, xdg=False)
    assert cache.user_cache_dir() == str(home / ".cache" / "memlint")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # not absolute: ignored, as the specification says
    assert cache.user_cache_dir() == str(home / ".cache" / "memlint")


@pytest.mark.parametrize("claude_is_a_repository", [False, True])
def test_never_inside_claude_codes_own_folder(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, claude_is_a_repository: bool
) -> None:
    home, xdg = _isolated(monkeypatch, tmp_path)
    memory = _plain_tree(home / ".claude" / "projects" / "-work-app" / "memory")
    if claude_is_a_repository:  # ~/.claude kept in git: its root is still Claude Code's folder
        (home / ".claude" / ".git").mkdir()
    before = _files_under(home / ".claude")
    run = Runner(monkeypatch, capsys, tmp_path)
    run("check", str(memory))
    assert run("check", str(memory))[3]
    assert _files_under(home / ".claude") == before
    assert any((xdg / "memlint" / "runs").iterdir())


def test_a_claude_config_dir_is_never_written_either(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _isolated(monkeypatch, tmp_path)
    config_dir = tmp_path / "claude-config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config_dir))
    monkeypatch.setenv("XDG_CACHE_HOME", str(config_dir / "cache"))  # a user cache inside it: no cache at all
    memory = _plain_tree(config_dir / "projects" / "-app" / "memory")
    (config_dir / ".git").mkdir()
    before = _files_under(config_dir)
    run = Runner(monkeypatch, capsys, tmp_path)
    assert not run("check", str(memory))[3] and not run("check", str(memory))[3]
    assert _files_under(config_dir) == before


def test_the_tokenizer_table_is_kept_once_per_user_not_per_project(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import subprocess

    _home, xdg = _isolated(monkeypatch, tmp_path)
    projects = []
    for name in ("alpha", "beta"):
        root = tmp_path / name
        (root / ".git").mkdir(parents=True)
        # big enough that ML202 counts its tokens (a small text is under any budget by its length)
        # in five files, each under ML201's per-file limit (a file ML201 reports explains the overage alone)
        for part in range(5):
            lines = (f"- step {n}: run the {name} suite {n * 7919 % 1000} before commit {n}"
                     for n in range(part * 600, part * 600 + 600))
            write(root / f"part{part}.md", "\n".join(lines) + "\n")
        write(root / "CLAUDE.md", f"# {name}\n\n" + "\n".join(f"@part{part}.md" for part in range(5)) + "\n")
        projects.append(root)
    for root in projects:  # fresh processes: each would decode the table without the user's copy
        done = subprocess.run([sys.executable, "-m", "memlint", "check", str(root), "--select", "ML202"],
                              capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path)
        assert done.returncode == 1 and "ML202" in done.stdout, done.stderr
    tables = sorted((xdg / "memlint").glob("cl100k-*.marshal"))
    assert len(tables) == 1
    assert all(not list((root / ".memlint_cache").glob("cl100k-*")) for root in projects)


def test_old_entries_are_pruned_to_a_bounded_number(run: Runner, tree: Path) -> None:
    (tree / ".memlint_cache").mkdir()
    (tree / ".memlint_cache" / "cl100k-0123456789abcdef01234567.marshal").write_bytes(b"an older memlint's table")
    variants = [("--extend-select", f"ML10{n}", "--format", fmt) for fmt in ("text", "json") for n in range(1, 10)]
    for args in variants[: cache_folders.MAX_RUNS + 4]:
        assert not run("check", ".", *args)[3]
    assert len(_entries(tree)) == cache_folders.MAX_RUNS
    assert not list((tree / ".memlint_cache").glob("cl100k-*"))  # the table is kept per user now
    assert run("check", ".", *variants[cache_folders.MAX_RUNS + 3])[3], "the newest entry is kept"
    assert not run("check", ".", *variants[0])[3], "the oldest entry was removed"


def test_entries_are_pruned_to_a_bounded_size(run: Runner, tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run("check", ".")
    size = _entries(tree)[0].stat().st_size
    monkeypatch.setattr(cache_folders, "MAX_FOLDER_BYTES", size * 2 + size // 2)
    for fmt in ("json", "github", "sarif", "gitlab"):
        run("check", ".", "--format", fmt)
    assert 1 <= len(_entries(tree)) <= 3


def test_the_user_cache_keeps_a_bounded_number_of_folders(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _home, xdg = _isolated(monkeypatch, tmp_path)
    monkeypatch.setattr(cache_folders, "MAX_FOLDERS", 3)
    run = Runner(monkeypatch, capsys, tmp_path)
    for n in range(6):
        folder = _plain_tree(tmp_path / "loose" / f"notes{n}")
        run("check", str(folder))
        runs = xdg / "memlint" / "runs"
        os.utime(runs / os.path.basename(cache.cache_folder(str(folder)) or ""), ns=(n * 10**9, n * 10**9 + 10**12))
    assert sorted(p.name.split("-")[0] for p in (xdg / "memlint" / "runs").iterdir()) == ["notes3", "notes4", "notes5"]


_REPLAY_PROBE = """
import json, sys
import memlint.cache
memlint.cache.RACY_NS = 0  # the tree was just written: trust it (the racy-file guard is tested above)
from memlint.__main__ import _run
code = _run(sys.argv[1:])
print(json.dumps([code, sorted(sys.modules)]), file=sys.stderr)
"""


def test_a_replay_imports_neither_the_command_line_nor_pathlib(tree: Path) -> None:
    """A replay is the start-up, the stat calls and the output: pathlib (and what it imports) is
    left to the runs that compute (`python -S`: the site hooks of an editable install import it)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    runs = [subprocess.run([sys.executable, "-S", "-c", _REPLAY_PROBE, "check", "."], cwd=tree, env=env,
                           capture_output=True, text=True, check=False) for _ in range(2)]
    (code, computed), (again, replayed) = (json.loads(r.stderr.strip().splitlines()[-1]) for r in runs)
    assert code == again == 1 and runs[0].stdout == runs[1].stdout
    assert "memlint.cli" in computed and "pathlib" in computed
    assert "memlint.cli" not in replayed, "the second run was not replayed"
    assert "pathlib" not in replayed


def test_a_path_found_missing_is_not_probed_again_when_its_folder_answers_for_it() -> None:
    """A missing path under a folder found missing, or in a folder whose listing is checked and
    does not name it, is implied; any other answer is kept."""
    recorder = cache.Recorder(None)
    gone = cache.sign_error(FileNotFoundError(2, "missing"))
    denied = cache.sign_error(PermissionError(13, "denied"))
    recorder.seen["list"] = {"/r/pkg": "CLAUDE.md\0f\0link\0l\0"}
    recorder.seen["lstat"] = {
        "/r/pkg/.claude": gone, "/r/pkg/CLAUDE.local.md": gone, "/r/other/CLAUDE.local.md": gone,
        "/r/pkg/.memlint_cache": gone, "/r/pkg/secret": denied, "/r/pkg/../pkg/AGENTS.md": gone,
    }
    recorder.seen["stat"] = {"/r/pkg/.claude/settings.json": gone, "/r/pkg/.claude/x/y.json": gone,
                             "/r/pkg/link": gone, "/r/pkg/nothing/settings.json": gone}
    stats, lstats, listings = recorder.probes()
    assert listings == recorder.seen["list"]
    assert sorted(lstats) == ["/r/other/CLAUDE.local.md", "/r/pkg/../pkg/AGENTS.md", "/r/pkg/.memlint_cache",
                              "/r/pkg/secret"]
    assert sorted(stats) == ["/r/pkg/link"]  # a dangling link the listing names: asked again


def test_the_user_cache_keeps_the_most_recently_used_rank_tables(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    for age in range(6):  # tables other Pythons or environments kept, the oldest first
        old = tmp_path / f"cl100k-{age:016x}.marshal"
        old.write_bytes(b"x")
        os.utime(old, ns=(age * 10**9, age * 10**9))
    (tmp_path / "run-0000000000000000.marshal").write_bytes(b"a run, not a table")
    monkeypatch.setattr(tokens, "RANK_CACHE_DIR", str(tmp_path))
    table = tokens._load_ranks()  # decoded, and kept as the newest table
    cache_folders.prune_rank_tables(str(tmp_path))
    assert isinstance(table, tokens.RankTable)
    kept = sorted(p.name for p in tmp_path.glob("cl100k-*.marshal"))
    mine = os.path.basename(tokens._rank_cache_file(tokens._rank_file()) or "")
    assert len(kept) == cache_folders.MAX_RANK_TABLES and mine in kept
    assert "cl100k-0000000000000005.marshal" in kept and "cl100k-0000000000000000.marshal" not in kept
    assert (tmp_path / "run-0000000000000000.marshal").exists()
    again = tokens._load_ranks()  # read back, and marked used
    assert isinstance(again, tokens.RankTable) and again.as_dict() == table.as_dict()


def test_a_listed_folder_is_signed_by_its_own_stat_unless_it_changed_just_before_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One `stat` answers for a folder's entries (adding, removing or renaming one marks the
    folder's mtime and ctime); a folder changed within RACY_NS of the run's start is signed by its
    entries, as a change in the same timestamp tick would leave its times as they were."""
    folder = tmp_path / "rules"
    write(folder / "a.md", "# A\n")
    path = str(folder)

    def listings() -> cache.Table:
        recorder = cache.Recorder(None)
        with recorder.active(), os.scandir(path) as entries:
            assert sorted(e.name for e in entries) == ["a.md"]
        return recorder.probes()[2]

    by_stat = listings()  # (RACY_NS is 0 here: the folder is old enough)
    assert isinstance(by_stat[path], bytes) if os.name == "posix" else isinstance(by_stat[path], str)
    monkeypatch.setattr(cache, "RACY_NS", 10**18)
    by_names = listings()
    assert by_names[path] == "a.md\0f\0"
    for table in (by_stat, by_names):
        assert cache.still_true("list", table)
    write(folder / "b.md", "# B\n")
    assert not cache.still_true("list", by_stat) and not cache.still_true("list", by_names)
    (folder / "b.md").unlink()
    (folder / "a.md").rename(folder / "c.md")
    assert not cache.still_true("list", by_stat)
    (folder / "c.md").rename(folder / "a.md")
    assert cache.still_true("list", by_names)  # the same entries again
    assert not cache.still_true("list", by_stat)  # the folder's times moved on: computed again (never stale)


def test_a_folder_replaced_by_another_is_not_replayed(tmp_path: Path) -> None:
    """The same name, entries and times can belong to another folder only through its device and
    inode: a folder swapped for a copy (or a mount over it) is listed again."""
    folder = tmp_path / "docs"
    write(folder / "a.md", "# A\n")
    recorder = cache.Recorder(None)
    with recorder.active():
        os.scandir(str(folder)).close()
    table = recorder.probes()[2]
    copy = tmp_path / "copy"
    write(copy / "a.md", "# A\n")
    os.utime(copy, ns=(folder.stat().st_atime_ns, folder.stat().st_mtime_ns))
    folder.rename(tmp_path / "old")
    copy.rename(folder)
    assert not cache.still_true("list", table)
