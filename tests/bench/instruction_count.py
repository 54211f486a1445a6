"""Exact instruction counts of `tp_method_execute` in a firmware, from QEMU's execution trace.

QEMU runs the firmware one guest instruction per translation block (`-singlestep`) and logs
every block it executes (`-d exec,nochain`), so the log has one `Trace` line per executed
instruction, with its address. Two kinds of line are logged twice and counted once: an
instruction restarted after an I/O access (a `cpu_io_recompile: rewound` line follows it),
and one whose block QEMU entered but stopped before running because -icount's 16-bit
instruction budget ran out, every 65536 instructions (a `Stopped execution of TB chain`
line follows it). This module reads that log as it is written (through a FIFO) and gives
each address to an `ExecuteCounter` (machines/execute_count.py: what a call of
tp_method_execute and of a kernel is). Counting is exact and repeatable: the same ELF and
inputs give the same numbers on any machine, whatever its load.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from machines.execute_count import Code, ExecuteCount, ExecuteCounter, Firmware
from machines.qemu import qemu_command

REWOUND = "cpu_io_recompile: rewound execution of TB to "
STOPPED = "Stopped execution of TB chain before "


def executed_addresses(lines: Iterable[str]) -> Iterator[int]:
    """The address of each executed instruction in a `-singlestep -d exec,nochain` log."""
    held = -1  # the last address, yielded once the next line shows it was not restarted
    for line in lines:
        if line.startswith("Trace "):
            # "Trace 0: 0x7f12... [0080044a/100020e0/00000150/ff020201] symbol"
            if held >= 0:
                yield held
            held = int(line[line.index("[") + 1 :].split("/", 2)[1], 16)
        elif line.startswith(REWOUND) and int(line[len(REWOUND) :], 16) == held:
            held = -1  # restarted after an I/O access: it is logged again when it runs
        elif line.startswith(STOPPED) and int(line[line.index("[") + 1 : line.index("]")], 16) == held:
            # "Stopped execution of TB chain before 0x7f12... [100020e0] symbol": the block was
            # entered (and logged) but not run, as the 16-bit instruction budget of -icount
            # ran out (every 65536 instructions); it is logged again when it runs.
            held = -1
    if held >= 0:
        yield held


def trace_addresses(command: list[str]) -> Iterator[int]:
    """Run QEMU `command`, logging one line per executed instruction; yield their addresses."""
    with tempfile.TemporaryDirectory() as tmp:
        fifo = Path(tmp) / "trace"
        os.mkfifo(fifo)
        trace = ["-icount", "shift=0", "-singlestep", "-d", "exec,nochain", "-D", str(fifo)]
        qemu = subprocess.Popen([*command, *trace], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            with fifo.open() as lines:
                yield from executed_addresses(lines)
        finally:
            qemu.kill()
            qemu.wait()


def count_executes(firmware: Code, addresses: Iterable[int], wanted: int) -> list[ExecuteCount]:
    """The first `wanted` calls of tp_method_execute in a stream of executed addresses."""
    counter = ExecuteCounter(firmware, wanted)
    for address in addresses:
        counter.step(address)
        if counter.done:
            return counter.counts
    raise RuntimeError(f"the firmware ran {len(counter.counts)} inferences, fewer than the {wanted} to count")


def measure(elf: Path, emulator: dict[str, object], inferences: int) -> list[ExecuteCount]:
    """Exact counts of the first `inferences` calls of tp_method_execute in `elf` on its board."""
    firmware = Firmware(elf)
    return count_executes(firmware, trace_addresses(qemu_command(emulator, elf)), inferences)
