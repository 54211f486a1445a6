"""Exact instruction counts of `tp_method_execute` in a firmware, from QEMU's execution trace.

QEMU runs the firmware one guest instruction per translation block (`-singlestep`) and logs
every block it executes (`-d exec,nochain`), so the log has exactly one `Trace` line per
executed instruction, with its address (an instruction restarted after an I/O access is
logged twice, after a `cpu_io_recompile: rewound` line; it is counted once). Reading that log as it is written (through a FIFO), this
module finds each call of `tp_method_execute` (the line at its entry address) and counts the
lines until control returns to the caller (the address after the calling instruction), so a
count covers the executor and everything it calls, and nothing else. Inside it, a call of a
kernel (the entry address of a `tp_kernel_*` symbol) lasts until control returns after its
calling instruction; the rest is the runtime's own overhead. Counting is exact and
repeatable: the same ELF and inputs give the same numbers on any machine, whatever its load.

Instruction lengths (to find return addresses) come from the ELF's bytes: Thumb-2 and RISC-V
(with the C extension) mix 16- and 32-bit instructions.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection

EXECUTE = "tp_method_execute"


@dataclass(frozen=True)
class ExecuteCount:
    """One call of tp_method_execute."""

    instructions: int  # everything executed from its entry to its return
    kernel_instructions: int  # of those, outside the executor's own code: kernels' run routines
    kernel_calls: int  # calls out of the executor: the program's kernel calls

    @property
    def runtime_instructions(self) -> int:
        return self.instructions - self.kernel_instructions


class Firmware:
    """Symbol addresses and instruction lengths of a firmware ELF."""

    def __init__(self, elf_path: Path) -> None:
        with elf_path.open("rb") as stream:
            elf = ELFFile(stream)
            self.machine = elf["e_machine"]
            table = elf.get_section_by_name(".symtab")
            if not isinstance(table, SymbolTableSection):
                raise ValueError(f"{elf_path}: no symbol table")
            execute = table.get_symbol_by_name(EXECUTE)
            self.code = [(int(s["sh_addr"]), s.data()) for s in elf.iter_sections() if s["sh_flags"] & 0x4]
        if not execute:
            raise ValueError(f"{elf_path}: no {EXECUTE}; is this a model firmware?")
        self.execute = int(execute[0]["st_value"]) & ~1  # Thumb symbols have bit 0 set
        self.execute_end = self.execute + int(execute[0]["st_size"])

    def instruction_length(self, address: int) -> int:
        for start, data in self.code:
            if start <= address < start + len(data) - 1:
                half = data[address - start] | data[address - start + 1] << 8
                if self.machine == "EM_RISCV":
                    return 4 if half & 0b11 == 0b11 else 2
                return 4 if half >> 11 in (0b11101, 0b11110, 0b11111) else 2
        raise ValueError(f"address {address:#x} is not in an executable section")


REWOUND = "cpu_io_recompile: rewound execution of TB to "


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
        # "Stopped execution of TB chain before ..." lines are not executions.
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


class Code(Protocol):
    """What counting needs to know of a firmware (Firmware reads it from an ELF)."""

    execute: int  # tp_method_execute's first address
    execute_end: int  # and the address after its code

    def instruction_length(self, address: int) -> int: ...


def count_executes(firmware: Code, addresses: Iterable[int], wanted: int) -> list[ExecuteCount]:
    """The first `wanted` calls of tp_method_execute in a stream of executed addresses."""
    counts: list[ExecuteCount] = []
    previous = -1
    execute_return = -1
    was_inside = True
    instructions = kernel_instructions = kernel_calls = 0
    for address in addresses:
        if execute_return < 0:
            if address == firmware.execute:
                execute_return = previous + firmware.instruction_length(previous)
                instructions = kernel_instructions = kernel_calls = 0
                was_inside = True
        elif address == execute_return:
            counts.append(ExecuteCount(instructions, kernel_instructions, kernel_calls))
            execute_return = -1
            if len(counts) == wanted:
                return counts
        if execute_return >= 0:
            instructions += 1
            inside = firmware.execute <= address < firmware.execute_end
            if not inside:
                kernel_instructions += 1
                kernel_calls += was_inside
            was_inside = inside
        previous = address
    raise RuntimeError(f"the firmware ran {len(counts)} inferences, fewer than the {wanted} to count")


def qemu_command(emulator: dict[str, object], elf: Path) -> list[str]:
    """The QEMU command line a board's description (`emulator` in <board>.board.json) gives."""
    extra = emulator.get("args") or []
    assert isinstance(extra, list)
    return [f"qemu-system-{emulator['system']}", "-M", str(emulator["machine"]), "-cpu", str(emulator["cpu"]),
            *[str(a) for a in extra], "-nographic", "-monitor", "none", "-serial", "none",
            "-semihosting-config", "enable=on,target=native", "-kernel", str(elf)]  # fmt: skip


def measure(elf: Path, emulator: dict[str, object], inferences: int) -> list[ExecuteCount]:
    """Exact counts of the first `inferences` calls of tp_method_execute in `elf` on its board."""
    firmware = Firmware(elf)
    return count_executes(firmware, trace_addresses(qemu_command(emulator, elf)), inferences)
