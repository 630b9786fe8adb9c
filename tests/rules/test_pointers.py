"""The paths ML325 reads in a loaded file's text (`rules.automem._pointers`): runs with a `/`, in any
script; a pattern stands for its folder; URLs, `@` includes and bare words are no pointers."""

from __future__ import annotations

from memlint.rules.automem._pointers import _paths


def test_paths_in_prose_code_spans_and_lists() -> None:
    text = ("Read `.claude/memory/MEMORY.md` first. Data lives in `next/` and memory/.\n"
            "- 冷记忆: `记忆/主题/*.md`\n"
            "See https://example.com/memory/x and @docs/memory/a.md; MEMORY.md alone is no path.")
    assert list(_paths(text)) == [".claude/memory/MEMORY.md", "next/", "memory/", "记忆/主题/"]


def test_a_pattern_with_no_folder_before_it_names_none() -> None:
    assert list(_paths("files `*/notes.md` and `src/**/x.md`")) == ["src/"]
