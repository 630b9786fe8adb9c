"""Between memlint's places (1-based lines, code-point columns, character offsets in a file's
text) and the protocol's (0-based lines, columns in the position encoding agreed at initialize:
UTF-16 code units unless the client offered UTF-8 or UTF-32)."""

from __future__ import annotations

from bisect import bisect_right

from lsprotocol import types

from memlint.lazy_regex import compile_lazily

_LINE_END = compile_lazily(r"\r\n|\r|\n")


_ENCODING = ["utf-16"]  # the position encoding agreed with the client (one client per process)


def use_encoding(name: str) -> None:
    _ENCODING[0] = name if name in ("utf-8", "utf-16", "utf-32") else "utf-16"


def _width(ch: str) -> int:
    encoding = _ENCODING[0]
    if encoding == "utf-32":
        return 1
    if encoding == "utf-8":
        return len(ch.encode("utf-8", "surrogatepass"))
    return 2 if ord(ch) > 0xFFFF else 1


def _units(text: str) -> int:
    """The length of `text` in the agreed encoding's units."""
    if text.isascii():
        return len(text)
    return sum(map(_width, text))


class Lines:
    """One text's lines. `skip_bom`: the text starts with a BOM the editor does not show (a file
    read from disk): offsets past it are shifted so that positions count from after it."""

    def __init__(self, text: str, skip_bom: bool = False) -> None:
        self.bom = 1 if skip_bom and text.startswith("\ufeff") else 0
        self.text = text
        self.starts = [0] + [m.end() for m in _LINE_END.finditer(text)]

    def line_text(self, line: int) -> str:
        """The text of 0-based `line` without its line break ('' past the end)."""
        if not 0 <= line < len(self.starts):
            return ""
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[line] : end].rstrip("\r\n")

    def position(self, offset: int) -> types.Position:
        """The protocol position of a character offset in the text."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        start = self.starts[line] + (self.bom if line == 0 else 0)
        return types.Position(line, _units(self.text[start:offset]) if offset > start else 0)

    def offset(self, position: types.Position) -> int:
        """The character offset of a protocol position (clamped to its line)."""
        if position.line >= len(self.starts):
            return len(self.text)
        start = self.starts[position.line] + (self.bom if position.line == 0 else 0)
        units, index, text = 0, start, self.line_text(position.line)
        end = self.starts[position.line] + len(text)
        while index < end and units < position.character:
            units += _width(self.text[index])
            index += 1
        return index

    def at(self, line: int, column: int) -> types.Position:
        """The protocol position of memlint's 1-based line and 1-based code-point column."""
        line = max(line - 1, 0)
        if line >= len(self.starts):
            return types.Position(len(self.starts) - 1, _units(self.line_text(len(self.starts) - 1)))
        text = self.line_text(line)
        skip = self.bom if line == 0 else 0
        return types.Position(line, _units(text[skip : max(column - 1, skip)]))

    def column(self, position: types.Position) -> int:
        """memlint's 1-based code-point column of a protocol position."""
        return self.offset(position) - self.starts[min(position.line, len(self.starts) - 1)] + 1

    def span(self, line: int, column: int, end_line: int, end_column: int) -> types.Range:
        """A finding's range; a finding at one point covers the rest of its line (or nothing on
        an empty line), so that an editor can show it."""
        start = self.at(line, column)
        if (end_line, end_column) <= (line, column):
            end = types.Position(start.line, _units(self.line_text(start.line)))
            if end.character <= start.character:  # at the end of its line: the whole line
                start = types.Position(start.line, 0)
            return types.Range(start, end)
        return types.Range(start, self.at(end_line, end_column))
