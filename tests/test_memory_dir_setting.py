"""`autoMemoryDirectory` as Claude Code reads it (model/loading/settings.py `memory_dir_setting`), and which
source's value counts; seen with the real CLI (cases am01-am03, and by hand for managed settings)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memlint.model.loading.settings import Launch, memory_dir_setting, read_settings
from memlint.model.release import DEFAULT

HOME = Path("/home/u")


@pytest.mark.parametrize(("value", "folder"), [
    ("~/mem", "/home/u/mem"), ("~/mem/", "/home/u/mem"), ("~//mem", "/home/u/mem"), ("~\\mem", "/home/u/mem"),
    ("~//../x", "/home/x"),  # the rest does not climb out by itself; joined, it may
    ("//tmp/x", "/tmp/x"), ("///tmp/x", "/tmp/x"), ("/tmp/x\\", "/tmp/x"), ("/ab", "/ab"), ("/tmp/e\u0301", "/tmp/\u00e9"),
    ("~/", None), ("~", None), ("~/..", None), ("~/../x", None), ("~/..\\x", None), ("/a", None), ("relative", None),
    ("", None), (5, None), ("/tmp/\x00x", None),
])
def test_a_value(value: object, folder: str | None) -> None:
    found = memory_dir_setting(value, HOME)
    assert (None if found is None else str(found)) == folder


def test_the_first_source_that_sets_it_counts_managed_first(tmp_path: Path) -> None:
    home, start, managed = tmp_path / "home", tmp_path / "repo", tmp_path / "managed"
    for folder in (home / ".claude", start / ".claude", managed):
        folder.mkdir(parents=True)
    flag = tmp_path / "flag.json"
    (home / ".claude" / "settings.json").write_text(json.dumps({"autoMemoryDirectory": "~/user"}))
    (start / ".claude" / "settings.local.json").write_text(json.dumps({"autoMemoryDirectory": "~/local"}))
    flag.write_text(json.dumps({"autoMemoryDirectory": "~/flag"}))

    def chosen() -> str:
        found = read_settings(start, home, start, DEFAULT, managed, Launch(flag)).auto_memory_dir
        return "" if found is None else found.name

    assert chosen() == "flag"
    (managed / "managed-settings.json").write_text(json.dumps({"autoMemoryDirectory": "~/managed"}))
    assert chosen() == "managed"
    (managed / "managed-settings.json").write_text(json.dumps({"autoMemoryDirectory": None}))  # null: none set
    assert chosen() == "flag"
    flag.write_text(json.dumps({"autoMemoryDirectory": "relative"}))  # refused, yet it is the one asked
    assert chosen() == ""
