"""ML202 counts tokens only until it knows a start folder is within budget: the bytes not counted
yet bound their tokens (a cl100k token is at least one byte), and a file is counted a part at a
time, cut where the counts of the parts add up (`tokens.seam`)."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from memlint.model.text import tokens
from memlint.rules.size.ml202_context_over_budget import _STEP, _Progress, _within


def _file(name: str, text: str) -> SimpleNamespace:
    return SimpleNamespace(path=name, truncation=None, content=text)


def _lines(words: int, per_line: int = 8) -> str:
    """`words` words of four letters, `per_line` to a line: 5 bytes a word, one token a word (below)."""
    line = " ".join(["word"] * per_line) + "\n"
    return line * (words // per_line)


class _Words:
    """A stand-in tokenizer that counts words (at most one per byte) and keeps what it was given."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def __call__(self, text: str) -> int:
        self.parts.append(text)
        return len(text.split())


def _ask(budget: int, *files: SimpleNamespace) -> tuple[bool, _Words, _Progress]:
    count = _Words()
    progress = _Progress("cl100k", count)
    return _within(budget, list(files), progress), count, progress  # type: ignore[arg-type]


def test_within_budget_in_bytes_counts_nothing() -> None:
    within, count, _ = _ask(10_000, _file("a", _lines(800)), _file("b", _lines(800)))  # 8,000 bytes
    assert within and count.parts == []


def test_a_file_is_counted_only_as_far_as_the_budget_question_needs() -> None:
    big = _file("big", _lines(16_000))  # 80,000 bytes, 16,000 words
    within, count, progress = _ask(70_000, big)
    counted = sum(map(len, count.parts))
    assert within and _STEP <= counted < 20_000  # 10,000 bytes to save: about an eighth of the file
    assert progress.bound(big) <= 70_000
    assert progress.tokens(big) == 16_000  # counted on to the end when the total is asked for
    assert "".join(count.parts) == big.content  # each part once, in order, nothing twice


def test_over_budget_counts_every_file_to_the_end() -> None:
    files = [_file("a", _lines(4000)), _file("b", _lines(4000).replace("word", "wort"))]
    within, count, progress = _ask(7999, *files)
    assert not within and sum(progress.tokens(f) for f in files) == 8000
    assert "".join(count.parts) == files[0].content + files[1].content


def test_two_copies_of_a_text_are_counted_once() -> None:
    within, count, _ = _ask(0, _file("a", _lines(800)), _file("b", _lines(800)))
    assert not within and "".join(count.parts) == _lines(800)


def test_a_text_counted_for_one_folder_is_not_counted_again_for_the_next() -> None:
    shared = _file("shared", _lines(8000))
    count = _Words()
    progress = _Progress("cl100k", count)
    assert _within(30_000, [shared], progress)  # type: ignore[list-item]
    before = len(count.parts)
    assert _within(30_000, [shared, _file("small", "a b\n")], progress)  # type: ignore[list-item]
    assert len(count.parts) == before  # the shared file's bound is within already


def test_chars4_counts_a_file_whole_its_rounding_does_not_add_up() -> None:
    count = _Words()
    progress = _Progress("chars4", count)
    text = _lines(16_000)
    assert _within(70_000, [_file("big", text)], progress)  # type: ignore[list-item]
    assert count.parts == [text]


_PIECES = st.sampled_from(["word", " ", "  ", "\n", "\n\n", "\r\n", "\t", ".", "!\n", "é", "日本", "42", "'s", "\u00a0",
                           "\u3000", "x" * 30, "#", " \n", "\x1c"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECES, max_size=80).map("".join), st.lists(st.integers(0, 400), max_size=6))
def test_cl100k_counts_of_parts_cut_at_seams_add_up_to_the_whole(text: str, cuts: list[int]) -> None:
    count = tokens.counter("cl100k")
    ends = sorted({tokens.seam("cl100k", text, at) for at in cuts} | {len(text)})
    parts, start = [], 0
    for end in ends:
        parts.append(text[start:end])
        start = end
    assert "".join(parts) == text
    assert sum(count(part) for part in parts) == count(text)
