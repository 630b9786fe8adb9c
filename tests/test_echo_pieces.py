"""A report echoed in pieces prints what one `click.echo` of it prints, colour codes stripped or kept."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from memlint import conventions

_LINE = st.lists(st.sampled_from(["a", "é", "\x1b[1m", "\x1b[0m", " ", "\t", "\U0001f600", "\r"]), max_size=12).map("".join)


def _printed(echo: object, text: str, colour: bool | None) -> bytes:
    @click.command()
    def show() -> None:
        echo(text, colour)  # type: ignore[operator]

    return CliRunner().invoke(show, [], color=bool(colour)).stdout_bytes


@settings(max_examples=60, deadline=None)
@given(st.lists(_LINE, max_size=40).map("\n".join), st.sampled_from([None, False, True]), st.integers(1, 30))
def test_pieces_print_what_one_echo_prints(text: str, colour: bool | None, piece: int) -> None:
    saved = conventions.PIECE
    conventions.PIECE = piece
    try:
        pieces = _printed(conventions.echo_in_pieces, text, colour)
    finally:
        conventions.PIECE = saved
    assert pieces == _printed(lambda t, c: click.echo(t, color=c), text, colour)


@pytest.mark.parametrize("colour", [False, True])
def test_a_report_over_a_piece_is_written_in_pieces(monkeypatch: pytest.MonkeyPatch, colour: bool) -> None:
    written: list[str] = []
    monkeypatch.setattr(click, "echo", lambda message, nl=True, color=None: written.append(message + "\n" * nl))
    text = "\n".join(f"\x1b[1mline {i}\x1b[0m" for i in range(1000))
    monkeypatch.setattr(conventions, "PIECE", 100)
    conventions.echo_in_pieces(text, colour)
    assert len(written) > 50 and "".join(written) == text + "\n"
    assert all(len(piece) < 200 and piece.endswith("\n") for piece in written)


@settings(max_examples=80, deadline=None)
@given(st.lists(_LINE.map(lambda s: s.replace("\r", "")), max_size=30), st.sampled_from(["never", "always"]),
       st.integers(1, 30))
def test_lines_print_what_one_emit_of_their_text_prints(lines: list[str], color: str, piece: int) -> None:
    """`emit_lines` (the text report, a megabyte of lines at a time) prints the bytes `emit` of the
    joined text prints: nothing for no text, one line break at the end, colour codes as asked."""
    opts = conventions.Conventions(color=color)
    saved = conventions.PIECE
    conventions.PIECE = piece
    try:
        by_lines = _printed(lambda t, c: opts.emit_lines(iter(lines)), "", None)
    finally:
        conventions.PIECE = saved
    assert by_lines == _printed(lambda t, c: opts.emit("\n".join(lines)), "", None)
