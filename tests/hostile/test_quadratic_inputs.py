"""Small memory files that made `check` quadratic: `[a](` repeated (ML518's link pattern ran each
link target to the end of the line from every `[`), `<!--` repeated (the comment pattern scanned
to the end from every unclosed `<!--`), includes far down a long file (each include's line was
found by reading the file from its top) and an include fan-out (the chain of every duplicate
include listed every loaded file again).

No test here times anything. The matchers that replace the patterns are compared with them on
random short strings; the work they do is counted where a count says more than a clock (the
characters a link scan reads, the chains built for a fan-out); the rest run memlint at a size
where the old code took minutes, so that a return of the old behaviour shows as a hung run."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlint import api
from memlint.config import load_config
from memlint.model.run import include_problems
from memlint.model.text.markdown import COMMENT_SPAN, blank_comments, comment_spans, without_comments
from memlint.rules.layout import ml518_referenced_file_missing as ml518
from tests.hostile.helpers import memlint

# what the patterns turn on: brackets, parentheses, comment marks, quotes, white space (`\xa0` and
# `\x1c` are white space to `\s` too), `!` before a link, and a plain character
_ALPHABET = '[a]()<!-->\n "\t\xa0\x1c!'
_TEXTS = st.text(alphabet=_ALPHABET, max_size=30)


def _blank_by_regex(text: str) -> str:
    return COMMENT_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


@settings(max_examples=3000, deadline=None)
@given(_TEXTS)
def test_comment_spans_are_the_pattern_s_matches(text: str) -> None:
    assert list(comment_spans(text)) == [m.span() for m in COMMENT_SPAN.finditer(text)]
    assert without_comments(text) == COMMENT_SPAN.sub("", text)
    assert blank_comments(text) == _blank_by_regex(text)


@settings(max_examples=3000, deadline=None)
@given(_TEXTS)
def test_links_are_the_pattern_s_matches(line: str) -> None:
    expected = [(m.start(), m.end(), m.group(1)) for m in ml518._LINK.finditer(line)]
    assert list(ml518._Links(line)) == expected


@pytest.mark.parametrize("text", [
    "[x](<>)", "[x](<)", "[x](  <a> )", '[x](a "t")', '[x](a "t" )', '[x](a "t"x)', '[x](a "t) b)',
    "![x](a)", "[x]\n(a)", "[[x](a)", "[x](a>b)", "[x](a\n)", "<!-->-->", "<!--->", "<!-- <!-- -->-->",
])
def test_the_edge_cases_agree(text: str) -> None:
    assert list(ml518._Links(text)) == [(m.start(), m.end(), m.group(1)) for m in ml518._LINK.finditer(text)]
    assert list(comment_spans(text)) == [m.span() for m in COMMENT_SPAN.finditer(text)]


class _Counted:
    """A pattern whose `search` adds up the characters each search read."""

    def __init__(self, pattern: Any, read: list[int]) -> None:
        self.pattern, self.read = pattern, read

    def search(self, text: str, at: int) -> re.Match[str] | None:
        match: re.Match[str] | None = self.pattern.search(text, at)
        self.read[0] += (match.start() + 1 if match else len(text)) - at
        return match


@pytest.mark.parametrize("line", [
    "[a](" * 25_000,  # no `)` anywhere: each target ran to the end
    "[a](" * 25_000 + ">x)",  # a `>` that closes nothing at the very end
    "[" * 50_000 + "]",  # labels that close at the end, with no `(` after
    '[a](b "' * 20_000,  # titles that close only in the next link, which they then swallow
    "[x](a)" * 10_000,  # links that match
], ids=["no-close", "late-angle", "labels", "titles", "links"])
def test_a_link_scan_reads_each_character_a_bounded_number_of_times(
        line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    read = [0]
    for name in ("_LABEL_END", "_TARGET_END", "_QUOTE", "_NOT_SPACE"):
        monkeypatch.setattr(ml518, name, _Counted(getattr(ml518, name), read))
    links = list(ml518._Links(line))
    assert read[0] <= 8 * (len(line) + 1)
    assert len(links) == line.count("[x](a)")


def _fan_out(root: Path, width: int) -> None:
    """CLAUDE.md includes b0..b{width-1}, each b includes every c, each c every d: every b but the
    first and every c but the first meet only files loaded already (width * width duplicates)."""
    root.mkdir(exist_ok=True)
    (root / "CLAUDE.md").write_text("".join(f"@b{i}.md\n" for i in range(width)), encoding="utf-8")
    for i in range(width):
        (root / f"b{i}.md").write_text("".join(f"@c{j}.md\n" for j in range(width)), encoding="utf-8")
        (root / f"c{i}.md").write_text("".join(f"@d{k}.md\n" for k in range(width)), encoding="utf-8")
        (root / f"d{i}.md").write_text(f"d{i}\n", encoding="utf-8")


def test_an_include_fan_out_lists_the_loaded_files_once_per_loading(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each duplicate include asks whether it closes a cycle: the loaded files are listed by path
    once per loading and each includer's chain is walked once, not once per include (W=200: 79,600
    lists of 600 files)."""
    width = 60
    _fan_out(tmp_path, width)
    listed: list[int] = []
    chains: list[Path] = []
    files_by_path, chain = include_problems.files_by_path, include_problems.chain

    def counted_files_by_path(loaded: Any) -> Any:
        listed.append(1)
        return files_by_path(loaded)

    def counted_chain(loaded: Any, path: Path, by_path: Any = None) -> Any:
        chains.append(path)
        return chain(loaded, path, by_path)

    monkeypatch.setattr(include_problems, "files_by_path", counted_files_by_path)
    monkeypatch.setattr(include_problems, "chain", counted_chain)
    report = api.check([tmp_path], load_config(tmp_path))
    assert {v.code for v in report.violations} <= {"ML202", "ML204"}
    assert len(listed) <= 2  # the loading of the start folder (and, at most, one more)
    assert len(chains) == len(set(chains)) <= 2 * width + 1  # once per includer


