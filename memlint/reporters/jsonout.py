"""`json.dumps(value, ensure_ascii=False, indent=N)`, byte for byte, without the pure-Python encoder
that `indent` selects (a report of 100,000 violations took 1.5 s to write that way): a dict or list
of scalars (one violation) is written by the C encoder with the line break and indent of its depth
as item separator; only the nesting above is walked here."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

_SCALARS = frozenset({str, int, float, bool, type(None)})
_PLAIN = frozenset({int, float, bool, type(None)})  # scalars whose JSON no setting changes


def dumps(value: Any, indent: int = 1, depth: int = 0) -> str:
    """`value` as `json.dumps` writes it, or as it stands inside containers `depth` deep."""
    parts: list[str] = []
    _encode(value, parts, "\n" + " " * (indent * depth), " " * indent)
    return "".join(parts)


@lru_cache(maxsize=64)
def _flat_encoder(inner: str) -> Callable[[Any], str]:
    """Writes a dict or list of scalars with `,` + `inner` between items: the C encoder (no indent),
    made once per depth (`JSONEncoder.encode` makes one per call)."""
    if c_make_encoder is None:  # no C speedups: json's own encoder
        return json.JSONEncoder(ensure_ascii=False, separators=("," + inner, ": ")).encode
    chunks = c_make_encoder(
        {}, None, encode_basestring, None, ": ", "," + inner, False, False, True
    )
    return lambda value: "".join(chunks(value, 0))


class Encoded(str):
    """JSON text already written for the place it stands in (its depth's line breaks and indent)."""


def _encode(value: Any, out: list[str], newline: str, step: str) -> None:
    """Append `value` encoded at the nesting whose line break (with its indent) is `newline`."""
    kind = type(value)
    if kind is Encoded:
        out.append(value)
        return
    if kind is list or kind is tuple or kind is dict:
        if not value:
            out.append("{}" if kind is dict else "[]")
            return
        inner = newline + step
        items = value.values() if kind is dict else value
        if _SCALARS.issuperset(map(type, items)) and (kind is not dict or {str} == set(map(type, value))):
            text = _flat_encoder(inner)(value)
            out.append(text[0] + inner + text[1:-1] + newline + text[-1])
            return
        if kind is dict and {str} != set(map(type, value)):  # keys json converts: let it
            out.append(json.dumps(value, ensure_ascii=False, indent=len(step)).replace("\n", newline))
            return
        sep = ("{" if kind is dict else "[") + inner
        if kind is dict:
            for key, item in value.items():
                out.append(sep + _flat_encoder(inner)(key) + ": ")
                _encode(item, out, inner, step)
                sep = "," + inner
        else:
            for item in value:
                out.append(sep)
                _encode(item, out, inner, step)
                sep = "," + inner
        out.append(newline + ("}" if kind is dict else "]"))
        return
    if kind is str:
        out.append(encode_basestring(value))
        return
    if kind in _PLAIN:  # no indent to give: json's C encoder, not its Python one (whose nested
        out.append(json.dumps(value))  # functions leave a garbage cycle per call: 80 MiB of SARIF)
        return
    # anything json converts itself (subclasses): as json writes it at this depth
    out.append(json.dumps(value, ensure_ascii=False, indent=len(step)).replace("\n", newline))
