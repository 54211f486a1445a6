"""tinypte.worker speaks Bazel's worker protocol and runs each action in a child of its own.

The protocol half is checked byte for byte against hand-encoded messages (WorkRequest and
WorkResponse as protoc would encode them); the server half runs `serve` over pipes with a fake
`main`: every request gets its response, in order, with its exit status and output, and what
one action changes in the process (a module global, an environment variable) is gone for the
next.
"""

from __future__ import annotations

import io
import os
import sys

import pytest

from tinypte import worker

# Requests the server test sends; it fails if fewer responses came back.
MIN_RESPONSES = 5

STATE: list[str] = []  # what a fake action appends to: a child's change the parent never sees


def request(arguments: list[str], request_id: int = 0) -> bytes:
    """A length-prefixed WorkRequest, encoded by hand: field 1 (string) per argument, field 2 an
    Input {path, digest} (ignored by the worker), field 3 (varint) the request id."""
    body = b""
    for argument in arguments:
        data = argument.encode()
        body += bytes([0x0A, len(data)]) + data
    body += b"\x12\x0a\x0a\x02in\x12\x04\xde\xad\xbe\xef"  # inputs {path: "in", digest: ...}
    if request_id:
        body += bytes([0x18, request_id])
    return bytes([len(body)]) + body


def test_request_parsing() -> None:
    message = request(["golden", "--model", "m.py"], request_id=7)[1:]
    assert worker.parse_request(message) == worker.WorkRequest(["golden", "--model", "m.py"], 7)
    long_argument = "x" * 300  # a two-byte length
    body = b"\x0a\xac\x02" + long_argument.encode()
    assert worker.parse_request(body).arguments == [long_argument]


def test_response_encoding() -> None:
    assert worker.encode_response(0, "", 0) == b"\x00"
    assert worker.encode_response(1, "no", 3) == b"\x08\x08\x01\x12\x02no\x18\x03"
    assert worker.encode_response(0, "ok", 0) == b"\x04\x12\x02ok"
    with pytest.raises(ValueError):
        worker.encode_response(-1, "", 0)


def test_read_message_ends_cleanly_and_refuses_truncation() -> None:
    stream = io.BytesIO(request(["a"]) + request(["b"]))
    assert worker.read_message(stream) is not None
    assert worker.read_message(stream) is not None
    assert worker.read_message(stream) is None
    with pytest.raises(ValueError):
        worker.read_message(io.BytesIO(b"\x05ab"))


def fake_main(arguments: list[str]) -> int:
    """An action: prints what it saw of the state left by earlier actions, then changes it."""
    print(f"{arguments[0]}: state={STATE} env={os.environ.get('TINYPTE_WORKER_TEST', '-')}")
    print("to stderr", file=sys.stderr)
    STATE.append(arguments[0])
    os.environ["TINYPTE_WORKER_TEST"] = arguments[0]
    if arguments[0] == "fail":
        return 3
    if arguments[0] == "raise":
        raise RuntimeError("a bug")
    if arguments[0] == "exit":
        raise SystemExit(4)
    return 0


def responses(data: bytes) -> list[tuple[int, str, int]]:
    stream, found = io.BytesIO(data), []
    while (message := worker.read_message(stream)) is not None:
        fields = dict(worker._fields(message))
        output = fields.get(2, b"")
        assert isinstance(output, bytes)
        code, request_id = fields.get(1, 0), fields.get(3, 0)
        assert isinstance(code, int) and isinstance(request_id, int)
        found.append((code, output.decode(), request_id))
    return found


def test_serve_runs_each_request_in_a_fresh_child() -> None:
    names = ["first", "fail", "raise", "exit", "last"]
    requests = b"".join(request([name], request_id=i + 1) for i, name in enumerate(names))
    read_requests, write_requests = os.pipe()
    os.write(write_requests, requests)
    os.close(write_requests)
    read_responses, write_responses = os.pipe()
    saved_stdout = os.dup(1)
    try:
        with os.fdopen(read_requests, "rb") as stdin, os.fdopen(write_responses, "wb") as stdout:
            assert worker.serve(fake_main, lambda _: ("json",), stdin, stdout) == 0
    finally:
        os.dup2(saved_stdout, 1)  # serve points fd 1 at stderr
        os.close(saved_stdout)
    with os.fdopen(read_responses, "rb") as stream:
        got = responses(stream.read())
    assert len(got) >= MIN_RESPONSES
    assert [(code, request_id) for code, _, request_id in got] == [(0, 1), (3, 2), (1, 3), (4, 4), (0, 5)]
    for (_, output, _), name in zip(got, names, strict=True):
        assert output.startswith(f"{name}: state=[] env=-\n"), output  # nothing left by earlier actions
        assert "to stderr" in output
    assert "RuntimeError: a bug" in got[2][1]
    assert STATE == [] and "TINYPTE_WORKER_TEST" not in os.environ


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
