"""Invisible and deceptive characters: what they are, which ones are there for a reason (emoji
sequences, flags, right-to-left text, scripts that join with ZWJ/ZWNJ) and which Claude Code's
MEMORY.md sanitiser (C08) removes."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

from memlint.lazy_regex import compile_lazily
from memlint.records import dataclass
from memlint.rules.security._text import Lines

NAMES = {
    0x202A: "left-to-right embedding", 0x202B: "right-to-left embedding", 0x202C: "pop directional formatting",
    0x202D: "left-to-right override", 0x202E: "right-to-left override", 0x2066: "left-to-right isolate",
    0x2067: "right-to-left isolate", 0x2068: "first strong isolate", 0x2069: "pop directional isolate",
    0x200E: "left-to-right mark", 0x200F: "right-to-left mark", 0x061C: "Arabic letter mark",
    0x200B: "zero-width space", 0x200C: "zero-width non-joiner", 0x200D: "zero-width joiner",
    0x2060: "word joiner", 0xFEFF: "zero-width no-break space (BOM)",
}
BIDI = frozenset({*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C})
ZERO_WIDTH = frozenset({0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF})
MARKS = frozenset({0x200E, 0x200F, 0x061C})  # at home in right-to-left text
JOINERS = frozenset({0x200C, 0x200D})  # at home in emoji sequences and joining scripts
# C08: the 2.1.284+ sanitiser removes format characters from MEMORY.md but keeps ZWNJ and ZWJ.
KEPT_BY_SANITISER = JOINERS
TAGS = range(0xE0000, 0xE0080)
_RTL = compile_lazily(r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")
_NO_MARKS = {cp: None for cp in MARKS}
_BLACK_FLAG = "\U0001F3F4"


@dataclass(frozen=True)
class Hidden:
    """One invisible character, or one run of tag characters."""

    offset: int
    what: str  # "right-to-left override U+202E", or "tag characters spelling '...'"
    codepoints: tuple[int, ...]

    @property
    def sanitised(self) -> bool:
        """The MEMORY.md sanitiser (C08) removes it."""
        return not any(cp in KEPT_BY_SANITISER for cp in self.codepoints)


def _legit_neighbour(ch: str) -> bool:
    """A character next to which ZWJ/ZWNJ/ZWSP has a job: an emoji, a letter of a non-Latin script."""
    if not ch or ord(ch) < 0x250:
        return False
    category = unicodedata.category(ch)
    return category in ("So", "Sk", "Mn", "Mc") or category.startswith("L") or 0xFE00 <= ord(ch) <= 0xFE0F


def escape(text: str) -> str:
    """Printable ASCII as is, everything else as `\\uXXXX` / `\\xXX`."""
    return "".join(c if 0x20 <= ord(c) < 0x7F and c != "\\" else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def hidden_characters(text: str) -> Iterator[Hidden]:
    """Bidi controls, zero-width characters and tag-character runs that are not doing a legitimate job."""
    lines: Lines | None = None
    rtl: dict[int, bool] = {}

    def rtl_line(offset: int) -> bool:
        nonlocal lines
        lines = lines or Lines(text)
        start = lines.start(offset)
        if start not in rtl:
            rtl[start] = _RTL.search(text[start : lines.end(offset)].translate(_NO_MARKS)) is not None
        return rtl[start]

    if text.isascii() or not _may_hide(text):
        return
    for match in _CANDIDATE.finditer(text):
        i, run = match.start(), match.group(0)
        cp = ord(run[0])
        if cp in TAGS:
            if not _flag_sequence(text, i, run):
                spelled = "".join(chr(ord(c) - 0xE0000) for c in run if 0x20 <= ord(c) - 0xE0000 < 0x7F)
                yield Hidden(i, f"{len(run)} tag characters (U+E0000-E007F) spelling \"{escape(spelled)[:120]}\"",
                             tuple(ord(c) for c in run[:1000]))
            continue
        if cp == 0xFEFF and i == 0:  # the BOM
            i, run = 1, run[1:]
            if not run:
                continue
        kinds = sorted({ord(c) for c in run})
        if len(run) == 1:
            before, after = (text[i - 1] if i else ""), text[i + 1 : i + 2]
            if cp in JOINERS | {0x200B} and (_legit_neighbour(before) or _legit_neighbour(after)):
                continue
        if all(k in MARKS for k in kinds) and rtl_line(i):
            continue
        names = ", ".join(f"{NAMES[k]} U+{k:04X}" for k in kinds)
        what = names if len(run) == 1 else f"{len(run)} invisible characters in a row ({names})"
        yield Hidden(i, what, tuple(kinds))


_CANDIDATE = compile_lazily("[\U000e0000-\U000e007f]+|[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]+")
# `_CANDIDATE`'s characters outside the tag block, and the tag block: a substring test per character
# and one range search rule out a text (a common one, with a dash or an arrow) faster than
# `_CANDIDATE`'s own search, which stops at every character to look it up in its sets.
_SINGLES = tuple("\u061c\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060\u2066\u2067\u2068\u2069\ufeff")
_TAG = compile_lazily("[\U000e0000-\U000e007f]")


def _may_hide(text: str) -> bool:
    """Whether `_CANDIDATE` can find anything in `text`."""
    return any(ch in text for ch in _SINGLES) or _TAG.search(text) is not None


def _flag_sequence(text: str, start: int, run: str) -> bool:
    """An emoji subdivision flag: black flag, 2-6 tag letters or digits, cancel tag."""
    body = run[:-1]
    return (start > 0 and text[start - 1] == _BLACK_FLAG and run.endswith("\U000E007F")
            and 2 <= len(body) <= 6 and all(0xE0030 <= ord(c) <= 0xE0039 or 0xE0061 <= ord(c) <= 0xE007A for c in body))


# Letters of Cyrillic and Greek that look like Latin letters (and are used to spoof Latin words).
CONFUSABLE = frozenset(
    "АВЕКМНОРСТХЅІЈаеорсухѕіјһԁԛԝӏ"  # Cyrillic
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧοινρϲ"  # Greek
)
_WORD = compile_lazily(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_WORD_END = compile_lazily(r"(?:[^\W\d_]+['’])*[^\W\d_]*\Z")  # the start of the word ending at a position
_FOREIGN = compile_lazily("[\u0370-\u03ff\u0400-\u052f]")


@dataclass(frozen=True)
class MixedWord:
    """A word that mixes scripts: where it is, and its look-alike letters."""

    offset: int
    word: str
    foreign: tuple[str, ...]  # the look-alike letters, as `U+0430 CYRILLIC SMALL LETTER A`


def _script(ch: str) -> str:
    cp = ord(ch)
    if ch.isascii() or 0xC0 <= cp <= 0x24F:
        return "latin"
    if 0x400 <= cp <= 0x52F:
        return "cyrillic"
    if 0x370 <= cp <= 0x3FF:
        return "greek"
    return "other"


def mixed_words(text: str) -> Iterator[MixedWord]:
    """Words mixing Latin letters with Cyrillic or Greek look-alikes (`pаypal` with a Cyrillic а)."""
    if text.isascii():  # constant time: a str knows whether it is ASCII
        return
    end = 0
    for hit in _FOREIGN.finditer(text):
        if hit.start() < end:
            continue  # in the word just looked at
        left = _WORD_END.search(text, max(0, hit.start() - 100), hit.start())
        match = _WORD.match(text, left.start() if left else hit.start())
        if match is None:
            continue
        end = match.end()
        word = match.group(0)
        scripts = {_script(c) for c in word if c.isalpha()}
        if "latin" not in scripts or not scripts & {"cyrillic", "greek"} or "other" in scripts:
            continue
        latin = [c for c in word if _script(c) == "latin"]
        foreign = [c for c in word if _script(c) in ("cyrillic", "greek")]
        # the minority script must be made only of look-alikes: `pаypal` (Cyrillic а in Latin) or
        # `Cлово` (Latin C in Cyrillic); `μs`, `Δt` or `αβ-test` are not deceptive
        minority = foreign if len(foreign) <= len(latin) else latin
        if minority is foreign and not all(c in CONFUSABLE for c in foreign):
            continue
        if minority is latin and not all(c in _LATIN_LOOKALIKE for c in latin):
            continue
        shown = tuple(f"U+{ord(c):04X} {unicodedata.name(c, '?')}" for c in dict.fromkeys(minority))
        yield MixedWord(match.start(), word, shown)


_LATIN_LOOKALIKE = frozenset("ABCEHIJKMOPSTXYaceijopsxy")
