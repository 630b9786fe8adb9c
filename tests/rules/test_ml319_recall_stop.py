"""ML319's line count and recall stop, worked out without splitting an ASCII text, equal the
line-by-line byte count they replace."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memlint.model.text.document import line_count_of as _line_count
from memlint.rules.automem.ml319_topic_over_recall_cap import RECALL_BYTES, RECALL_LINES, _recall_stop


def _by_lines(text: str) -> tuple[int, int]:
    """The rule's former reading: split the lines, then add up each line's bytes and line break."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    stop = min(len(lines), RECALL_LINES)
    size = 0
    for number, line in enumerate(lines[:stop], 1):
        size += len(line.encode("utf-8")) + 1
        if size > RECALL_BYTES:
            stop = number - 1
            break
    return len(lines), stop


_line = st.one_of(st.just(""), st.integers(0, 5000).map(lambda n: "a" * n), st.text(max_size=30))
_text = st.builds(lambda lines, end: "\n".join(lines) + end, st.lists(_line, max_size=260), st.sampled_from(["", "\n"]))


@settings(max_examples=600, deadline=None)
@given(_text)
def test_recall_stop_matches_the_line_by_line_count(text: str) -> None:
    count = _line_count(text)
    assert (count, _recall_stop(text, count)) == _by_lines(text)


def test_edges() -> None:
    for text in ("", "\n", "a", "a\n", "a" * 4095, "a" * 4096, "a" * 4097, "a" * 4095 + "\n", "a" * 4096 + "\n",
                 "\n" * 300, "x\n" * 2047 + "y", "x\n" * 2048 + "y", "é" * 3000 + "\n" + "a"):
        count = _line_count(text)
        assert (count, _recall_stop(text, count)) == _by_lines(text), text[:20]
