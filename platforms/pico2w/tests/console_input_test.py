"""Console input on the Pico 2 W, end to end: console_echo.c on the RP2350 model, fed run.py --input.

Each case runs the firmware (USB or UART console) with an input made from input_lines.txt and
compares the firmware's lines ("line K: ..." and "input: ...") with the lines this test computes
for that input, in order and exactly:
- usb_end, uart_end: the lines, then a line "end" (the firmware stops reading there);
- usb_closed: the lines alone, sent on the model's standard input (--input -): the last line has
  no newline; the host closes the port after it, tp_console_read returns 0, and the firmware's
  "closed" line comes to the terminal that opens the port again;
- usb_empty: no bytes at all: the port is closed at once.
Over USB the host must report that the firmware took every byte (and that the port was closed);
over UART that the firmware read every byte.

usage: console_input_test.py USB_RUN UART_RUN INPUT_LINES (instruction_model_test executables, input_lines.txt)
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

FNV_OFFSET, FNV_PRIME = 0x811C9DC5, 0x01000193
FIRMWARE_LINE = re.compile(r"^(line \d+: .*|input: .*)$")
UNTIL = r"^input: (end|closed) after "
CASES = 4


def fnv1a(data: bytes, digest: int = FNV_OFFSET) -> int:
    for byte in data:
        digest = ((digest ^ byte) * FNV_PRIME) & 0xFFFFFFFF
    return digest


def expected(data: bytes) -> list[str]:
    """console_echo.c's lines for `data`, followed by the end of the input (if no "end" line came)."""
    lines: list[str] = []
    line = bytearray()
    total = 0

    def answer() -> bool:
        text = bytes(line[:-1] if line.endswith(b"\r") else line)
        line.clear()
        upper = text.decode("ascii").upper()
        lines.append(f"line {len(lines) + 1}: {upper} | len={len(text)} total={total} fnv1a=0x{fnv1a(text):08x}")
        return text == b"end"

    def summary(how: str) -> str:
        return f"input: {how} after {len(lines)} lines, {total} bytes, fnv1a=0x{fnv1a(data[:total]):08x}"

    for byte in data:
        total += 1
        if byte != ord("\n"):
            line.append(byte)
        elif answer():
            return [*lines, summary("end")]
    if line:
        answer()
    return [*lines, summary("closed")]


@dataclass
class Case:
    name: str
    run: Path
    data: bytes
    stdin: bool = False

    def check(self) -> int:
        """Run it; return how many firmware lines matched."""
        with_input = ["--input", "-"] if self.stdin else ["--input", str(self.path())]
        result = subprocess.run(
            [str(self.run), *with_input, "--until", UNTIL],
            input=self.data if self.stdin else b"",
            capture_output=True,
            check=False,
        )
        output = (result.stdout + result.stderr).decode("utf-8", "replace")
        tail = output[-4000:]
        assert result.returncode == 0, f"{self.name}: the run failed:\n{tail}"
        assert re.search(r"^instruction_model_test: PASS ", output, re.M), f"{self.name}: no PASS line:\n{tail}"
        got = [line for line in output.splitlines() if FIRMWARE_LINE.match(line)]
        want = expected(self.data)
        assert got == want, f"{self.name}: the firmware's lines differ:\n got {got}\nwant {want}"
        if "usb" in self.name:
            closed = "; port closed at the end of the input and opened again" if "closed" in want[-1] else ""
            report = f"usb: input: the firmware took {len(self.data)} of {len(self.data)} bytes{closed}"
        else:
            report = f"uart: input: the firmware read {len(self.data)} of {len(self.data)} bytes"
        assert report in output.splitlines(), f"{self.name}: no line '{report}':\n{tail}"
        print(f"{self.name}: {len(got)} lines as computed; {report}")
        return len(got)

    def path(self) -> Path:
        path = Path(os.environ.get("TEST_TMPDIR", tempfile.gettempdir())) / f"{self.name}.input"
        path.write_bytes(self.data)
        return path.resolve()


def main() -> int:
    usb_run, uart_run, lines_file = (Path(arg) for arg in sys.argv[1:4])
    lines = lines_file.read_bytes()
    # The input holds a line longer than a USB packet (64 bytes) and one longer than the UART FIFO.
    longest = max(len(line) for line in lines.split(b"\n"))
    assert longest > 64, f"input_lines.txt's longest line has {longest} bytes: no line spans USB packets"
    with_end = lines + b"\nend\n"
    cases = [
        Case("usb_end", usb_run, with_end),
        Case("uart_end", uart_run, with_end),
        Case("usb_closed", usb_run, lines, stdin=True),
        Case("usb_empty", usb_run, b""),
    ]
    checked = sum(case.check() for case in cases)
    want = 2 * len(expected(with_end)) + len(expected(lines)) + 1
    assert len(cases) == CASES and checked == want, f"{checked} lines in {len(cases)} cases, expected {want} in {CASES}"
    print(f"console_input_test: PASS ({len(cases)} cases, {checked} firmware lines checked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
