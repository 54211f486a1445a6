"""A persistent Bazel worker for the toolkit: import torch and ExecuTorch once, fork for each action.

Importing torch and ExecuTorch takes about 7 s, and a build runs the toolkit a few hundred
times; most of its actions (golden outputs, exports, a firmware's size check) then work for
a fraction of that. Bazel's persistent workers keep a tool's process between actions: Bazel
starts `tool --persistent_worker` and sends it one WorkRequest per action on stdin (the
action's arguments, read from its `@flagfile`), and the worker answers each with a
WorkResponse on stdout (exit code and output), both length-prefixed protocol buffers
(Bazel's worker_protocol.proto; the few fields used here are encoded by hand).

Isolation is kept by forking: the worker imports the heavy libraries its tool's subcommands
use (`preload`), then for each request forks a child that runs `tinypte.cli.main(arguments)`
exactly as a fresh process would and exits; its stdout and stderr go into the response's
output. Nothing an action does (seeds, registered operators, patched modules, open files)
reaches the next one, and the parent never runs torch code (forking a process with running
threads is unsafe; the parent checks it has only its own thread before every fork). The same
inputs give the same bytes as without the worker (.ci/run builds the programs, ELF and UF2
twice and compares them).
"""

from __future__ import annotations

import importlib
import io
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

# --- Protocol buffers: just what WorkRequest and WorkResponse need. ---


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _read_varint(data: bytes, offset: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if offset >= len(data):
            raise ValueError("truncated varint")
        byte = data[offset]
        offset += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, offset
        shift += 7


def _fields(data: bytes) -> Iterator[tuple[int, int | bytes]]:
    """(field number, value) of each field of a message: ints for varints, bytes otherwise."""
    offset = 0
    while offset < len(data):
        key, offset = _read_varint(data, offset)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, offset = _read_varint(data, offset)
            yield number, value
        elif wire == 2:
            size, offset = _read_varint(data, offset)
            yield number, data[offset : offset + size]
            offset += size
        elif wire == 1:
            yield number, data[offset : offset + 8]
            offset += 8
        elif wire == 5:
            yield number, data[offset : offset + 4]
            offset += 4
        else:
            raise ValueError(f"unsupported wire type {wire}")


@dataclass(frozen=True)
class WorkRequest:
    arguments: list[str]
    request_id: int


def parse_request(data: bytes) -> WorkRequest:
    """A WorkRequest: arguments (field 1) and request_id (field 3); inputs (2) are not needed."""
    arguments, request_id = [], 0
    for number, value in _fields(data):
        if number == 1 and isinstance(value, bytes):
            arguments.append(value.decode())
        elif number == 3 and isinstance(value, int):
            request_id = value
    return WorkRequest(arguments, request_id)


def encode_response(exit_code: int, output: str, request_id: int) -> bytes:
    """A WorkResponse: exit_code (1), output (2), request_id (3)."""
    body = bytearray()
    if not 0 <= exit_code <= 255:
        raise ValueError(f"exit code {exit_code} is not a process's")
    if exit_code:
        body += _varint(1 << 3) + _varint(exit_code)
    text = output.encode()
    if text:
        body += _varint(2 << 3 | 2) + _varint(len(text)) + text
    if request_id:
        body += _varint(3 << 3) + _varint(request_id)
    return _varint(len(body)) + bytes(body)


def read_message(stream: BinaryIO) -> bytes | None:
    """The next length-prefixed message of `stream`; None at its end."""
    size = shift = 0
    while True:
        byte = stream.read(1)
        if not byte:
            if shift:
                raise ValueError("stream ended inside a message length")
            return None
        size |= (byte[0] & 0x7F) << shift
        if not byte[0] & 0x80:
            break
        shift += 7
    data = stream.read(size)
    if len(data) != size:
        raise ValueError("stream ended inside a message")
    return bytes(data)


# --- The fork server. ---


def preload(modules: tuple[str, ...]) -> None:
    """Import `modules` in the parent, so every child starts with them (one that fails to import
    is left to the action, which reports it as it would in a process of its own)."""
    for name in modules:
        if name in sys.modules:
            continue
        try:
            importlib.import_module(name)
        except ImportError:
            continue


def run_forked(main: Callable[[list[str]], int], arguments: list[str]) -> tuple[int, str]:
    """Run `main(arguments)` in a forked child with stdout and stderr captured: (exit status,
    output)."""
    threads = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else threading.active_count()
    if threads != 1:
        raise RuntimeError(f"worker: {threads} threads before fork (only the main one may run)")
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as captured:
        pid = os.fork()
        if pid == 0:  # the child: one action, then exit without running the parent's cleanup
            status = 1
            try:
                devnull = os.open(os.devnull, os.O_RDONLY)
                os.dup2(devnull, 0)  # the parent's stdin is Bazel's request stream
                os.dup2(captured.fileno(), 1)
                os.dup2(captured.fileno(), 2)
                sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", closefd=False), line_buffering=True)
                sys.stderr = io.TextIOWrapper(os.fdopen(2, "wb", closefd=False), line_buffering=True)
                status = main(arguments)
            except SystemExit as stop:
                status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
            except BaseException:  # noqa: BLE001 - a bug in tinypte: its traceback is the output
                import traceback

                traceback.print_exc()
                status = 1
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(status & 0xFF)
        _, wait_status = os.waitpid(pid, 0)
        captured.seek(0)
        output = captured.read().decode(errors="replace")
    return os.waitstatus_to_exitcode(wait_status), output


def serve(
    main: Callable[[list[str]], int], heavy: Callable[[list[str]], tuple[str, ...]], stdin: BinaryIO,
    stdout: BinaryIO,
) -> int:  # fmt: skip
    """Answer WorkRequests from `stdin` until it ends: each action's arguments run through
    `main` in a child of its own, after the parent imported what `heavy(arguments)` names.
    Whatever else writes to file descriptor 1 (a library's note while importing) goes to
    stderr, Bazel's worker log, not into the responses."""
    responses = os.fdopen(os.dup(stdout.fileno()), "wb")
    os.dup2(2, 1)
    while (message := read_message(stdin)) is not None:
        request = parse_request(message)
        preload(heavy(request.arguments))
        code, output = run_forked(main, request.arguments)
        if code < 0:
            output += f"\nworker: the action was killed by signal {-code}\n"
        responses.write(encode_response(code if code >= 0 else 1, output, request.request_id))
        responses.flush()
    responses.close()
    return 0
