"""A Corstone-300 (SSE-300) running a firmware ELF instruction by instruction, with its Ethos-U55.

The CPU is one unicorn Cortex-M33 (machines.cortex_m's `Core`, the RP2350 model's too: exact instruction counts per
translated block); unicorn has no Cortex-M55, so the firmware is an M33 build. The memories
are memory_map.py's (the Secure aliases of the ITCM, DTCM, SRAM and DDR); the ELF's segments
are loaded at their load addresses, in every memory (the loadable SRAM and DDR too, as the FVP
loads them). The CPU starts from the firmware's vector table (where its flash region starts: the
DDR for corstone300_npu, whose NPU cannot reach the TCMs; a real board's INITSVTOR0 is set to
it), or from the start of the ITCM alias. Peripherals: the System Control Space
(SysTick, SCB: machines.cortex_m's `system_control`), semihosting (semihosting.py) and the
Ethos-U55 (npu_port.py).

A run ends when the firmware exits through semihosting (`exit_status`), when `finish()` is
called, or with `MachineError` naming the address and the PC: an access to unmapped memory or
to an SCS register no model implements, a narrow access to an NPU register, a CPU exception
other than a semihosting BKPT (a trap: the model stops at it rather than entering the
firmware's fault handler), an undefined instruction, or more than `max_instructions`.
"""

from __future__ import annotations

import ctypes
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from elftools.elf.elffile import ELFFile

from machines.cortex_m import system_control
from machines.cortex_m.core import Core
from machines.cortex_m.register_block import Unmodelled
from machines.sse300 import npu_port, semihosting
from machines.sse300.memory_map import ITCM, MEMORIES, NPU_REACHES

unicorn: Any = importlib.import_module("unicorn")
arm: Any = importlib.import_module("unicorn.arm_const")


def _vector_table(image: Any) -> int:
    """Where the CPU resets from: the firmware's vector table (symbol `tp_vector_table`, at the
    start of its flash region), else the start of the ITCM (INITSVTOR0's reset value)."""
    symbols = image.get_section_by_name(".symtab")
    found = symbols.get_symbol_by_name("tp_vector_table") if symbols is not None else None
    return int(found[0]["st_value"]) if found else ITCM.base


class MachineError(Exception):
    """The run went wrong: the message names what, the address and the PC."""


