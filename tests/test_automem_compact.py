"""MEMORY.md's index keeps offsets, not copies (`_index.Lines`): every line, entry and block it
gives reads the same text as the long way (each line cut with a regular expression and stored)."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlint.model.document import Document
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
