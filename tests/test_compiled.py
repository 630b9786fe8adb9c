"""memlint.compiled: generated dataclass methods and regular expressions kept once per user, and a
kept table that is not this Python's, not whole or not the user's own is never used."""

from __future__ import annotations

import dataclasses
import importlib
import os
import pkgutil
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import memlint
from memlint import cache_folders, compiled, records
from memlint.lazy_regex import _LazyPattern

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    """A user cache folder for the table, with the module's state as a new process has it."""
    saved = compiled.FOLDER, compiled._kept, dict(compiled._added), set(compiled._used), compiled.FOLDER_OF
    compiled.FOLDER, compiled._kept, compiled.FOLDER_OF = str(tmp_path), None, None
    compiled._added.clear()
    compiled._used.clear()
    yield tmp_path
    compiled.FOLDER, compiled._kept, compiled.FOLDER_OF = saved[0], saved[1], saved[4]
    compiled._added.clear()
    compiled._added.update(saved[2])
    compiled._used.clear()
    compiled._used.update(saved[3])


def _new_process() -> None:
    """What the next process sees: the table on disk, nothing compiled yet."""
    compiled._kept = None
    compiled._added.clear()
    compiled._used.clear()


def _memlint_patterns() -> list[_LazyPattern]:
    found = []
    for info in pkgutil.walk_packages(memlint.__path__, "memlint."):
        if info.name.startswith("memlint.lsp") or info.name == "memlint.__main__":
            continue
        module = importlib.import_module(info.name)
        found += [value for value in vars(module).values() if isinstance(value, _LazyPattern)]
    return found


def test_every_pattern_of_memlint_read_back_from_the_table_equals_re_compile(folder: Path) -> None:
    patterns = _memlint_patterns()
    assert len(patterns) > 150
    first = [compiled.regex(p.pattern, p._flags) for p in patterns]
    kept = {key for key in compiled._added if key[0] == "re"}
    assert {("re", p.pattern, p._flags) for p in patterns} <= kept
    compiled.store()
    assert list(folder.glob("compiled-*.marshal"))
    _new_process()
    for pattern, made in zip(patterns, first):
        again = compiled.regex(pattern.pattern, pattern._flags)
        expected = re.compile(pattern.pattern, pattern._flags)
        assert again == expected == made  # same flags, pattern and program
        assert (again.groups, again.groupindex) == (expected.groups, expected.groupindex)
    assert not [key for key in compiled._added if key[0] == "re"]  # nothing compiled again


def test_a_pattern_read_back_matches_as_re_compiles_it(folder: Path) -> None:
    text = "Key: value\nÅngström NEVER run  `rm -rf`\r\n(?P<x>)"
    shapes = [(r"(?P<key>\w+):\s*(?P<value>\S+)", 0), (r"never|always", re.IGNORECASE), (rb"[\x80-\xff]+", 0),
              (r"(?m)^\s*(\w+)$", 0), (r"(a)|(b)(?=c)", re.VERBOSE)]
    for pattern, flags in shapes:
        compiled.regex(pattern, flags)
    compiled.store()
    _new_process()
    for pattern, flags in shapes:
        kept, fresh = compiled.regex(pattern, flags), re.compile(pattern, flags)
        subject: str | bytes = text.encode("utf-8") if isinstance(pattern, bytes) else text
        assert [m.span() for m in kept.finditer(subject)] == [m.span() for m in fresh.finditer(subject)]
        assert [m.groups() for m in kept.finditer(subject)] == [m.groups() for m in fresh.finditer(subject)]
    assert not compiled._added