class Sse300:
    """The machine: `console(text)` receives semihosting output, `npu_macs` sizes the NPU."""

    def __init__(self, elf: Path, console: Callable[[bytes], None], max_instructions: int, npu_macs: int) -> None:
        self.console = console
        self.max_instructions = max_instructions
        self.error: MachineError | None = None
        self.exit_status: int | None = None
        self.finished = False
        self.core = Core(0, {}, self._deadline_passed)
        self.core.deadline = max_instructions
        self.uc: Any = self.core.uc
        self._buffers: list[Any] = []
        for memory in MEMORIES:
            buffer = ctypes.create_string_buffer(memory.size)
            self._buffers.append(buffer)
            self.uc.mem_map_ptr(memory.base, memory.size, unicorn.UC_PROT_ALL, ctypes.addressof(buffer))
        self._load(elf)
        self.scs = system_control.system_control(self.core.clock)
        self.npu = npu_port.NpuPort(NPU_REACHES, self._read, self._write, npu_macs)
        self.uc.mmio_map(self.scs.base, self.scs.size, self._scs_read, None, self._scs_write, None)
        self.uc.mmio_map(npu_port.BASE, npu_port.SIZE, self._npu_read, None, self._npu_write, None)
        self.uc.hook_add(unicorn.UC_HOOK_INTR, self._on_exception)
        unmapped = (
            unicorn.UC_HOOK_MEM_READ_UNMAPPED | unicorn.UC_HOOK_MEM_WRITE_UNMAPPED | unicorn.UC_HOOK_MEM_FETCH_UNMAPPED
        )
        self.uc.hook_add(unmapped, self._on_unmapped)

    def _load(self, elf: Path) -> None:
        with elf.open("rb") as stream:
            image = ELFFile(stream)
            for segment in image.iter_segments():
                if segment["p_type"] != "PT_LOAD" or segment["p_filesz"] == 0:
                    continue
                address, data = int(segment["p_paddr"]), segment.data()
                if not any(memory.holds(address, len(data)) for memory in MEMORIES):
                    raise MachineError(f"ELF segment 0x{address:08x} (+{len(data)}) lies outside the memory map")
                self.uc.mem_write(address, data)
            self.vector_table = _vector_table(image)

    # --- Memory for the NPU and semihosting ---

    def _read(self, address: int, size: int) -> bytes:
        return bytes(self.uc.mem_read(address, size))

    def _write(self, address: int, data: bytes) -> None:
        self.uc.mem_write(address, data)

    # --- The bus ---

    def _where(self) -> str:
        return f"at PC 0x{self.core.pc():08x}"

    def _scs_read(self, uc: Any, offset: int, size: int, data: Any) -> int:
        try:
            value = self.scs.read(offset & ~3)
        except Unmodelled as error:
            self.fail(f"{error} {self._where()}")
            return 0
        return (value >> (8 * (offset & 3))) & ((1 << (8 * size)) - 1)

    def _scs_write(self, uc: Any, offset: int, size: int, value: int, data: Any) -> None:
        lanes = value & ((1 << (8 * size)) - 1)  # narrow writes replicate over the word, as the bus does
        word = value if size == 4 else lanes * (0x01010101 if size == 1 else 0x00010001)
        try:
            self.scs.write(offset & ~3, word)
        except Unmodelled as error:
            self.fail(f"{error} {self._where()}")

    def _npu_read(self, uc: Any, offset: int, size: int, data: Any) -> int:
        if size != 4 or offset & 3:
            self.fail(
                f"{size}-byte read of Ethos-U55 register +0x{offset:03x}: the NPU takes 32-bit accesses {self._where()}"
            )
            return 0
        return self.npu.read_register(offset)

    def _npu_write(self, uc: Any, offset: int, size: int, value: int, data: Any) -> None:
        if size != 4 or offset & 3:
            self.fail(
                f"{size}-byte write of Ethos-U55 register +0x{offset:03x}: the NPU takes 32-bit accesses {self._where()}"
            )
            return
        try:
            self.npu.write_register(offset, value)
        except Exception as error:  # noqa: BLE001 - a defect of the NPU model: one line, not a traceback
            self.fail(
                f"Ethos-U55 model failed on the write of 0x{value:08x} to +0x{offset:03x}: {error!r} {self._where()}"
            )
            return
        started = offset == npu_port.CMD and value & npu_port.CMD_TRANSITION_TO_RUNNING
        if started and self.npu.device.error is not None:  # what the NPU stopped on, for the log
            print(f"(ethos-u55) {self.npu.device.error}", flush=True)

    def _on_unmapped(self, uc: Any, access: int, address: int, size: int, value: int, data: Any) -> bool:
        self.fail(f"access to unmapped address 0x{address:08x} {self._where()}")
        return False

    def _on_exception(self, uc: Any, number: int, data: Any) -> None:
        pc = self.core.pc()
        if int.from_bytes(bytes(uc.mem_read(pc, 2)), "little") != semihosting.BKPT_SEMIHOSTING:
            self.fail(f"CPU exception {number} {self._where()}")
            return
        op, arg = uc.reg_read(arm.UC_ARM_REG_R0), uc.reg_read(arm.UC_ARM_REG_R1)
        try:
            stop = semihosting.call(op, arg, self._read, self.console)
        except (semihosting.SemihostingError, unicorn.UcError) as error:
            self.fail(f"semihosting: {error} {self._where()}")
            return
        uc.reg_write(arm.UC_ARM_REG_PC, (pc + 2) | 1)
        if stop is not None:
            self.exit_status = stop.status
            uc.emu_stop()

    def _deadline_passed(self, core: Core) -> None:
        self.fail(f"no result within {self.max_instructions} instructions (PC 0x{core.address:08x})")

    # --- Running ---

    def fail(self, message: str) -> None:
        if self.error is None:
            self.error = MachineError(message)
        self.uc.emu_stop()

    def finish(self) -> None:
        """End the run successfully (the caller saw what it waited for)."""
        self.finished = True
        self.uc.emu_stop()

    def run(self) -> None:
        """Reset through the firmware's vector table (as the boot configuration's INITSVTOR0 would
        point at it) and run to an exit, finish() or a failure (raised)."""
        words = bytes(self.uc.mem_read(self.vector_table, 8))
        sp, reset = int.from_bytes(words[:4], "little"), int.from_bytes(words[4:], "little")
        for register in (arm.UC_ARM_REG_MSP, arm.UC_ARM_REG_SP):
            self.uc.reg_write(register, sp)
        self.core.active = True
        try:
            self.uc.emu_start(reset | 1, 0xFFFFFFFF)
        except unicorn.UcError as error:
            if self.error is None:
                self.error = MachineError(self._describe(error))
        finally:
            self.core.active = False
            self.core.flush()  # the listener's blocks recorded before the stop
        if self.error is not None:
            raise self.error
        if self.exit_status is None and not self.finished:
            raise MachineError(f"the CPU stopped at PC 0x{self.core.pc():08x} (WFI, or nothing left to run)")

    def _describe(self, error: Any) -> str:
        pc = self.core.pc()
        if error.errno == unicorn.UC_ERR_INSN_INVALID:
            halfword = int.from_bytes(bytes(self.uc.mem_read(pc, 2)), "little")
            return (
                f"undefined instruction 0x{halfword:04x} at PC 0x{pc:08x} (a trap, or an instruction the model lacks)"
            )
        return f"{error} at PC 0x{pc:08x}"
