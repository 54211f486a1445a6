"""An RP2350 (two Cortex-M33 cores, Arm Secure) running a Pico 2 W firmware ELF instruction by instruction.

Each core is a unicorn instance (cortex_m/core.py). The memories (4 MiB XIP flash at 0x10000000, 520 KiB
SRAM at 0x20000000, and what `map_ram` adds, such as the USB DPRAM) are allocated once in host
memory and mapped into both (`mem_map_ptr`), so the cores share them byte for byte. The ELF's
segments are loaded at their load addresses (as the UF2 places them in flash). The peripheral
blocks of peripherals.py are shared by both cores; each core has its own System Control Space
(cortex_m/system_control.py: SysTick, VTOR, NVIC, ...); the SIO (sio.py) tells the cores apart.

Core 0 starts the way the boot ROM does (boot_rom.py): it finds the IMAGE_DEF in the first 4 KiB
of flash, refuses an image without one, and enters through the image's vector table (SP and
reset handler; VTOR set to it) or its ENTRY_POINT. Core 1 waits in the boot ROM (modelled in
Python: core1_launch.py) until core 0 launches it through the SIO FIFOs.

Scheduling: one core runs at a time, until it waits for the other (sio.py: it spins on an SIO
register that only the other core can change); then the other runs. The only other switch: a
core 1 that woke core 0 and then runs `core1_watchdog` instructions without waiting yields to
it (at a block boundary), so core 0 is not starved. Each core's count stays exact and the
interleaving deterministic. Each core has a clock
(its instructions plus the cycles it waited); a woken core's clock becomes at least the clock of
the event that woke it. This is exact for firmware whose cores share data only through what the
FIFOs or spinlocks hand over (a core may run ahead of the other in time; shared memory is seen
in the order the model runs the cores, not by their clocks). A core spinning on a flag in shared
memory never waits here: it runs until `max_instructions`.

Every way a run can go wrong ends it with `MachineError` naming the address and the PC (and the
core, once core 1 runs): an access to unmapped memory or to a register no model implements, a CPU
exception or an undefined instruction (a trap: the model stops at it rather than entering the
firmware's fault handler), a poll that keeps reading one register from one PC (`poll_limit` times
without any other peripheral access), more than `max_instructions` instructions on a core, both
cores waiting for each other, core 0 waiting for a core 1 that was never launched, or core 0
waiting while core 1 runs `core1_watchdog` instructions without a push, a spinlock release or a
SEV. WFE, WFI and YIELD are hints: the core goes on (there are no interrupts to wait for, and
wait loops poll the SIO anyway); unicorn 2.1.4 itself stops on them (WFE and YIELD raise an
invalid-instruction error, WFI halts), with PC after the hint, and the model resumes there.
"""

from __future__ import annotations

import ctypes
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from elftools.elf.elffile import ELFFile

from machines.cortex_m import system_control
from machines.cortex_m.core import Core, sev_addresses
from machines.cortex_m.register_block import Block, Unmodelled
from machines.rp2350 import boot_rom, core1_launch
from machines.rp2350.sio import Sio

unicorn: Any = importlib.import_module("unicorn")
arm: Any = importlib.import_module("unicorn.arm_const")

FLASH = (0x10000000, 4 * 1024 * 1024)
SRAM = (0x20000000, 520 * 1024)
ROM_PARK = 0x00000E00  # core 1's LR at launch: the boot ROM, where a returning entry would park it
VTOR = 0xD08


class MachineError(Exception):
    """The run went wrong: the message names what, the address and the PC."""


