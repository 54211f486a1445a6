"""tools/stream.py and the stream firmware's protocol (runtime/app/stream_app.c), end to end.

Runs the sine stream firmware under its board's QEMU (the ELF and the board description are the
arguments) with lines a person at a
terminal might type: a window with too many values, a word, CRLF and commas, an empty line, good
windows and a 60-digit number, then "end"; checks every answer line and the summary, and the exit status (1: some
windows had errors). Then the host command's own parts: the check of an answer against the golden
output (digest for integer outputs, tolerance for float), and windows read from a file.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import stream

from machines.qemu import qemu_command
from tinypte.golden.format import Golden

TYPED = b"0.5 1.5\nhello\n\n1.5\r\n  -0.25 ,\n" + b"7" * 60 + b"\nend\n1\n"
EXPECTED = [
    r"window=0 error: 2 values, the inputs take 1",
    r"window=1 error: a value is not a decimal number",
    r"window=2 y=",
    r"window=3 y=",
    r"window=4 error: a value is not a decimal number",  # 60 digits: longer than any number it reads
    r"tinypte: stream model=sine board=mps2_an505 windows=2 errors=3 ",
]


def firmware_protocol(elf: str, board_json: str) -> int:
    emulator = json.loads(Path(board_json).read_text())["emulator"]
    run = subprocess.run(qemu_command(emulator, elf), input=TYPED, capture_output=True, timeout=60, check=False)
    lines = (run.stdout + run.stderr).decode().splitlines()
    answers = [
        line for line in lines if line.startswith(("window=", "tinypte: stream model=sine board=mps2_an505 windows"))
    ]
    problems = []
    if len(answers) != len(EXPECTED):
        problems.append(f"{len(answers)} answer lines, expected {len(EXPECTED)}: {answers}")
    for got, want in zip(answers, EXPECTED, strict=False):
        if not got.startswith(want):
            problems.append(f"{got!r} does not start with {want!r}")
    if run.returncode != 1:
        problems.append(f"exit status {run.returncode}, expected 1 (windows had errors)")
    for problem in problems:
        print("FAIL", problem)
    return len(EXPECTED) if not problems else 0


def host_checks() -> int:
    golden = Golden(1e-5, inputs=[[np.array([[0.5]], np.float32)]] * 2,
                    outputs=[[np.array([[0.25]], np.float32)], [np.array([1, -2, 3], np.int8)]])  # fmt: skip
    cases = [
        (stream.check({"y": "0.250001"}, golden, 0) <= 1e-5, "a float within tolerance"),
        (stream.check({"y": "0.26"}, golden, 0) > 1e-5, "a float off by 0.01"),
        (stream.check({"outputs": f"{stream.fnv1a(bytes([1, 254, 3])):#010x}"}, golden, 1) == 0, "the int8 digest"),
        (stream.check({"outputs": "0x00000000"}, golden, 1) == np.inf, "another int8 digest"),
        (stream.window_line(np.array([0.1, -2.0], np.float32)) == "0.10000000149011612 -2.0\n", "a window line"),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        text = Path(tmp, "w.csv")
        text.write_text("# two windows\n1,2,3\n4 5 6\n")
        npy = Path(tmp, "w.npy")
        np.save(npy, np.arange(6, dtype=np.float32).reshape(2, 3))
        cases.append(([w.tolist() for w in stream.file_windows(text, 3)] == [[1, 2, 3], [4, 5, 6]], "a .csv"))
        cases.append((len(list(stream.file_windows(npy, 3))) == 2, "a .npy of two windows"))
    for ok, what in cases:
        if not ok:
            print("FAIL", what)
    return sum(ok for ok, _ in cases)


def main() -> int:
    protocol = firmware_protocol(sys.argv[1], sys.argv[2])
    host = host_checks()
    print(f"stream_test: {protocol} firmware answers and {host} host checks passed (need {len(EXPECTED)} and 7)")
    return 0 if protocol == len(EXPECTED) and host == 7 else 1


if __name__ == "__main__":
    sys.exit(main())
