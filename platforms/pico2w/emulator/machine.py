"""An RP2350 (Cortex-M33, Arm Secure) running a Pico 2 W firmware ELF instruction by instruction.

unicorn emulates the core; this file maps the memories (4 MiB XIP flash at 0x10000000, 520 KiB
SRAM at 0x20000000), loads the ELF's segments at their load addresses (as the UF2 places them
in flash), puts the peripheral models of peripherals.py and system_control.py on the bus, and
starts the core the way the boot ROM does (boot_rom.py): it finds the IMAGE_DEF in the first
4 KiB of flash, refuses an image without one, and enters through the image's vector table
(SP and reset handler; VTOR set to it) or its ENTRY_POINT.

Instructions are counted exactly, per translated block: a block hook adds each block's
instruction count (Thumb instruction lengths decoded from the code), and a peripheral access
inside a block adds the instructions from the block's start to the PC. SysTick and TIMER0 run
from that count. An `instruction_listener` is given every block's instruction addresses (the
perf bench's exact count of tp_method_execute).

Every way a run can go wrong ends it with `MachineError` naming the address and the PC: an
access to unmapped memory or to a register no model implements, a CPU exception or an
undefined instruction (a trap: the model stops at it rather than entering the firmware's
fault handler), a poll that keeps reading one register from one PC (`poll_limit` times
without any other peripheral access), or more than `max_instructions` instructions.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import boot_rom
from elftools.elf.elffile import ELFFile
from execute_count import thumb_instruction_length
from peripherals import Block, Unmodelled

# unicorn ships partial type hints; this file uses it as an untyped module.
unicorn: Any = importlib.import_module("unicorn")
arm: Any = importlib.import_module("unicorn.arm_const")

FLASH = (0x10000000, 4 * 1024 * 1024)
SRAM = (0x20000000, 520 * 1024)


class MachineError(Exception):
    """The run went wrong: the message names what, the address and the PC."""


class Machine:
    """One RP2350 with the given peripheral blocks (built by `make_blocks(machine)`)."""

    def __init__(
        self,
        elf: Path,
        make_blocks: Callable[[Machine], list[Block]],
        max_instructions: int,
        poll_limit: int = 200_000,
    ) -> None:
        self.uc: Any = unicorn.Uc(unicorn.UC_ARCH_ARM, unicorn.UC_MODE_THUMB | unicorn.UC_MODE_MCLASS)
        self.uc.ctl_set_cpu_model(arm.UC_CPU_ARM_CORTEX_M33)
        for base, size in (FLASH, SRAM):
            self.uc.mem_map(base, size)
        self._load(elf)
        self.max_instructions = max_instructions
        self.poll_limit = poll_limit
        self.error: MachineError | None = None
        # A check to run once the count passes `deadline` (what must have happened by then).
        self.deadline = max_instructions
        self.deadline_check: Callable[[], None] = lambda: None
        # Given the addresses of each block's instructions before the block runs (counting).
        self.instruction_listener: Callable[[list[int]], None] | None = None
        self.finished = False
        self._executed = 0  # instructions of the blocks before the current one
        self._block = (0, 0, 0)  # current block: address, size, instruction count
        self._lengths: dict[tuple[int, int], list[int]] = {}  # block -> instruction start addresses
        self._last_poll: tuple[int, int] = (0, 0)
        self._poll_count = 0
        self.blocks = make_blocks(self)
        for block in self.blocks:
            self.uc.mmio_map(block.base, block.size, self._read, block, self._write, block)
        self.uc.hook_add(unicorn.UC_HOOK_BLOCK, self._on_block)
        self.uc.hook_add(unicorn.UC_HOOK_INTR, self._on_exception)
        unmapped = (
            unicorn.UC_HOOK_MEM_READ_UNMAPPED | unicorn.UC_HOOK_MEM_WRITE_UNMAPPED | unicorn.UC_HOOK_MEM_FETCH_UNMAPPED
        )
        self.uc.hook_add(unmapped, self._on_unmapped)

    def _load(self, elf: Path) -> None:
        self.image_end = FLASH[0]  # the end of what the UF2 would write to flash
        with elf.open("rb") as stream:
            for segment in ELFFile(stream).iter_segments():
                if segment["p_type"] == "PT_LOAD" and segment["p_filesz"] > 0:
                    self.uc.mem_write(segment["p_paddr"], segment.data())
                    if FLASH[0] <= segment["p_paddr"] < FLASH[0] + FLASH[1]:
                        self.image_end = max(self.image_end, segment["p_paddr"] + segment["p_filesz"])

    # --- Instruction counting ---

    def _starts(self, address: int, size: int) -> list[int]:
        """Addresses of the Thumb instructions of the block at `address` (`size` bytes)."""
        key = (address, size)
        if key not in self._lengths:
            code = bytes(self.uc.mem_read(address, size))
            starts, offset = [], 0
            while offset < size:
                starts.append(address + offset)
                offset += thumb_instruction_length(int.from_bytes(code[offset : offset + 2], "little"))
            self._lengths[key] = starts
        return self._lengths[key]

    def _on_block(self, uc: Any, address: int, size: int, data: Any) -> None:
        self._executed += self._block[2]
        starts = self._starts(address, size)
        self._block = (address, size, len(starts))
        if self.instruction_listener is not None:
            self.instruction_listener(starts)
        if self._executed > self.deadline:
            self.deadline = self.max_instructions
            self.deadline_check()
        if self._executed > self.max_instructions:
            self.fail(f"no result within {self.max_instructions} instructions (PC 0x{address:08x})")

    def instructions(self) -> int:
        """Instructions executed so far, the current one included."""
        address, size, _ = self._block
        pc = self.uc.reg_read(arm.UC_ARM_REG_PC)
        if not address <= pc < address + size:
            return self._executed + self._block[2]
        return self._executed + sum(1 for start in self._starts(address, size) if start <= pc)

    def total_instructions(self) -> int:
        return self._executed + self._block[2]

    # --- The bus ---

    def _note_poll(self, address: int) -> None:
        key = (self.uc.reg_read(arm.UC_ARM_REG_PC), address)
        self._poll_count = self._poll_count + 1 if key == self._last_poll else 0
        self._last_poll = key
        if self._poll_count == self.poll_limit:
            self.fail(f"poll never ends: PC 0x{key[0]:08x} read 0x{address:08x} {self.poll_limit} times")

    def _read(self, uc: Any, offset: int, size: int, block: Block) -> int:
        self._note_poll(block.base + offset)
        try:
            value = block.read(offset & ~3)
        except Unmodelled as error:
            self.fail(f"{error} at PC 0x{self.uc.reg_read(arm.UC_ARM_REG_PC):08x}")
            return 0
        return (value >> (8 * (offset & 3))) & ((1 << (8 * size)) - 1)

    def _write(self, uc: Any, offset: int, size: int, value: int, block: Block) -> None:
        self._last_poll, self._poll_count = (0, 0), 0
        try:
            if size == 4:
                block.write(offset, value)
            else:  # narrow writes replicate the byte/halfword over the word, as the bus does
                lanes = value & ((1 << (8 * size)) - 1)
                block.write(offset & ~3, lanes * (0x01010101 if size == 1 else 0x00010001))
        except Unmodelled as error:
            self.fail(f"{error} at PC 0x{self.uc.reg_read(arm.UC_ARM_REG_PC):08x}")

    def _on_unmapped(self, uc: Any, access: int, address: int, size: int, value: int, data: Any) -> bool:
        self.fail(f"access to unmapped address 0x{address:08x} at PC 0x{self.uc.reg_read(arm.UC_ARM_REG_PC):08x}")
        return False

    def _on_exception(self, uc: Any, number: int, data: Any) -> None:
        self.fail(f"CPU exception {number} at PC 0x{self.uc.reg_read(arm.UC_ARM_REG_PC):08x}")

    # --- Running ---

    def _describe(self, error: Any) -> str:
        """What stopped the core, with the PC (and the instruction, for an undefined one)."""
        pc = self.uc.reg_read(arm.UC_ARM_REG_PC)
        if error.errno == unicorn.UC_ERR_INSN_INVALID:
            halfword = int.from_bytes(bytes(self.uc.mem_read(pc, 2)), "little")
            return (
                f"undefined instruction 0x{halfword:04x} at PC 0x{pc:08x} (a trap, or an instruction the model lacks)"
            )
        return f"{error} at PC 0x{pc:08x}"

    def fail(self, message: str) -> None:
        if self.error is None:
            self.error = MachineError(message)
        self.uc.emu_stop()

    def finish(self) -> None:
        """End the run successfully (the caller saw what it waited for)."""
        self.finished = True
        self.uc.emu_stop()

    def _boot(self) -> tuple[int, int]:
        """(SP, PC) the boot ROM would enter the image with (boot_rom.py), VTOR set to match."""
        image = bytes(self.uc.mem_read(FLASH[0], self.image_end - FLASH[0]))
        try:
            entry = boot_rom.entry(image, FLASH[0])
        except boot_rom.BootError as error:
            raise MachineError(f"boot ROM: {error}") from None
        if entry.pc is not None and entry.sp is not None:
            return entry.sp, entry.pc
        assert entry.vector_table is not None
        for block in self.blocks:
            if block.name == "SCS":
                block.registers[0xD08] = entry.vector_table  # VTOR
        words = bytes(self.uc.mem_read(entry.vector_table, 8))
        return int.from_bytes(words[:4], "little"), int.from_bytes(words[4:], "little")

    def run(self) -> None:
        """Boot as the boot ROM does and run until finish() or a failure (raised)."""
        sp, reset = self._boot()
        self.uc.reg_write(arm.UC_ARM_REG_MSP, sp)
        self.uc.reg_write(arm.UC_ARM_REG_SP, sp)
        try:
            self.uc.emu_start(reset | 1, 0xFFFFFFFF)
        except unicorn.UcError as error:
            if self.error is None:
                self.error = MachineError(self._describe(error))
        if self.error is not None:
            raise self.error
        if not self.finished:
            raise MachineError(f"the core stopped at PC 0x{self.uc.reg_read(arm.UC_ARM_REG_PC):08x}")