class Machine:
    """An RP2350 with the given peripheral blocks (built by `make_blocks(machine)`, shared by the cores)."""

    def __init__(
        self,
        elf: Path,
        make_blocks: Callable[[Machine], list[Block]],
        max_instructions: int,
        poll_limit: int = 200_000,
        core1_watchdog: int = 50_000_000,
    ) -> None:
        self.max_instructions = max_instructions
        self.poll_limit = poll_limit
        self.core1_watchdog = core1_watchdog
        self.error: MachineError | None = None
        self.finished = False
        self.current = 0
        self.launched_at: int | None = None  # core 1's clock at its launch
        self._memory: list[Any] = []
        self._lengths: dict[tuple[int, int], list[int]] = {}
        self.cores = [Core(index, self._lengths, self._deadline_passed) for index in (0, 1)]
        self._checks: list[tuple[int, Callable[[], None]]] = []  # core 0's (instructions, check)
        # Core 1's count by which it must have signalled a waiting core 0 ("watchdog"), or by which
        # it lets a woken core 0 run ("slice"); None while core 0 runs.
        self._core1_limit: tuple[int, str] | None = None
        self._stalled = False
        self._preempted = False
        self._polls = [((0, 0), 0), ((0, 0), 0)]  # per core: ((PC, address), repeats)
        for base, size in (FLASH, SRAM):
            self.map_ram(base, size)
        self._load(elf)
        self.sio = Sio(self)
        self.blocks = make_blocks(self)
        self.scs = [system_control.system_control(core.clock) for core in self.cores]  # one each
        for core in self.cores:
            for block in [*self.blocks, self.scs[core.index], self.sio]:
                core.uc.mmio_map(block.base, block.size, self._read, (core, block), self._write, (core, block))
            core.uc.hook_add(unicorn.UC_HOOK_INTR, self._on_exception, core)
            unmapped = (
                unicorn.UC_HOOK_MEM_READ_UNMAPPED
                | unicorn.UC_HOOK_MEM_WRITE_UNMAPPED
                | unicorn.UC_HOOK_MEM_FETCH_UNMAPPED
            )
            core.uc.hook_add(unmapped, self._on_unmapped, core)
            core.deadline = max_instructions
        for address in sev_addresses(self._code):
            self.cores[1].uc.hook_add(unicorn.UC_HOOK_CODE, self._on_sev, None, address, address)

    @property
    def uc(self) -> Any:
        """Core 0's unicorn: memory access for models (both cores see the same memory)."""
        return self.cores[0].uc

    def map_ram(self, base: int, size: int) -> None:
        """Memory both cores share (allocated once, mapped into each)."""
        buffer = ctypes.create_string_buffer(size)
        self._memory.append(buffer)
        for core in self.cores:
            core.uc.mem_map_ptr(base, size, unicorn.UC_PROT_ALL, ctypes.addressof(buffer))

    def _load(self, elf: Path) -> None:
        self.image_end = FLASH[0]  # the end of what the UF2 would write to flash
        with elf.open("rb") as stream:
            file = ELFFile(stream)
            for segment in file.iter_segments():
                if segment["p_type"] == "PT_LOAD" and segment["p_filesz"] > 0:
                    self.uc.mem_write(segment["p_paddr"], segment.data())
                    if FLASH[0] <= segment["p_paddr"] < FLASH[0] + FLASH[1]:
                        self.image_end = max(self.image_end, segment["p_paddr"] + segment["p_filesz"])
            self._code = [(int(s["sh_addr"]), s.data()) for s in file.iter_sections() if s["sh_flags"] & 0x4]

    # --- Clocks, for the peripherals and the SIO ---

    def now(self) -> int:
        """The clock of the core whose access this is."""
        return self.cores[self.current].clock()

    def clock(self, core: int) -> int:
        return self.cores[core].clock()

    def site(self, core: int) -> tuple[int, int]:
        return self.cores[core].pc(), self.cores[core].executed

    def total_instructions(self) -> int:
        return sum(core.total_instructions() for core in self.cores)

    def check_at(self, instructions: int, check: Callable[[], None]) -> None:
        """Run `check` once core 0 has executed more than `instructions`."""
        self._checks.append((instructions, check))
        self._set_deadlines()

    def _set_deadlines(self) -> None:
        core0, core1 = self.cores
        core0.deadline = min([self.max_instructions, *(at for at, _ in self._checks)])
        core1.deadline = min(
            self.max_instructions, self._core1_limit[0] if self._core1_limit else self.max_instructions
        )

    def _deadline_passed(self, core: Core) -> None:
        if core.executed > self.max_instructions:
            self.fail(f"no result within {self.max_instructions} instructions (PC 0x{core.address:08x})", core)
            return
        due = [(at, check) for at, check in self._checks if core.index == 0 and core.executed > at]
        self._checks = [item for item in self._checks if item not in due]
        self._set_deadlines()
        for _, check in due:
            check()
        if core.index == 1 and self._core1_limit is not None and core.executed > self._core1_limit[0]:
            if self._core1_limit[1] == "slice":  # core 0 can run: let it, from this block on
                self._core1_limit = None
                self._set_deadlines()
                core.count = 0  # the block does not run now (emu_stop in the block hook)
                self._preempted = True
                core.uc.emu_stop()
                return
            waiting = self.cores[0]
            self.fail(
                f"core 1 did not answer: core 0 has waited since instruction {waiting.wait_instructions} at PC "
                f"0x{waiting.wait_pc:08x}; core 1 ran {self.core1_watchdog} instructions without a FIFO push "
                f"(PC 0x{core.address:08x})"
            )

    # --- The SIO's view of the cores (sio.Cores) ---

    def advance(self, core: int, clock: int) -> None:
        self.cores[core].wait_until(clock)

    def stall(self, core: int, what: str) -> None:
        self.cores[core].waiting = what
        self._stalled = True
        self.cores[core].uc.emu_stop()

    def woke(self, core: int, clock: int) -> None:
        waiting = self.cores[core]
        if waiting.waiting is None or not waiting.started:
            return
        waiting.wait_until(clock)
        waiting.waiting = None
        if core == 0:  # by core 1, which runs on until it waits, or for at most core1_watchdog more
            self._core1_limit = (self.cores[1].executed + self.core1_watchdog, "slice")
            self._set_deadlines()

    def signalled(self, core: int) -> None:
        if core == 1 and self._core1_limit is not None and self._core1_limit[1] == "watchdog":
            self._core1_limit = (self.cores[1].executed + self.core1_watchdog, "watchdog")
            self.cores[1].deadline = min(self.max_instructions, self._core1_limit[0])

    def launch(self, launch: core1_launch.Launch, clock: int) -> None:
        problem = core1_launch.problem(launch, SRAM)
        if problem is not None:
            self.fail(problem)
            return
        core1 = self.cores[1]
        self.scs[1].registers[VTOR] = launch.vector_table
        for register in (arm.UC_ARM_REG_MSP, arm.UC_ARM_REG_SP):
            core1.uc.reg_write(register, launch.stack_pointer)
        core1.uc.reg_write(arm.UC_ARM_REG_LR, ROM_PARK | 1)
        core1.resume = launch.entry
        core1.wait_until(clock)  # its time in the boot ROM
        core1.started = True
        self.launched_at = clock

    def _on_sev(self, uc: Any, address: int, size: int, data: Any) -> None:
        self.signalled(1)

    # --- The bus ---

    def _where(self, core: Core) -> str:
        return f"at PC 0x{core.pc():08x}"

    def _note_poll(self, core: Core, address: int) -> None:
        key = (core.pc(), address)
        last, count = self._polls[core.index]
        count = count + 1 if key == last else 0
        self._polls[core.index] = (key, count)
        if count == self.poll_limit:
            self.fail(f"poll never ends: PC 0x{key[0]:08x} read 0x{address:08x} {self.poll_limit} times", core)

    def _read(self, uc: Any, offset: int, size: int, data: tuple[Core, Block]) -> int:
        core, block = data
        self._note_poll(core, block.base + offset)
        try:
            value = block.read(offset & ~3)
        except Unmodelled as error:
            self.fail(f"{error} {self._where(core)}", core)
            return 0
        return (value >> (8 * (offset & 3))) & ((1 << (8 * size)) - 1)

    def _write(self, uc: Any, offset: int, size: int, value: int, data: tuple[Core, Block]) -> None:
        core, block = data
        self._polls[core.index] = ((0, 0), 0)
        try:
            if size == 4:
                block.write(offset, value)
            else:  # narrow writes replicate the byte/halfword over the word, as the bus does
                lanes = value & ((1 << (8 * size)) - 1)
                block.write(offset & ~3, lanes * (0x01010101 if size == 1 else 0x00010001))
        except Unmodelled as error:
            self.fail(f"{error} {self._where(core)}", core)

    def _on_unmapped(self, uc: Any, access: int, address: int, size: int, value: int, core: Core) -> bool:
        if core.index == 1 and address & ~1 == ROM_PARK:
            self.fail(f"core 1 returned from its entry point (LR 0x{ROM_PARK | 1:08x}, the boot ROM would park it)")
            return False
        self.fail(f"access to unmapped address 0x{address:08x} {self._where(core)}", core)
        return False

    def _on_exception(self, uc: Any, number: int, core: Core) -> None:
        self.fail(f"CPU exception {number} {self._where(core)}", core)

    # --- Running ---

    def _describe(self, core: Core, error: Any) -> str:
        """What stopped the core, with the PC (and the instruction, for an undefined one)."""
        pc = core.pc()
        if error.errno == unicorn.UC_ERR_INSN_INVALID:
            halfword = int.from_bytes(bytes(core.uc.mem_read(pc, 2)), "little")
            return (
                f"undefined instruction 0x{halfword:04x} at PC 0x{pc:08x} (a trap, or an instruction the model lacks)"
            )
        return f"{error} at PC 0x{pc:08x}"

    def _named(self, message: str, core: Core | None) -> str:
        """Messages name the core once core 1 runs (a one-core run's messages stay as they were)."""
        return f"core {core.index}: {message}" if core is not None and self.launched_at is not None else message

    def fail(self, message: str, core: Core | None = None) -> None:
        if self.error is None:
            self.error = MachineError(self._named(message, core))
        self.cores[self.current].uc.emu_stop()

    def finish(self) -> None:
        """End the run successfully (the caller saw what it waited for)."""
        self.finished = True
        self.cores[self.current].uc.emu_stop()

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
        self.scs[0].registers[VTOR] = entry.vector_table
        words = bytes(self.uc.mem_read(entry.vector_table, 8))
        return int.from_bytes(words[:4], "little"), int.from_bytes(words[4:], "little")

    def run(self) -> None:
        """Boot as the boot ROM does and run until finish() or a failure (raised)."""
        sp, reset = self._boot()
        core = self.cores[0]
        core.uc.reg_write(arm.UC_ARM_REG_MSP, sp)
        core.uc.reg_write(arm.UC_ARM_REG_SP, sp)
        core.resume = reset
        while True:
            self._run(core)
            if self.error is not None:
                raise self.error
            if self.finished:
                return
            if self._stalled:
                core = self._next_after_wait(core)
                continue
            if self._preempted:
                core.resume = core.pc()
                core = self.cores[0]
                continue
            pc = core.pc()
            if core.hint_before(pc) == "WFI" or core.hint_before(pc) == "WFI.W":
                core.resume = pc
                continue
            raise MachineError(self._named(f"the core stopped at PC 0x{pc:08x}", core))

    def _run(self, core: Core) -> None:
        """Run `core` until something stops it; WFE/YIELD (unicorn's invalid-instruction error
        right after one) resume at once."""
        self.current = core.index
        self._stalled = self._preempted = False
        core.active = True
        try:
            while True:
                try:
                    core.uc.emu_start(core.resume | 1, 0xFFFFFFFF)
                    return
                except unicorn.UcError as error:
                    pc = core.pc()
                    hint = core.hint_before(pc) if error.errno == unicorn.UC_ERR_INSN_INVALID else None
                    if self.error is not None or hint not in ("WFE", "WFE.W", "YIELD", "YIELD.W"):
                        if self.error is None:
                            self.error = MachineError(self._named(self._describe(core, error), core))
                        return
                    core.resume = pc
        finally:
            core.active = False
            core.flush()  # the listener's blocks recorded before the stop

    def _next_after_wait(self, core: Core) -> Core:
        """The core to run now that `core` waits (it stopped on the read it waits at)."""
        pc = core.pc()
        core.stopped_at(pc)
        core.resume = pc
        core.wait_pc, core.wait_instructions = pc, core.total_instructions()
        other = self.cores[1 - core.index]
        watched = core.index == 0 and other.started
        self._core1_limit = (other.total_instructions() + self.core1_watchdog, "watchdog") if watched else None
        self._set_deadlines()
        if other.started and other.waiting is None:
            return other
        here = f"core {core.index} waits at PC 0x{pc:08x} on {core.waiting}"
        if not other.started:
            raise MachineError(f"core 1 was never started: {here}; {self.sio.rom.describe()}")
        there = f"core {other.index} waits at PC 0x{other.wait_pc:08x} on {other.waiting}"
        first, second = (here, there) if core.index == 0 else (there, here)
        raise MachineError(f"deadlock: {first}, {second}")
