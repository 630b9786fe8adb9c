"""What the server does with messages it cannot take: one line on stderr each, never a traceback,
and it goes on serving.

pygls reads stdin itself (`pygls.io_.run_async`: header lines with `readline()`, then
`read(Content-Length)` bytes, then `json.loads` and the protocol). Three narrow pieces sit around it:

- `BoundedInput` wraps stdin: a header line is read up to 64 KiB at a time, and a body by pieces as
  it arrives, so a `Content-Length` allocates nothing ahead. A `Content-Length` over
  `MAX_MESSAGE_BYTES` is refused and the server stops (exit 2): after it the stream holds no
  message boundary to go on from (skipping the bytes it announces would swallow every later
  message, and guessing where the next one starts would read message text as headers); an editor
  sees the server gone and can start it again.
- `Protocol.structure_message`: a request whose params do not fit its method gets its error
  response (pygls would log it and leave the client waiting for an answer forever).
- `unreadable`: a body that is not JSON, or not a JSON-RPC message (`[]`), is answered as JSON-RPC
  says (Parse error / Invalid Request, `"id": null`), not with an "Error in server" dialog.
- `OneLine`: every log record as one line on stderr, the exception's type and first line appended.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import IO, Any

from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol

from memlint.escape import for_terminal

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 1 << 30  # 1 GiB: far over any document an editor sends (memlint reads files up to 4 MiB)
HEADER_LINE_BYTES = 1 << 16  # a header line is read in pieces of this size at most
_PIECE = 1 << 20  # a body is read in pieces as it arrives
_LINE = 500  # characters of a log line
_JSON_KIND = {dict: 'object without "jsonrpc"', list: "array", str: "string", int: "number", float: "number", bool: "boolean", type(None): "null"}


class BoundedInput:
    """stdin as pygls reads it (`readline`, `read`), with no allocation ahead of the data."""

    def __init__(self, stream: IO[bytes], limit: int = MAX_MESSAGE_BYTES) -> None:
        self.stream = stream
        self.limit = limit
        self.refused: int | None = None  # the Content-Length refused; the server stops

    def readline(self) -> bytes:
        return self.stream.readline(HEADER_LINE_BYTES)

    def read(self, size: int) -> bytes:
        if size > self.limit:
            self.refused = size
            return b""  # (pygls' loop stops at an empty body)
        if size <= _PIECE:
            return self.stream.read(size)
        pieces = []
        while size > 0:
            piece = self.stream.read(min(size, _PIECE))
            if not piece:
                break
            pieces.append(piece)
            size -= len(piece)
        return b"".join(pieces)

    def refusal(self) -> str:
        return (f"memlint lsp: refused a message of Content-Length {self.refused:,} bytes (over the "
                f"{self.limit:,} a message may have); the messages after it cannot be told apart, so "
                "the server stops")


class Answered(Exception):
    """A message the server could not take and answered already (the loop logs it, no more)."""


class NotAMessage(ValueError):
    """A JSON body that is no JSON-RPC message (an array, a number, an object without "jsonrpc")."""


class Protocol(LanguageServerProtocol):
    def handle_message(self, message: Any) -> None:
        if not hasattr(message, "jsonrpc"):  # (pygls takes every JSON value for a message)
            kind = _JSON_KIND.get(type(message), "value")
            raise NotAMessage(f"not a JSON-RPC message: a JSON {kind}")
        super().handle_message(message)

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            msg_id, method = data.get("id"), data.get("method")
            if not isinstance(method, str) or isinstance(msg_id, bool) or not isinstance(msg_id, (int, str)):
                raise
            error = exc.to_response_error()
            self._send_response(msg_id, None, error)
            cause = exc.__cause__ or exc
            raise Answered(f"request {msg_id!r} ({method}) answered with {error.message}: "
                           f"{type(cause).__name__}: {_first_line(str(cause))}") from None


def unreadable(protocol: LanguageServerProtocol, error: Exception) -> None:
    """Answer a message that could not be read at all (no id to answer to): `"id": null`."""
    if isinstance(error, Answered):
        return
    parse = isinstance(error, (json.JSONDecodeError, UnicodeDecodeError, RecursionError))
    code, what = (-32700, "Parse error") if parse else (-32600, "Invalid Request")
    message = f"{what}: {_first_line(str(error))}"
    protocol._send_data({"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}})


class OneLine(logging.Formatter):
    """`memlint lsp: MESSAGE: ExcType: first line of the exception`, control characters escaped."""

    def format(self, record: logging.LogRecord) -> str:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a record whose arguments do not fit its format
            message = str(record.msg)
        lines = message.splitlines() or [""]
        text = lines[0]
        if any(line.startswith("Traceback (most recent call last)") for line in lines[1:]):
            text += ": " + lines[-1].strip()  # a traceback written into the message (pygls does)
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            text += f": {type(exc).__name__}: {_first_line(str(exc))}"
        return "memlint lsp: " + for_terminal(text[:_LINE] + ("…" if len(text) > _LINE else ""))


def _first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0][:_LINE]


class _Repeated(logging.Filter):
    """pygls logs a message it cannot structure twice: drop the first (the loop's line follows)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.name == "pygls.protocol.json_rpc" and str(record.msg).startswith("Unable to deserialize"))


def log_to_stderr() -> None:
    """Warnings and errors, one line each, on stderr (the editor's output channel of the server)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLine())
    handler.addFilter(_Repeated())
    handler.setLevel(logging.WARNING)
    logging.getLogger().addHandler(handler)
