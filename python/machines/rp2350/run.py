"""Run a Pico 2 W firmware ELF on the RP2350 model and judge it like the QEMU tests.

The console is the USB serial port (--console usb, the default: usb.py's host enumerates the
device, opens the port and reads it; the run fails if the firmware has not connected to USB
within --usb-deadline instructions) or UART0 (--console uart). Console lines are printed as
they come. The run ends when a line matches --until (by default the inference app's summary
line, or a main that returned), then every --expect pattern must match some line. Last
line: "instruction_model_test: PASS (N instructions, ...)" or "instruction_model_test: FAIL <reason>"; exit status
0 only on PASS.

Two cores (machine.py): core 1 runs once core 0 launches it through the boot ROM. Then the
last line adds each core's instructions and waits: "instruction_model_test: PASS (N instructions, K
output checks; core0=N core1=N wait0=N wait1=N)" (N: both cores' instructions). If core 0
waits for core 1 while core 1 runs --core1-watchdog instructions without a FIFO push, a
spinlock release or a SEV, the run fails ("core 1 did not answer: ..."). --max-instructions
applies to each core.

With --input FILE (`-`: standard input), the host sends the file's bytes on the console: over
USB (usb.py's host) once the port is open, in 64-byte packets as the firmware arms its OUT
buffer, then it closes the port (DTR clear: the firmware's tp_console_read returns 0) and opens
it again; on UART0 they are in the RX FIFO from the start (peripherals.UartRx). A firmware
that polls UART0's RX --input-wait-limit times in a row with the input used up fails the run:
"instruction_model_test: FAIL firmware waits for console input after all N bytes of --input
were read (...)". After the run a line says how much of the input the firmware took.

With --count-execute, core 0's first call of tp_method_execute is counted exactly (the perf
bench's row for the board: machines/execute_count.py) and printed before the last line:
"instruction_model_test: execute instructions=N kernel_instructions=N kernel_calls=N" (core 0's executed
instructions, its waits excluded); when core 1 was launched, also
"instruction_model_test: execute cores=2 core0=N core1=N wait0=N wall=N": core 0's instructions in the
call, core 1's instructions while core 0's clock went from the call's entry to its return (by
core 1's clock, its waits excluded), the cycles core 0 waited in it, and wall = core0 + wait0.

usage: run.py ELF [--console usb|uart] [--expect REGEX]... [--until REGEX] [--input FILE]
              [--input-wait-limit N] [--max-instructions N] [--usb-deadline N]
              [--core1-watchdog N] [--count-execute]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

from machines.cortex_m.register_block import Block
from machines.execute_count import ExecuteCounter, Firmware
from machines.rp2350 import peripherals, usb
from machines.rp2350.machine import Machine, MachineError
from machines.rp2350.two_cores_split import CallSplit

UNTIL = r"^tinypte: (model=.* (PASS|FAIL)|main returned .*)$"
# TIMER0 counts microseconds; a core of the model retires this many instructions per microsecond.
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


def blocks(
    machine: Machine,
    usb_console: Console,
    uart_console: Console,
    host: list[usb.Host],
    usb_input: bytes | None = None,
    uart_rx: peripherals.UartRx | None = None,
) -> list[Block]:
    """Every modelled block both cores share (machine.py adds each core's SCS and the SIO); the
    USB host (in `host`, sending `usb_input`) steps whenever the firmware reads the controller's
    status; UART0's RX FIFO is `uart_rx`'s."""
    machine.map_ram(usb.DPRAM, 0x1000)
    regs = usb.registers()
    host.append(usb.Host(regs, machine.uc, usb_console.put, usb_input))

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
        peripherals.uart0(uart_console.put, uart_rx),
        peripherals.timer0(lambda: machine.now() // INSTRUCTIONS_PER_MICROSECOND),
        peripherals.ticks(),
        usb.otp_chip_id(),
        regs,
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


def input_report(data: bytes | None, host: list[usb.Host], rx: list[peripherals.UartRx]) -> None:
    """With --input: how much of it the firmware took (and, over USB, whether the port was closed)."""
    if data is None:
        return
    if rx:
        print(f"uart: input: the firmware read {rx[0].read} of {len(data)} bytes")
    elif host:
        closed = "; port closed at the end of the input and opened again" if host[0].closed else ""
        print(f"usb: input: the firmware took {host[0].sent} of {len(data)} bytes{closed}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("elf", type=Path)
    parser.add_argument("--expect", action="append", default=[])
    parser.add_argument("--until", default=UNTIL)
    parser.add_argument("--max-instructions", type=int, default=2_000_000_000)
    parser.add_argument("--console", choices=("usb", "uart"), default="usb")
    parser.add_argument("--usb-deadline", type=int, default=20_000_000)
    parser.add_argument("--core1-watchdog", type=int, default=50_000_000)
    parser.add_argument("--count-execute", action="store_true", help="count the first tp_method_execute")
    parser.add_argument("--input", help="bytes the host sends on the console (a file, or - for standard input)")
    parser.add_argument("--input-wait-limit", type=int, default=10_000, help="UART0 RX polls that mean 'waits'")
    args = parser.parse_args()
    data: bytes | None = None
    if args.input is not None:
        data = sys.stdin.buffer.read() if args.input == "-" else Path(args.input).read_bytes()
    until = re.compile(args.until)
    console = Console(until)
    other = Console(until, prefix="(uart0) " if args.console == "usb" else "(usb) ")
    usb_console, uart_console = (console, other) if args.console == "usb" else (other, console)
    host: list[usb.Host] = []
    rx: list[peripherals.UartRx] = []
    try:

        def make_blocks(m: Machine) -> list[Block]:
            if args.console == "uart":
                rx.append(peripherals.UartRx(data, args.input_wait_limit, m.fail))
            return blocks(m, usb_console, uart_console, host, data if args.console == "usb" else None, *rx)

        machine = Machine(
            args.elf,
            make_blocks,
            args.max_instructions,
            core1_watchdog=args.core1_watchdog,
        )
        console.machine = machine
        counter = None
        if args.count_execute:
            counter = CallSplit(ExecuteCounter(Firmware(args.elf), wanted=1), *machine.cores)
        if args.console == "usb":
            machine.check_at(args.usb_deadline, lambda: usb_deadline(machine, host[0], args.usb_deadline))
        machine.run()
    except MachineError as error:
        input_report(data, host, rx)
        print(f"instruction_model_test: FAIL {error}")
        return 1
    input_report(data, host, rx)
    if args.console == "usb":
        if not host[0].enumerated:
            print("instruction_model_test: FAIL the console line came before USB enumeration finished")
            return 1
        print(host[0].result.summary())
    for pattern in args.expect:
        if not any(re.search(pattern, line) for line in console.lines):
            print(f"instruction_model_test: FAIL no output line matches /{pattern}/")
            return 1
    if counter is not None:
        count = counter.count
        if count is None:
            print("instruction_model_test: FAIL the firmware never returned from tp_method_execute")
            return 1
        print(f"instruction_model_test: execute instructions={count.instructions} "
              f"kernel_instructions={count.kernel_instructions} kernel_calls={count.kernel_calls}")  # fmt: skip
        split = counter.split()
        if split is not None:
            print(split.line())
    cores = ""
    if machine.cores[1].started:
        core0, core1 = machine.cores
        cores = (f"; core0={core0.total_instructions()} core1={core1.total_instructions()} "
                 f"wait0={core0.waited} wait1={core1.waited}")  # fmt: skip
    print(
        f"instruction_model_test: PASS ({machine.total_instructions()} instructions, {len(args.expect)} output checks{cores})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
