"""Exact instruction counts of `tp_method_execute` from a stream of executed instruction addresses.

Two emulators produce such a stream: QEMU's execution trace (tests/bench/instruction_count.py)
and the RP2350 model's block hook (machines/cortex_m/core.py). They feed an `ExecuteCounter`
one address at a time (`step`) or one translated block at a time (`step_all`, which moves the
counters by a whole block at once when the block cannot start or end a call). A call of `tp_method_execute` starts at its entry address and lasts
until control returns to the caller (the address after the calling instruction), so a count
covers the executor and everything it calls, and nothing else. Inside it, a call of a kernel
(leaving the executor's code) lasts until control comes back; the rest is the runtime's own
overhead.

Instruction lengths (to find return addresses) come from the ELF's bytes: Thumb-2 and RISC-V
(with the C extension) mix 16- and 32-bit instructions.
"""

from __future__ import annotations

from collections.abc import Sequence
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


def thumb_instruction_length(halfword: int) -> int:
    """Bytes of the Thumb instruction whose first halfword is `halfword`: 4 for a 32-bit
    Thumb-2 encoding (top five bits 0b11101, 0b11110 or 0b11111), else 2."""
    return 4 if halfword >> 11 in (0b11101, 0b11110, 0b11111) else 2


class Code(Protocol):
    """What counting needs to know of a firmware (Firmware reads it from an ELF)."""

    execute: int  # tp_method_execute's first address
    execute_end: int  # and the address after its code

    def instruction_length(self, address: int) -> int: ...


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
                return thumb_instruction_length(half)
        raise ValueError(f"address {address:#x} is not in an executable section")


# Where a block lies against tp_method_execute's code (ExecuteCounter.step_all).
_MIXED, _INSIDE, _OUTSIDE = 0, 1, 2


class ExecuteCounter:
    """Counts the calls of tp_method_execute in the addresses given to `step`, in order: all
    of them, or the first `wanted` (`step_all` then ignores what follows)."""

    def __init__(self, code: Code, wanted: int | None = None) -> None:
        self.code = code
        self.wanted = wanted
        self.counts: list[ExecuteCount] = []
        self._previous = -1
        self._return = -1  # the caller's return address while a call is being counted
        self._was_inside = True
        self._instructions = self._kernel_instructions = self._kernel_calls = 0
        self._blocks: dict[tuple[int, ...], tuple[int, int, int]] = {}  # step_all's: block -> _classify's

    def step(self, address: int) -> None:
        """One executed instruction at `address`."""
        code = self.code
        if self._return < 0:
            if address == code.execute:
                self._return = self._previous + code.instruction_length(self._previous)
                self._instructions = self._kernel_instructions = self._kernel_calls = 0
                self._was_inside = True
        elif address == self._return:
            self.counts.append(ExecuteCount(self._instructions, self._kernel_instructions, self._kernel_calls))
            self._return = -1
        if self._return >= 0:
            self._instructions += 1
            inside = code.execute <= address < code.execute_end
            if not inside:
                self._kernel_instructions += 1
                self._kernel_calls += self._was_inside
            self._was_inside = inside
        self._previous = address

    @property
    def in_call(self) -> bool:
        """Whether the last address given to `step` was inside a call being counted."""
        return self._return >= 0

    @property
    def done(self) -> bool:
        """Whether the `wanted` calls have been counted."""
        return self.wanted is not None and len(self.counts) >= self.wanted

    def step_all(self, addresses: Sequence[int]) -> bool:
        """Instructions executed one after another (a translated block's): nothing once `done`;
        else, when the block cannot start or end a call (it holds neither tp_method_execute's
        entry nor the pending return address) and lies wholly inside or wholly outside the
        executor's code, the counters move by the whole block at once (only the last address is
        remembered when no call is being counted); otherwise `step` each. Returns `in_call`."""
        ret = self._return
        if (self.wanted is not None and len(self.counts) >= self.wanted) or not addresses:  # done
            return ret >= 0
        key = tuple(addresses)
        span = self._blocks.get(key)
        if span is None:
            span = self._blocks[key] = self._classify(addresses)
        lowest, highest, place = span
        if place and not lowest <= self.code.execute <= highest and not (ret >= 0 and lowest <= ret <= highest):
            if ret >= 0:
                count = len(addresses)
                self._instructions += count
                if place == _OUTSIDE:
                    self._kernel_instructions += count
                    self._kernel_calls += self._was_inside
                self._was_inside = place == _INSIDE
            self._previous = addresses[-1]
            return ret >= 0
        for address in addresses:
            self.step(address)
        return self._return >= 0

    def _classify(self, addresses: Sequence[int]) -> tuple[int, int, int]:
        """(lowest, highest, place) of a block: place is _INSIDE or _OUTSIDE when every address
        is inside or outside tp_method_execute's code, else _MIXED."""
        lowest, highest = min(addresses), max(addresses)
        execute, end = self.code.execute, self.code.execute_end
        if execute <= lowest and highest < end:
            return lowest, highest, _INSIDE
        if highest < execute or lowest >= end:
            return lowest, highest, _OUTSIDE
        return lowest, highest, _MIXED
