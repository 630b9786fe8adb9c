"""The shortcuts that make the hostile trees fast (benchmarks/bench_hostile.py) give the same
answers as the long way (hypothesis properties)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlint.model.loading.workspace import Workspace
from memlint.model.run.rule_context import RuleContext
from memlint.reporters.jsonout import dumps
from memlint.rules.automem import _common
from memlint.rules.automem._index import _parse

# Pieces of MEMORY.md lines: entry forms the fast path takes and the near misses it must leave to
# the long way (brackets, escapes, code spans, wiki links, URLs, anchors, %-escapes, odd separators).
LINE_PIECES = [
    "- ", "* ", "+ ", "1. ", "  ", "\t", "[", "]", "(", ")", "[T](t.md)", "[A b](dir/a.md)", "[](x.md)",
    "[T](t.md#x)", "[T](%41.md)", "[T](//h/x.md)", "[T](http://x.md)", "[T](<t.md>)", "[[w]]", "[T] (t.md)",
    " \u2014 ", " \u2013 ", " - ", " -- ", ": ", " :", "hook", " ", "`", "`c`", "\\", "*", "_", "#", "> ",
    "\u00a0", "\r", "|", "**b**", ".md", "x", "```", "<!--", "-->", "---",
]
ENTRIES = st.builds(
    "{}[{}]({}){}{}".format,
    st.sampled_from(["- ", "* ", "+\t", "-  ", " - ", "1. ", "-"]),
    st.sampled_from(["T", "A b", "", " t ", "a_b", "**b**", "a|b", "x\u00a0y", "[n]", "a\\]", "`c`", "(p)"]),
    st.sampled_from(["t.md", "d/t.md", "../t.md", "./t.md", ".md", "t.MD", "//h/t.md", "t.md#x", "a%20b.md", "t"]),
    st.sampled_from([" \u2014 ", " \u2013 ", " - ", " -- ", ": ", " --- ", " ", "\t-\t", " \u2014"]),
    st.sampled_from(["hook", "h ", "", " x", "see [y](y.md)", "`c`", "[[w]]", "\u00a0h", "a\rb", "h\u3000"]),
)
LINES = st.one_of(ENTRIES, ENTRIES, st.lists(st.sampled_from(LINE_PIECES), max_size=8).map("".join))
TEXTS = st.lists(LINES, max_size=12).map("\n".join)


@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(TEXTS, st.sampled_from(["", "---\nname: x\n---\n", "# Memory\n\n"]), st.integers(0, 4))
def test_simple_entry_lines_parse_as_the_long_way(body: str, head: str, intro_lines: int) -> None:
    text = head + body
    assert _parse(text, intro_lines) == _parse(text, intro_lines, fast=False)


def test_the_fast_path_takes_plain_entries() -> None:
    from memlint.rules.automem._index import _SIMPLE_ENTRY

    assert _SIMPLE_ENTRY.fullmatch("- [N1](n1.md) \u2014 f1")
    for line in ("- [N1](n1.md) \u2014 see [x](y.md)", "- [`c`](c.md) \u2014 x", "- [a](http://a.md) - x"):
        assert not _SIMPLE_ENTRY.fullmatch(line)


JSON_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=8),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.text(max_size=4), inner, max_size=4),
        st.dictionaries(st.integers(), inner, max_size=2),
    ),
    max_leaves=20,
)


@settings(max_examples=1500, deadline=None)
@given(JSON_VALUES, st.integers(0, 3))
def test_dumps_writes_what_json_dumps_writes(value: Any, indent: int) -> None:
    assert dumps(value, indent) == json.dumps(value, ensure_ascii=False, indent=indent)


TARGETS = st.lists(st.sampled_from(["a", "b.md", ".", "..", "", "/", "//", "c", "x.md", "..md"]), min_size=1, max_size=5).map(
    "/".join
)


@settings(max_examples=1000, deadline=None)
@given(st.sampled_from(["/", "//", "/m", "/m/memory", "/m/a b", "/m/./x", "/m//y"]), TARGETS)
def test_joining_as_strings_normalises_as_pathlib_does(folder: str, target: str) -> None:
    from memlint.rules.automem.ml309_duplicate_index_entry import same_file_key

    assert os.path.normpath(os.path.join(folder, target)) == os.path.normpath(Path(folder) / target)
    prefix = os.path.join(os.path.normpath(folder), "")
    assert same_file_key(prefix, folder, target) == os.path.normpath(Path(folder) / target)


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("memory")
    for name in ("a.md", "B.md", "c-d.md", ".hidden.md", "caf\u00e9.md"):
        (folder / name).write_text("x\n", encoding="utf-8")
    (folder / "dir.md").mkdir()
    (folder / "sub").mkdir()
    (folder / "sub" / "e.md").write_text("x\n", encoding="utf-8")
    (folder / "link.md").symlink_to(folder / "missing-target.md")
    return folder


NAMES = st.sampled_from([
    "a.md", "A.md", "b.md", "B.md", "c-d.md", "C-D.md", ".hidden.md", "caf\u00e9.md", "cafe\u0301.md", "dir.md",
    "sub/e.md", "sub/f.md", "../a.md", "sub/../a.md", "link.md", "new.md", "n1.md", "n2.md", "x" * 300 + ".md",
    "made.md", ".", "..",
])


def _context() -> RuleContext:
    return RuleContext(None, Workspace(), (), (), {}, None)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(NAMES, min_size=1, max_size=8), st.booleans())
def test_exists_answers_as_reading_the_file(memory: Path, names: list[str], created: bool) -> None:
    fast, slow = _context(), _context()
    for ctx in (fast, slow):
        if created:
            ctx.workspace.put(memory / "made.md", "x\n")
    for name in names:
        path = memory / name
        as_str = os.path.join(str(memory), name)
        assert _common.exists(fast, path if "/" in name else as_str) == _common._read_exists(slow, path), name


def _items_one_per_line(lines: tuple[Any, ...], start: int, stop: int) -> list[Any]:
    """`_split_units.items` as written before staying lines were grouped: one item per entry line."""
    from memlint.rules.automem._split_units import _BULLET, _ITEM_BREAK_FIRST, Item, _indent

    out: list[Item] = []
    i = start
    while i < stop:
        line = lines[i]
        kind = line.kind
        if kind == "blank":
            i += 1
            continue
        first = i
        i += 1
        if kind == "code" or kind == "comment":
            while i < stop and lines[i].kind == kind:
                i += 1
            out.append(Item(first, i - 1, kind == "comment", False))
            continue
        if kind != "detail":
            out.append(Item(first, first, True, False))
            continue
        after = first > 0 and lines[first - 1].kind == "entry"
        content = line.content
        table = content.lstrip().startswith("|")
        base = _indent(content)
        while i < stop:
            following = lines[i]
            if following.kind != "detail":
                break
            nxt = following.content
            lead = nxt.lstrip()
            if table != lead.startswith("|"):
                break
            if (not table and lead[:1] in _ITEM_BREAK_FIRST and _indent(nxt) <= base
                    and (lead[0] == ">" or _BULLET.match(lead))):
                break
            i += 1
        out.append(Item(first, i - 1, False, after))
    return out


INDEX_LINES = st.sampled_from([
    "", "", "# Memory", "## Deploy", "### Notes", "## Rules", "- [Deploy](deploy.md) \u2014 blue/green",
    "- [Old](old.md) \u2014 gone", "* [X](x.md): y", "---", "Some detail about the build.", "More words here.",
    "NEVER push to main.", "Use tabs.", "- a list item", "  continued", "1. step", "| a | b |", "|---|---|",
    "> quoted", "```", "code()", "<!-- note -->", "See [deploy](deploy.md) for more.", "emoji \U0001f600 wide",
    "caf\u00e9 \u2014 long " + "x" * 190,
])


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(INDEX_LINES, min_size=120, max_size=260).map("\n".join), st.integers(0, 3))
def test_grouped_staying_lines_split_as_one_item_per_line(text: str, intro_lines: int) -> None:
    from unittest import mock

    from memlint.rules.automem import _split_units
    from memlint.rules.automem.split import SplitError, plan_split

    folder = Path("/m/memory")

    def existing(path: Path) -> str | None:
        return "x\n" if path.name == "deploy.md" else None

    def plan() -> object:
        try:
            return plan_split(text, folder, existing, ["deploy.md"], "project", intro_lines)
        except SplitError as exc:
            return ("error", str(exc))

    grouped = plan()
    with mock.patch.object(_split_units, "items", _items_one_per_line):
        assert plan() == grouped


SUSPECT_PIECES = [
    "@a.md", "@b.md", "@a", " ", "\n", "\n\n", "(", "[", "\"", "'", "`", "\u201c", "x", "@", "\\", "#", "@#x",
    "@\u65e5\u672c.md", "@\"a.md\"", "@'b.md'", "`@a.md`", "<!-- @b.md -->", "```\n", "- ", "> ", "\t", "@@a.md",
    "@a.md#h", "@b.md.", "*", "<b>", "@~/a.md", "@/a.md",
]


@pytest.fixture(scope="module")
def suspect_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("suspects")
    for name in ("a.md", "b.md", "a", "@a.md", "\u65e5\u672c.md"):
        (path / name).write_text("x\n", encoding="utf-8")
    return path


@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=st.lists(st.sampled_from(SUSPECT_PIECES), max_size=30).map("".join))
def test_lines_of_plain_includes_skipped_give_the_same_suspects(suspect_folder: Path, body: str) -> None:
    import re
    from unittest import mock

    from memlint.model.text.document import Document
    from memlint.rules.includes import _suspects

    fast = _suspects.suspects(Document.from_text(suspect_folder / "CLAUDE.md", body), None)
    with mock.patch.object(_suspects, "_GLUED", re.compile("")):  # every line the long way
        assert _suspects.suspects(Document.from_text(suspect_folder / "CLAUDE.md", body), None) == fast


INCLUDE_PIECES = [
    "@a.md", "@b.md", "@a.md#x", "@#x", "@", "@\\ b.md", "@a\\ b.md", "@\u65e5.md", "@#", "@(x)", "@a.md", " ", " ",
    "\n", "\n\n", "x", "`@a.md`", "- ", "<!-- @c.md -->", "@//n", "@~/d.md", "\t",
]


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(INCLUDE_PIECES), max_size=40).map("".join), st.sampled_from([None, 0, 1, 2, 3]))
def test_mentions_settled_once_scan_as_every_mention(body: str, limit: int | None) -> None:
    from unittest import mock

    from memlint.model.text import markdown

    fast = markdown.scan_body(body, 0, max_includes=limit)
    with mock.patch.object(markdown, "_SETTLE_REPEATS", False):
        assert markdown.scan_body(body, 0, max_includes=limit) == fast


def _violations() -> st.SearchStrategy[list[Any]]:
    from memlint.violations import Applicability, Edit, Fix, Violation

    texts = st.text(alphabet=st.sampled_from("ab \u2014\n\t\"\\\x1b\udcff\u00e9/"), max_size=6)
    fixes = st.sampled_from([
        None, None,
        Fix("t", Applicability.UNSAFE, (Edit(Path("/m/a.md"), 0, 1, "x"),)),
        Fix("u\"", Applicability.SAFE, (Edit(Path("/m/b.md"), 0, 0, "y\n", create=True),)),
    ])
    return st.lists(st.builds(
        Violation, st.sampled_from([Path("/m/a.md"), Path("/m/\udcffb.md"), Path("rel/c.md")]), st.integers(0, 9),
        st.integers(0, 9), st.sampled_from(["ML307", "ML1"]), texts, st.sampled_from(["error", "warning"]), texts,
        st.integers(0, 9), st.integers(0, 9), fixes,
    ), max_size=6)


@settings(max_examples=500, deadline=None)
@given(_violations(), st.integers(0, 3))
def test_render_json_writes_what_json_dumps_writes(violations: list[Any], files: int) -> None:
    from memlint.engine import Report
    from memlint.reporters.check import as_json, render

    report = Report(tuple(violations), files, (Path("/m"),))
    assert render(report, "json", False) == json.dumps(as_json(report), ensure_ascii=False, indent=1)
