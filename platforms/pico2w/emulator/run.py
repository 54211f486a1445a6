"""Run a Pico 2 W firmware ELF on the RP2350 model and judge it like the QEMU tests.

The console is the USB serial port (--console usb, the default: usb.py's host enumerates the
device, opens the port and reads it; the run fails if the firmware has not connected to USB
within --usb-deadline instructions) or UART0 (--console uart). Console lines are printed as
they come. The run ends when a line matches --until (by default the inference app's summary
line, or a main that returned), then every --expect pattern must match some line. Last
line: "rp2350_test: PASS (N instructions, ...)" or "rp2350_test: FAIL <reason>"; exit status
0 only on PASS.

With --count-execute, the first call of tp_method_execute is counted exactly (the perf
bench's row for the board: tools/execute_count.py) and printed before the last line:
"rp2350_test: execute instructions=N kernel_instructions=N kernel_calls=N".

usage: run.py ELF [--console usb|uart] [--expect REGEX]... [--until REGEX]
              [--max-instructions N] [--usb-deadline N] [--count-execute]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

import peripherals
import system_control
import usb
from execute_count import ExecuteCounter, Firmware
from machine import Machine, MachineError
from peripherals import Block

UNTIL = r"^tinypte: (model=.* (PASS|FAIL)|main returned .*)$"
# TIMER0 counts microseconds; the model's core retires this many instructions per microsecond.
INSTRUCTIONS_PER_MICROSECOND = 150


class Console:
    """Bytes from the firmware, as lines. The console the test reads finishes the machine at
    the --until line; the other one (`prefix` set) only prints what comes, marked."""

    def __init__(self, until: re.Pattern[str], prefix: str = "") -> None:
        self.until = until
        self.prefix = prefix
        self.lines: list[str] = []
        self.partial = bytearray()
        self.machine: Machine | None = None

    def put(self, byte: int) -> None:
        if byte == ord("\r"):
            return
        if byte != ord("\n"):
            self.partial.append(byte)
            return
        line = self.partial.decode("utf-8", "replace")
        self.partial.clear()
        print(self.prefix + line, flush=True)
        if self.prefix:
            return
        self.lines.append(line)
        if self.until.search(line) and self.machine is not None:
            self.machine.finish()


def blocks(machine: Machine, usb_console: Console, uart_console: Console, host: list[usb.Host]) -> list[Block]:
    """Every modelled block; the USB host (in `host`) steps whenever the firmware reads the
    controller's status."""
    machine.uc.mem_map(usb.DPRAM, 0x1000)
    regs = usb.registers()
    host.append(usb.Host(regs, machine.uc, usb_console.put))

    def step_then(read: Callable[[], int]) -> Callable[[], int]:
        def stepped() -> int:
            try:
                host[0].step()
            except usb.UsbError as error:
                machine.fail(f"USB: {error}")
            return read()

        return stepped

    for offset in (usb.SIE_STATUS, usb.BUFF_STATUS, usb.INTR, usb.INTS):
        read = regs.on_read.get(offset, lambda offset=offset: regs.registers[offset])
        regs.on_read[offset] = step_then(read)
    return [
        peripherals.xosc(),
        peripherals.clocks(),
        peripherals.pll("PLL_SYS", 0x40050000),
        peripherals.pll("PLL_USB", 0x40058000),
        peripherals.resets(),
        peripherals.io_bank0(),
        peripherals.pads_bank0(),
        peripherals.uart0(uart_console.put),
        peripherals.timer0(lambda: machine.instructions() // INSTRUCTIONS_PER_MICROSECOND),
        peripherals.ticks(),
        usb.otp_chip_id(),
        regs,
        system_control.system_control(machine.instructions),
    ]


def usb_deadline(machine: Machine, host: usb.Host, limit: int) -> None:
    """Fail unless the firmware has connected to USB by `limit` instructions."""
    if host.connected():
        return
    r = host.regs.registers
    machine.fail(
        f"USB: the firmware did not connect within {limit} instructions: MAIN_CTRL=0x{r[usb.MAIN_CTRL]:x} "
        f"(CONTROLLER_EN bit 0, PHY_ISO bit 2), SIE_CTRL=0x{r[usb.SIE_CTRL]:x} (PULLUP_EN bit 16), "
        f"USB_MUXING=0x{r[usb.USB_MUXING]:x} (TO_PHY bit 0): it never enabled the USB controller"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("elf", type=Path)
    parser.add_argument("--expect", action="append", default=[])
    parser.add_argument("--until", default=UNTIL)
    parser.add_argument("--max-instructions", type=int, default=2_000_000_000)
    parser.add_argument("--console", choices=("usb", "uart"), default="usb")
    parser.add_argument("--usb-deadline", type=int, default=20_000_000)
    parser.add_argument("--count-execute", action="store_true", help="count the first tp_method_execute")
    args = parser.parse_args()
    until = re.compile(args.until)
    console = Console(until)
    other = Console(until, prefix="(uart0) " if args.console == "usb" else "(usb) ")
    usb_console, uart_console = (console, other) if args.console == "usb" else (other, console)
    host: list[usb.Host] = []
    try:
        machine = Machine(args.elf, lambda m: blocks(m, usb_console, uart_console, host), args.max_instructions)
        console.machine = machine
        counter = ExecuteCounter(Firmware(args.elf), wanted=1) if args.count_execute else None
        if counter is not None:
            machine.instruction_listener = counter.step_all
        if args.console == "usb":
            machine.deadline = args.usb_deadline
            machine.deadline_check = lambda: usb_deadline(machine, host[0], args.usb_deadline)
        machine.run()
    except MachineError as error:
        print(f"rp2350_test: FAIL {error}")
        return 1
    if args.console == "usb":
        if not host[0].enumerated:
            print("rp2350_test: FAIL the console line came before USB enumeration finished")
            return 1
        print(host[0].result.summary())
    for pattern in args.expect:
        if not any(re.search(pattern, line) for line in console.lines):
            print(f"rp2350_test: FAIL no output line matches /{pattern}/")
            return 1
    if counter is not None:
        if not counter.counts:
            print("rp2350_test: FAIL the firmware never returned from tp_method_execute")
            return 1
        count = counter.counts[0]
        print(f"rp2350_test: execute instructions={count.instructions} "
              f"kernel_instructions={count.kernel_instructions} kernel_calls={count.kernel_calls}")  # fmt: skip
    print(f"rp2350_test: PASS ({machine.total_instructions()} instructions, {len(args.expect)} output checks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
