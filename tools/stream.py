"""Stream input windows to a model's stream firmware and print its answers.

The stream firmware (runtime/app/stream_app.c; model_firmware(app = "stream")) reads one window per
line from its console, runs the model and answers with one line. This is the host's side:

    bazel run //models/sine:stream_mps2_an505 -- --generate 8        8 generated windows, under QEMU
    bazel run //models/kws:int8_stream_mps2_an505 -- --from windows.npy
    bazel run //models/kws:int8_stream_mps2_an505 -- --golden        the model's golden inputs
    python3 tools/stream.py --port /dev/ttyACM0 --from windows.csv    a board on USB or a UART

Windows come from `--from FILE` (.npy: one window per row, or one per first index; .csv or .txt:
one window per line, numbers separated by commas or spaces), from `--generate N` (seeded,
uniform between --low and --high, or between the golden inputs' extremes), or from `--golden`
(the model's golden cases, from --golden-file; with `--check` each answer is compared with PyTorch's output: exactly,
by the output's digest, for an integer output; within the golden tolerance for float values).
A quantized input takes real values: the firmware quantizes them as the program does.

The firmware runs under its board's QEMU (`--board-json B.board.json --firmware ELF`, what
`bazel run` passes: machines.qemu's command line, timers counting instructions), or the RP2350 model (`--machine-model RUN --firmware ELF`), or on a board at `--port`
(raw mode, 115200 8N1 for a UART). One window is sent at a time and its answer read before the
next, so a UART without flow control never overruns. Last line:
"stream: N windows, N answers, N checked (max error E), N errors"; exit status 0 when every window
was answered (and, with --check, matched).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import termios
import tty
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from machines.qemu import qemu_command
from tinypte.golden.format import Golden

READY = re.compile(r"^tinypte: stream model=(\S+) board=(\S+) values=(\d+) .* ready$")
END = re.compile(r"^tinypte: stream .* END$")
FNV_OFFSET, FNV_PRIME = 2166136261, 16777619


def fnv1a(data: bytes) -> int:
    digest = FNV_OFFSET
    for byte in data:
        digest = ((digest ^ byte) * FNV_PRIME) & 0xFFFFFFFF
    return digest


def window_line(values: npt.NDArray[Any]) -> str:
    """A window as the firmware reads it: float32 values in their shortest exact decimal form."""
    return " ".join(repr(float(v)) if np.isfinite(v) else "0" for v in values.astype(np.float32)) + "\n"


def golden_windows(golden: Golden) -> Iterator[npt.NDArray[Any]]:
    """Each golden case's inputs as real values, one flat window (each input in memory order)."""
    slots = golden.slots()
    for case in golden.inputs:
        parts = []
        for array, slot in zip(case, slots, strict=False):
            flat = np.ascontiguousarray(array).reshape(-1)
            if slot.quantization is not None:
                scale, zero_point = slot.quantization
                flat = (flat.astype(np.float64) - zero_point).astype(np.float32) * np.float32(scale)
            parts.append(flat.astype(np.float32))
        yield np.concatenate(parts)


def file_windows(path: Path, values: int) -> Iterator[npt.NDArray[Any]]:
    if path.suffix == ".npy":
        array = np.load(path)
        yield from array.reshape(array.shape[0], -1) if array.size != values else array.reshape(1, -1)
        return
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            yield np.array([float(t) for t in re.split(r"[,\s]+", line.strip())], dtype=np.float32)


