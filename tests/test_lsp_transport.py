"""`memlint lsp` on messages it cannot take: raw bytes on the server's stdin, as a broken or hostile
client sends them. Each bad message is one line on stderr (never a traceback), is answered as
JSON-RPC says when it can be, and the server goes on serving; an absurd Content-Length stops it with
one line and exit 2, without allocating what it announces."""

from __future__ import annotations

import io
import json
import logging
import subprocess
import sys
from typing import Any

import pytest

from memlint.lsp.transport import MAX_MESSAGE_BYTES, BoundedInput, OneLine


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def message(data: dict[str, Any]) -> bytes:
    return frame(json.dumps(data).encode())


INITIALIZE = message({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                      "params": {"capabilities": {}, "rootUri": None, "processId": None}})
INITIALIZED = message({"jsonrpc": "2.0", "method": "initialized", "params": {}})
SHUTDOWN = message({"jsonrpc": "2.0", "id": 99, "method": "shutdown"})
EXIT = message({"jsonrpc": "2.0", "method": "exit"})


def serve(*middle: bytes) -> tuple[int, list[dict[str, Any]], str]:
    raw = b"".join((INITIALIZE, INITIALIZED, *middle, SHUTDOWN, EXIT))
    done = subprocess.run([sys.executable, "-m", "memlint", "lsp"], input=raw, capture_output=True, timeout=120,
                          check=False)
    return done.returncode, _messages(done.stdout), done.stderr.decode("utf-8", "replace")


def _messages(out: bytes) -> list[dict[str, Any]]:
    found = []
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        length = int(next(line for line in head.split(b"\r\n") if line.startswith(b"Content-Length:")).split()[1])
        found.append(json.loads(rest[:length]))
        out = rest[length:]
    return found


def _answer(messages: list[dict[str, Any]], msg_id: Any) -> dict[str, Any]:
    return next(m for m in messages if "method" not in m and m.get("id", "absent") == msg_id)


@pytest.mark.parametrize(("body", "code", "line"), [
    (b"{not json", -32700, "JSONDecodeError: Expecting property name enclosed in double quotes"),
    (b"[]", -32600, "not a JSON-RPC message: a JSON array"),
    (b"5", -32600, "not a JSON-RPC message: a JSON number"),
    (b'{"x": 1}', -32600, 'not a JSON-RPC message: a JSON object without "jsonrpc"'),
    (b'{"jsonrpc": "2.0", "method": "\xff"}', -32700, "UnicodeDecodeError"),
    (b"[" * 100_000, -32700, "RecursionError"),
])
def test_an_unreadable_body_is_one_line_and_a_json_rpc_error(body: bytes, code: int, line: str) -> None:
    status, messages, err = serve(frame(body))
    assert status == 0 and "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("memlint lsp: ") and line in err
    assert _answer(messages, None)["error"]["code"] == code  # {"id": null, "error": ...}, as JSON-RPC says
    assert _answer(messages, 99) == {"id": 99, "jsonrpc": "2.0", "result": None}  # it went on serving
    assert not any(m.get("method") == "window/showMessage" for m in messages)


def test_an_unknown_command_is_answered_and_logged_in_one_line() -> None:
    status, messages, err = serve(message({"jsonrpc": "2.0", "id": 7, "method": "workspace/executeCommand",
                                           "params": {"command": "nope", "arguments": []}}))
    assert status == 0 and "Traceback" not in err and err.count("\n") == 1
    assert "Command name 'nope' is not defined" in err
    assert _answer(messages, 7)["error"]["code"] == -32602
    assert _answer(messages, 99)["result"] is None


def test_a_request_with_params_that_do_not_fit_is_answered() -> None:
    """pygls would log it and never answer, leaving the editor waiting for request 8."""
    status, messages, err = serve(message({"jsonrpc": "2.0", "id": 8, "method": "textDocument/hover",
                                           "params": {"x": 1}}))
    assert status == 0 and "Traceback" not in err and err.count("\n") == 1 and "request 8" in err
    assert _answer(messages, 8)["error"]["code"] == -32602
    assert _answer(messages, 99)["result"] is None


def test_several_bad_messages_and_a_long_junk_line() -> None:
    status, messages, err = serve(frame(b"{"), b"x" * 3_000_000 + b"\r\n", frame(b"[]"), frame(b"null"))
    assert status == 0 and "Traceback" not in err and err.count("\n") == 3
    assert _answer(messages, 99)["result"] is None


def test_an_absurd_content_length_stops_the_server_with_one_line() -> None:
    status, messages, err = serve(b"Content-Length: 99999999999\r\n\r\n{}")
    assert status == 2 and "Traceback" not in err and "internal error" not in err
    assert err == ("memlint lsp: refused a message of Content-Length 99,999,999,999 bytes (over the "
                   f"{MAX_MESSAGE_BYTES:,} a message may have); the messages after it cannot be told apart, "
                   "so the server stops\n")
    assert _answer(messages, 1)["result"]["serverInfo"]["name"] == "memlint"
    assert not any(m.get("id") == 99 for m in messages)


class _Counting(io.BytesIO):
    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.asked: list[int] = []

    def read(self, size: int | None = -1) -> bytes:
        self.asked.append(-1 if size is None else size)
        return super().read(size)


def test_bounded_input_reads_pieces_as_they_arrive() -> None:
    stream = _Counting(b"abc")
    bounded = BoundedInput(stream, limit=10 << 20)
    assert bounded.read(5 << 20) == b"abc"  # a body cut short: what arrived, nothing allocated ahead
    assert max(stream.asked) <= 1 << 20
    assert bounded.read(10 << 20 + 1) == b"" and bounded.refused == 10 << 20 + 1
    assert BoundedInput(io.BytesIO(b"x" * 100_000 + b"\n")).readline() == b"x" * 65536


def test_one_line_log_records() -> None:
    formatter = OneLine()
    try:
        raise ValueError("bad\nsecond line")
    except ValueError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "Unable %s", ("here",), sys.exc_info())
    assert formatter.format(record) == "memlint lsp: Unable here: ValueError: bad"
    embedded = "Unable to deserialize message\nTraceback (most recent call last):\n  File x\nKeyError: 'id'"
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, embedded, (), None)
    assert formatter.format(record) == "memlint lsp: Unable to deserialize message: KeyError: 'id'"
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "a\x1b[31m" + "b" * 1000, (), None)
    line = formatter.format(record)
    assert "\x1b" not in line and "\n" not in line and len(line) < 600