@pytest.mark.skipif(records._CREATE_FN is None, reason="Python 3.13+ compiles a dataclass in one exec")
def test_dataclass_methods_read_back_from_the_table_behave_as_the_standard_ones(folder: Path) -> None:
    def define() -> tuple[type, type]:
        @records.dataclass(frozen=True, slots=True, order=True)
        class Point:
            """A point."""

            x: int
            y: int = 0
            tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)

        @dataclasses.dataclass(frozen=True, slots=True, order=True)
        class Standard:
            """A point."""

            x: int
            y: int = 0
            tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)

        return Point, Standard

    def exercise(cls: type) -> tuple[object, ...]:
        a, b = cls(1), cls(1, 2, ("t",))
        with pytest.raises(dataclasses.FrozenInstanceError):
            a.x = 3  # type: ignore[attr-defined]
        return repr(a).split("(", 1)[1], a == cls(1), a < b, hash(a) == hash(cls(1)), b.tags

    point, standard = define()
    expected = exercise(standard)
    assert exercise(point) == expected
    assert compiled._added and all(key[0] == "fn" for key in compiled._added)
    compiled.store()
    _new_process()
    point, _ = define()
    assert exercise(point) == expected
    assert not compiled._added and compiled._used  # every method came from the table


def test_code_is_compiled_as_dataclasses_exec_compiles_it(folder: Path) -> None:
    source = "def __create_fn__(x):\n def f(a: x) -> x:\n  return a\n return f"
    code = compiled.method_code(source)
    namespace: dict[str, object] = {}
    exec(code, {}, namespace)  # noqa: S102
    made = namespace["__create_fn__"](int)  # type: ignore[operator]
    assert made.__annotations__ == {"a": int, "return": int}  # not strings: no future flags inherited
    assert code.co_filename == "<string>"


def _one_kept_pattern(folder: Path) -> Path:
    compiled.regex(r"kept\d+", 0)
    compiled.store()
    (table,) = folder.glob("compiled-*.marshal")
    _new_process()
    return table


@pytest.mark.parametrize("damage", ["cut", "garbage", "empty", "others-write", "symlink", "folder"])
def test_a_table_that_is_not_whole_or_not_the_users_own_is_not_used(folder: Path, damage: str) -> None:
    table = _one_kept_pattern(folder)
    if damage == "cut":
        table.write_bytes(table.read_bytes()[:-7])
    elif damage == "garbage":
        table.write_bytes(b"\x00\xff" * 64)
    elif damage == "empty":
        table.write_bytes(b"")
    elif damage == "others-write":
        table.chmod(0o666)
    elif damage == "symlink":
        real = folder / "elsewhere.marshal"
        table.rename(real)
        table.symlink_to(real)
    else:
        table.unlink()
        table.mkdir()
    assert compiled.regex(r"kept\d+", 0) == re.compile(r"kept\d+")
    assert ("re", r"kept\d+", 0) in compiled._added  # compiled afresh, not read


def test_a_table_of_another_python_or_memlint_is_never_read(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = compiled.file_name()
    monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    assert compiled.file_name() != name
    monkeypatch.undo()
    monkeypatch.setattr(compiled, "__version__", "0.0.0-other")
    assert compiled.file_name() != name


def test_a_table_past_its_bound_keeps_only_what_the_process_used(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for n in range(40):
        compiled.regex(f"old{n}[a-z]+", 0)
    compiled.store()
    _new_process()
    compiled.regex("old1[a-z]+", 0)  # used
    compiled.regex("new[0-9]+", 0)  # added
    monkeypatch.setattr(compiled, "MAX_BYTES", 64)
    compiled.store()
    monkeypatch.undo()
    _new_process()
    assert set(compiled._table()) == {("re", "old1[a-z]+", 0), ("re", "new[0-9]+", 0)}


def test_without_a_folder_nothing_is_read_or_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "FOLDER", None)  # memlint used as a library: Python compiles as usual
    compiled.regex(r"library\d", 0)
    assert ("re", r"library\d", 0) not in compiled._added
    compiled.store()
    assert not list(tmp_path.iterdir())


def test_patterns_are_the_same_text_in_every_process() -> None:
    """A pattern built from a set in its iteration order changes with the hash seed: never found kept."""
    script = ("import importlib, pkgutil, memlint\nfrom memlint.lazy_regex import _LazyPattern\n"
              "for i in pkgutil.walk_packages(memlint.__path__, 'memlint.'):\n"
              "    if i.name.startswith('memlint.lsp') or i.name == 'memlint.__main__': continue\n"
              "    m = importlib.import_module(i.name)\n"
              "    print(*sorted(repr((i.name, k, v.pattern)) for k, v in vars(m).items() if isinstance(v, _LazyPattern)))\n")
    texts = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        texts.add(subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                                 check=True).stdout)
    assert len(texts) == 1