def test_includes_far_down_a_long_file_find_their_lines_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Missing includes after 100,000 blank lines: their lines are found in one pass over the file
    (each from the top: 100,000 lines read for each of the 200)."""
    (tmp_path / "CLAUDE.md").write_text("\n" * 100_000 + "".join(f"@f{i}.md\n" for i in range(200)),
                                        encoding="utf-8")
    found: list[int] = []

    class Counted(include_problems._LineStarts):
        def start(self, text: str, line_index: int) -> int | None:
            before = len(self.starts)
            try:
                return super().start(text, line_index)
            finally:
                found.append(len(self.starts) - before)

    monkeypatch.setattr(include_problems, "_LineStarts", Counted)
    report = api.check([tmp_path], load_config(tmp_path))
    assert [(v.code, v.line) for v in report.violations] == [("ML101", 100_001)]
    assert sum(found) <= 100_201  # every line start found once
    assert len(found) >= 200  # (the includes did ask)


# The trees below took 25 s to several minutes before; they take about a second now.


def _run(root: Path) -> str:
    run = memlint("check", root, "--no-home", "--no-cache")
    assert run.code in (0, 1), run.err[-2000:]
    return run.out


def test_repeated_link_openings(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("[a](" * 25_000, encoding="utf-8")
    assert "ML518" not in _run(tmp_path)


@pytest.mark.parametrize("text", ["<!--" * 50_000, "<!-- -->" + "<!--" * 50_000, "<!-- -->\n\n" + "<!--" * 50_000],
                         ids=["unclosed", "closed-then-unclosed", "comment-block-then-unclosed"])
def test_repeated_comment_openings(tmp_path: Path, text: str) -> None:
    (tmp_path / "CLAUDE.md").write_text(text, encoding="utf-8")
    assert "ML201" in _run(tmp_path)


def test_missing_includes_after_a_million_blank_lines(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("\n" * 1_000_000 + "".join(f"@f{i}.md\n" for i in range(300)),
                                        encoding="utf-8")
    out = _run(tmp_path)
    assert "ML101" in out and "300 in all" in out


def test_an_include_fan_out_of_width_250(tmp_path: Path) -> None:
    _fan_out(tmp_path, 250)
    out = _run(tmp_path)
    assert "ML204" in out and "ML10" not in out
