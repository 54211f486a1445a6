"""Run a firmware ELF on the Corstone-300 machine with its Ethos-U55 (machine.py) and judge it.

The same command line as the RP2350 model's (rp2350/run.py), which instruction_model_test (//rules) passes to every
instruction model: the console is semihosting's (this board has no other: --console, which the
rule always passes, is accepted and changes nothing). Console lines are printed as they come.
The run ends when the firmware exits through semihosting, or earlier when a line matches
--until; then every --expect pattern must match some line. Last line:
"instruction_model_test: PASS (N instructions, K output checks)" or "instruction_model_test: FAIL <reason>" (the
rule's name: the perf bench and the smoke tests read these lines from every instruction model);
exit status 0 only on PASS. A firmware exit status other than 0 fails the run.

With --count-execute, the first call of tp_method_execute is counted exactly
(machines/execute_count.py) and printed before the last line:
"instruction_model_test: execute instructions=N kernel_instructions=N kernel_calls=N".

usage: run.py ELF [--console usb|uart] [--expect REGEX]... [--until REGEX]
              [--max-instructions N] [--npu-macs N] [--count-execute]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from machines.execute_count import ExecuteCounter, Firmware
from machines.sse300.machine import MachineError, Sse300

REPORT = "instruction_model_test"


class Console:
    """Semihosting output as lines; a line matching `until` finishes the machine."""

    def __init__(self, until: re.Pattern[str] | None) -> None:
        self.until = until
        self.lines: list[str] = []
        self.partial = bytearray()
        self.machine: Sse300 | None = None

    def write(self, text: bytes) -> None:
        for byte in text:
            if byte == ord("\r"):
                continue
            if byte != ord("\n"):
                self.partial.append(byte)
                continue
            line = self.partial.decode("utf-8", "replace")
            self.partial.clear()
            print(line, flush=True)
            self.lines.append(line)
            if self.until is not None and self.until.search(line) and self.machine is not None:
                self.machine.finish()

    def flush(self) -> None:
        """The last line, if the firmware ended without a newline."""
        if self.partial:
            self.write(b"\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("elf", type=Path)
    parser.add_argument("--expect", action="append", default=[])
    parser.add_argument("--until", default=None, help="end the run at the first line matching this")
    parser.add_argument("--max-instructions", type=int, default=2_000_000_000)
    parser.add_argument(
        "--console", choices=("usb", "uart"), default="usb", help="accepted; semihosting is the console"
    )
    parser.add_argument(
        "--npu-macs", type=int, default=128, choices=(32, 64, 128, 256), help="the Ethos-U55's MACs/cycle"
    )
    parser.add_argument("--count-execute", action="store_true", help="count the first tp_method_execute")
    args = parser.parse_args()
    console = Console(re.compile(args.until) if args.until else None)
    counter = None
    try:
        machine = Sse300(args.elf, console.write, args.max_instructions, args.npu_macs)
        console.machine = machine
        if args.count_execute:
            counter = ExecuteCounter(Firmware(args.elf), wanted=1)
            step_all = counter.step_all
            machine.core.listen_around(lambda starts, executed, waited: step_all(starts), counter.code.execute)
        machine.run()
    except (MachineError, ValueError) as error:  # ValueError: Firmware found no tp_method_execute
        console.flush()
        print(f"{REPORT}: FAIL {error}")
        return 1
    console.flush()
    if machine.exit_status not in (None, 0):
        print(f"{REPORT}: FAIL firmware exit status {machine.exit_status}, expected 0")
        return 1
    for pattern in args.expect:
        if not any(re.search(pattern, line) for line in console.lines):
            print(f"{REPORT}: FAIL no output line matches /{pattern}/")
            return 1
    if counter is not None:
        if not counter.counts:
            print(f"{REPORT}: FAIL the firmware never returned from tp_method_execute")
            return 1
        count = counter.counts[0]
        print(f"{REPORT}: execute instructions={count.instructions} "
              f"kernel_instructions={count.kernel_instructions} kernel_calls={count.kernel_calls}")  # fmt: skip
    print(f"{REPORT}: PASS ({machine.core.total_instructions()} instructions, {len(args.expect)} output checks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