class Link:
    """The firmware's console: a child process's stdin/stdout, or a serial port."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.batch = bool(args.machine_model)  # all windows at once, not one answer at a time
        if args.port:
            fd = os.open(args.port, os.O_RDWR | os.O_NOCTTY)
            tty.setraw(fd)
            attributes = termios.tcgetattr(fd)
            attributes[4] = attributes[5] = termios.B115200
            termios.tcsetattr(fd, termios.TCSANOW, attributes)
            self.reader: IO[bytes] = os.fdopen(fd, "rb", buffering=0)
            self.writer: IO[bytes] = os.fdopen(os.dup(fd), "wb", buffering=0)
            return
        if args.machine_model:
            command = [args.machine_model, "--console", args.console, "--input", "-", "--until", END.pattern,
                       "--expect", END.pattern, "--max-instructions", "4000000000", args.firmware]  # fmt: skip
        else:
            emulator = json.loads(Path(args.board_json).read_text())["emulator"]
            command = qemu_command(emulator, args.firmware, icount=True)
        # QEMU writes the semihosting console to its standard error.
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.reader, self.writer = self.process.stdout, self.process.stdin

    def line(self) -> str | None:
        """The next line from the firmware (echoed), None when its output ended."""
        raw = self.reader.readline()
        if not raw:
            return None
        text = raw.decode(errors="replace").rstrip("\r\n")
        print(text, flush=True)
        return text

    def send(self, text: str) -> None:
        self.writer.write(text.encode())
        self.writer.flush()

    def close(self) -> int:
        if self.process is None:
            return 0
        self.writer.close()
        while self.line() is not None:
            pass
        return self.process.wait()


def parse_answer(line: str) -> dict[str, str]:
    return dict(field.split("=", 1) for field in line.split() if "=" in field)


def check(answer: dict[str, str], golden: Golden, case: int) -> float:
    """The answer's error against golden case `case`'s first output (inf: wrong)."""
    expected = golden.outputs[case][0]
    slot = golden.slots()[len(golden.inputs[0])]
    if expected.dtype != np.float32:
        return 0.0 if int(answer.get("outputs", "0"), 16) == fnv1a(np.ascontiguousarray(expected).tobytes()) else np.inf
    shown = [answer["y"]] if "y" in answer else answer["scores"].split(",") if "scores" in answer else []
    if not shown:
        return 0.0 if slot.shape else np.inf
    got = np.array([float(v) for v in shown], dtype=np.float64)
    return float(np.max(np.abs(got - expected.reshape(-1).astype(np.float64))))


def choose_windows(args: argparse.Namespace, golden: Golden | None, values: int) -> list[npt.NDArray[Any]] | None:
    """The windows to send (`values` numbers each): --from, --generate or --golden's."""
    if args.source:
        return list(file_windows(args.source, values))
    if args.generate is not None:
        extremes = np.concatenate(list(golden_windows(golden))) if golden else np.array([-1.0, 1.0])
        low = args.low if args.low is not None else float(extremes.min())
        high = args.high if args.high is not None else float(extremes.max())
        rng = np.random.default_rng(args.seed)
        return [rng.uniform(low, high, values).astype(np.float32) for _ in range(args.generate)]
    if args.golden and golden is not None:
        return list(golden_windows(golden))
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--from", dest="source", type=Path, help=".npy, .csv or .txt windows")
    source.add_argument("--generate", type=int, metavar="N", help="N seeded random windows")
    source.add_argument("--golden", action="store_true", help="the golden inputs (--golden-file's)")
    parser.add_argument("--golden-file", type=Path, help="the model's golden data (`bazel run` passes it)")
    parser.add_argument("--check", action="store_true", help="compare each answer with the golden output")
    parser.add_argument("--min-windows", type=int, default=1, help="fail unless this many windows were answered")
    parser.add_argument("--low", type=float)
    parser.add_argument("--high", type=float)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--port", help="a board's serial port, e.g. /dev/ttyACM0")
    parser.add_argument("--firmware", help="the stream firmware's ELF, run under its board's QEMU or --machine-model")
    parser.add_argument("--board-json", help="the firmware's board description (<board>.board.json): its QEMU")
    parser.add_argument("--machine-model", help="an instruction model's run command (the Pico 2 W's)")
    parser.add_argument("--console", default="usb", help="the machine model's console (usb or uart)")
    args = parser.parse_args(argv)
    golden = Golden.from_bytes(args.golden_file.read_bytes()) if args.golden_file else None
    if (args.check or args.golden) and golden is None:
        parser.error("--golden and --check need --golden-file")
    if args.check and not args.golden:
        parser.error("--check compares with the golden outputs, so the windows must be the golden inputs (--golden)")
    link = Link(args)
    if link.batch:
        # The instruction model reads all of its input before it starts: every window goes first,
        # sized by the golden inputs (the model's).
        if golden is None:
            parser.error("--machine-model needs --golden-file (the windows' size)")
        values = int(next(golden_windows(golden)).size)
    else:
        ready = None
        while ready is None:
            line = link.line()
            if line is None:
                print("stream: FAIL the firmware ended before its ready line (is it a stream firmware?)")
                return 1
            ready = READY.match(line)
        values = int(ready[3])
    windows = choose_windows(args, golden, values)
    if windows is None:
        parser.error("give the windows: --from FILE, --generate N or --golden")
    if link.batch:
        link.send("".join(window_line(window) for window in windows) + "end\n")
        link.writer.close()
    sent = answered = checked = errors = 0
    worst = 0.0
    tolerance = golden.tolerance if golden else 0.0
    for index, window in enumerate(windows):
        if not link.batch:
            link.send(window_line(window))
        sent += 1
        line = link.line()
        while line is not None and not line.startswith(f"window={index} "):
            line = link.line()
        if line is None:
            break
        answer = parse_answer(line)
        if " error: " in line:
            errors += 1
            continue
        answered += 1
        if args.check and golden is not None:
            error = check(answer, golden, index)
            checked += 1
            worst = max(worst, error)
            # Values are printed with 6 decimals: half a unit of the last one is added.
            if not error <= tolerance + 5e-7:
                print(f"stream: window {index}: off by {error:.3g} from the golden output")
                errors += 1
    if not link.batch:
        link.send("end\n")
    while (line := link.line()) is not None and not END.match(line):
        pass
    status = link.close()
    print(f"stream: {sent} windows, {answered} answers, {checked} checked (max error {worst:.3g}), {errors} errors")
    short = args.golden and golden is not None and sent != len(golden.inputs)  # every golden case
    if status != 0 or errors or short or answered < args.min_windows or answered != sent:
        print(
            f"stream: FAIL (firmware exit status {status}; {answered} answers of {sent}, at least {args.min_windows} wanted)"
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