def test_a_second_run_compiles_nothing_and_leaves_the_table_as_it_was(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "CLAUDE.md").write_text("# Project\n\nRun `make test` before a commit.\n", encoding="utf-8")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "HOME": str(tmp_path / "home"),
           "PYTHONPATH": str(ROOT)}
    uncached = subprocess.run([sys.executable, "-m", "memlint", "check", "--no-cache", "--no-home", "."], cwd=project,
                              env=env, capture_output=True, text=True, check=False)
    assert uncached.returncode == 0 and not (tmp_path / "cache").exists()  # --no-cache: no cache of any kind
    command = [sys.executable, "-m", "memlint", "check", "--no-home", "."]
    first = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, check=False)
    (table,) = (tmp_path / "cache" / "memlint").glob("compiled-*.marshal")
    for entry in (project / ".memlint_cache").glob("run-*"):
        entry.unlink()  # the next run is not replayed: it loads and checks again
    stamp = table.stat().st_mtime_ns
    second = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, check=False)
    assert (second.returncode, second.stdout, second.stderr) == (first.returncode, first.stdout, first.stderr)
    assert table.stat().st_mtime_ns == stamp  # nothing new was compiled, so nothing was written
    assert oct(table.stat().st_mode & 0o777) == oct(0o600)


def test_the_user_cache_keeps_the_newest_compiled_tables(folder: Path) -> None:
    for age in range(6):  # tables other Pythons or memlint versions kept, the oldest first
        old = folder / f"compiled-{age:016x}.marshal"
        old.write_bytes(b"x")
        os.utime(old, ns=(age * 10**9, age * 10**9))
    compiled.regex(r"mine\d", 0)
    compiled.store()
    cache_folders.prune_rank_tables(str(folder))
    kept = sorted(p.name for p in folder.glob("compiled-*.marshal"))
    assert len(kept) == cache_folders.MAX_RANK_TABLES and compiled.file_name() in kept
    assert "compiled-0000000000000005.marshal" in kept and "compiled-0000000000000002.marshal" not in kept


def test_the_folder_is_looked_for_only_once_something_is_compiled(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []

    def folder_of() -> str:
        asked.append(1)
        return str(folder)

    monkeypatch.setattr(compiled, "FOLDER", None)
    monkeypatch.setattr(compiled, "FOLDER_OF", folder_of)
    compiled.store()  # nothing compiled (a replayed run): the folder is never looked for
    assert not asked
    compiled.regex(r"asked\d", 0)
    compiled.store()
    assert asked == [1] and compiled.FOLDER == str(folder) and list(folder.glob("compiled-*.marshal"))


def test_a_folder_that_cannot_be_found_means_no_table(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def gone() -> str:
        raise FileNotFoundError("the current folder was removed")

    monkeypatch.setattr(compiled, "FOLDER", None)
    monkeypatch.setattr(compiled, "FOLDER_OF", gone)
    assert compiled.regex(r"nowhere\d", 0) == re.compile(r"nowhere\d")  # compiled as Python does, no error
    compiled.store()
    assert compiled.FOLDER is None and not list(folder.iterdir())


def test_the_user_cache_folder_is_made_for_the_table(folder: Path) -> None:
    compiled.FOLDER = str(folder / "cache" / "memlint")  # `memlint hook` alone never made it
    compiled.regex(r"made\d", 0)
    compiled.store()
    assert len(list((folder / "cache" / "memlint").glob("compiled-*.marshal"))) == 1
    assert oct((folder / "cache" / "memlint").stat().st_mode & 0o777) == oct(0o700)
