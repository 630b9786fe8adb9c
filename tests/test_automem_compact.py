"""MEMORY.md's index keeps offsets, not copies (`_index.Lines`): every line, entry and block it
gives reads the same text as the long way (each line cut with a regular expression and stored)."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlint.model.memory.automem import cut_index, truncate_index
from memlint.model.release import Release, pick
from memlint.model.text.document import Document
from memlint.rules.automem._index import _parse

PIECES = ["- [T](t.md) \u2014 hook", "# H", "## Sub", "text", "  indented", "```", "~~~", "<!--", "-->", "|a|b|",
          "---", "", " ", "\t", "\r", "\ufeff", "x\r", "- [A](a.md): h", "\u00e9\U0001f600", "> quote"]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=14).map("\n".join)
_LINE = re.compile(r"[^\n]*\n|[^\n]+")


def _long_way(text: str) -> list[tuple[int, int, int, str, str]]:
    doc = Document.from_text(Path("MEMORY.md"), text)
    body_start = len(text) - len(doc.body)
    first = doc.body_line_offset + 1
    return [(first + n, m.start() + body_start, m.end() + body_start, m.group(0),
             m.group(0).rstrip("\n").removesuffix("\r")) for n, m in enumerate(_LINE.finditer(doc.body))]


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(TEXTS, st.sampled_from(["", "---\nname: x\n---\n", "---\r\nname: x\r\n---\r\n", "\ufeff# Memory\n\n"]),
       st.sampled_from(["", "\n", "\r\n", "\r"]))
def test_lines_read_what_the_long_way_stores(body: str, head: str, tail: str) -> None:
    text = head + body + tail
    index = _parse(text, 3)
    lines = index.lines
    want = _long_way(text)
    assert [(ln.number, ln.start, ln.end, ln.raw, ln.content) for ln in lines] == want
    assert [(lines.start(i), lines.end(i), lines.raw(i), lines.content(i), lines.kind(i)) for i in range(len(lines))] \
        == [(w[1], w[2], w[3], w[4], ln.kind) for w, ln in zip(want, lines)]
    assert list(lines[1:-1]) == list(lines)[1:-1]
    for entry in index.entries:
        assert entry.line == lines[entry.number - lines.first]
        assert entry.line.kind == "entry"
    for block in index.blocks:
        assert index.block_text(block) == "".join(w[3] for w in want[block.first : block.last + 1])
        assert list(index.block_lines(block)) == [w[0] for w in want[block.first : block.last + 1]]


def _eager_cut(text: str, release: Release) -> dict[str, object]:
    """The cut as it was when each text was stored (memlint 0.x `truncate_index`, verbatim)."""
    from memlint.model.cli_js.jstext import js_trim, utf16_last_newline, utf16_len
    from memlint.model.memory.automem import (
        MAX_LINES,
        MAX_UNITS,
        _detail,
        _js_slice,
        _no_lone_surrogates,
        format_size,
    )
    from memlint.model.memory.sanitise import sanitise

    trimmed = js_trim(text)
    lines = trimmed.split("\n")
    count = len(lines)
    size = utf16_len(trimmed)
    over_lines = count > MAX_LINES
    over_size = size > MAX_UNITS
    if not over_lines and not over_size:
        content = sanitise(trimmed) if release.memory_sanitised else trimmed
        return {"content": content, "kept": trimmed, "warning": None, "line_count": count, "size": size,
                "kept_lines": count}
    kept = "\n".join(lines[:MAX_LINES]) if over_lines else trimmed
    if utf16_len(kept) > MAX_UNITS:
        cut = utf16_last_newline(kept, MAX_UNITS)
        kept = _js_slice(kept, cut if cut > 0 else MAX_UNITS)
    if over_size and not over_lines:
        what = f"{format_size(size)} (limit: {format_size(MAX_UNITS)}) \u2014 index entries are too long"
    elif over_lines and not over_size:
        what = f"{count} lines (limit: {MAX_LINES})"
    else:
        what = f"{count} lines and {format_size(size)}"
    loaded = f"Only part of it was loaded: {_detail(trimmed, kept, lines)}." if release.memory_notice_detail \
        else "Only part of it was loaded."
    warning = (f"> WARNING: MEMORY.md is {what}. {loaded} Keep index entries to one line "
               "under ~200 chars; move detail into topic files.")
    content = kept + "\n\n" + warning
    if release.memory_sanitised:
        content, warning = sanitise(content), sanitise(warning)
    else:
        content, warning = _no_lone_surrogates(content), _no_lone_surrogates(warning)
    return {"content": content, "kept": kept, "warning": warning, "line_count": count, "size": size,
            "kept_lines": kept.count("\n") + 1 if kept else 0}


CUT_PIECES = ["- [T](t.md) \u2014 hook\n", "\n", " ", "\u3000", "\U0001f600", "\ud83d", "<b>", "\u200b", "x" * 300,
              "\U0001f600" * 200, "\r\n", "\t"]
CUT_TEXTS = st.lists(st.tuples(st.sampled_from(CUT_PIECES), st.integers(1, 120)), max_size=8).map(
    lambda parts: "".join(piece * n for piece, n in parts))


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(CUT_TEXTS, st.sampled_from(["2.1.199", "2.1.268", "2.1.283", "2.1.284"]), st.sampled_from(["", "\n", " \n"]))
def test_the_cut_reads_what_it_stored(body: str, version: str, pad: str) -> None:
    release = pick(version)
    text = pad + body + pad
    cut = cut_index(text, release)
    assert {"content": cut.content, "kept": cut.kept, "warning": cut.warning, "line_count": cut.line_count,
            "size": cut.size, "kept_lines": cut.kept_lines} == _eager_cut(text, release)
    assert cut == truncate_index(text, release)


def test_a_cut_through_a_pair_keeps_the_lone_half() -> None:
    text = "x" + "\U0001f600" * 13_000  # one line: the cut at 25,000 units falls inside a pair
    cut = cut_index(text, pick("2.1.283"))
    assert cut.cut_kept is not None and cut.kept.endswith("\ud83d")
    assert cut.kept == _eager_cut(text, pick("2.1.283"))["kept"]
