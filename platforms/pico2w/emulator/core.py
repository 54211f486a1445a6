"""One Cortex-M33 of the RP2350 model: a unicorn instance, its exact instruction count and its clock.

Instructions are counted per translated block: the block hook adds the previous block's
instruction count (Thumb instruction lengths decoded from the code, cached per block). A
block that does not run to its end is counted to where it stopped: unicorn 2.1.4 abandons the
load whose MMIO callback calls emu_stop (PC stays on it, the register is not written, the
load runs again, in a new block, on resume), so a stalled core counts only the instructions
before that load (`stopped_at`). Inside an IT block it does not: the load completes and the
rest of the block runs (PC after it), and the whole block counts. So `listener` (the perf
bench's exact count of tp_method_execute) is given each block's executed instruction
addresses when the next block starts, once it is known how much of it ran.

The core's clock is its instructions plus the cycles it waited (one instruction = one cycle):
time in the boot ROM before core 1 is launched, and waits for the other core (machine.py).
`waits` keeps those intervals, so the instructions a core ran between two clock values can be
found afterwards (`instructions_between`). SysTick and TIMER0 read the clock of the core that
accesses them. Inside an MMIO callback unicorn reports the PC of the block's start, so a
peripheral sees the clock at that block's first instruction.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from execute_count import thumb_instruction_length

unicorn: Any = importlib.import_module("unicorn")
arm: Any = importlib.import_module("unicorn.arm_const")

# Hint instructions that end a unicorn run on the M33 (what unicorn 2.1.4 does): WFE and YIELD
# raise UC_ERR_INSN_INVALID with PC after them; WFI halts (emu_start returns, PC after it).
WAIT_HINTS_16 = {0xBF10: "YIELD", 0xBF20: "WFE", 0xBF30: "WFI"}
WAIT_HINTS_32 = {0x8001: "YIELD.W", 0x8002: "WFE.W", 0x8003: "WFI.W"}  # second halfword after 0xF3AF
SEV_16, SEV_32 = 0xBF40, (0xF3AF, 0x8004)


class Core:
    """Core `index`: unicorn's Cortex-M33 with counting hooks; `deadline_passed(core)` runs once
    its count passes `deadline`."""

    def __init__(
        self, index: int, lengths: dict[tuple[int, int], list[int]], deadline_passed: Callable[[Core], None]
    ) -> None:
        self.index = index
        self.uc: Any = unicorn.Uc(unicorn.UC_ARCH_ARM, unicorn.UC_MODE_THUMB | unicorn.UC_MODE_MCLASS)
        self.uc.ctl_set_cpu_model(arm.UC_CPU_ARM_CORTEX_M33)
        self.listener: Callable[[list[int]], None] | None = None
        self.deadline = 0
        self.executed = 0  # instructions of the blocks before the current one
        self.count = 0  # instructions of the current block
        self.address = self.size = 0  # the current block
        self.waited = 0  # cycles spent waiting
        self.block_waited = 0  # `waited` when the current block started (kept while `listener` is set)
        self.waits: list[tuple[int, int]] = []  # clock intervals [start, end) spent waiting
        self.started = index == 0
        self.active = False  # the core unicorn runs now (its PC is live)
        self.resume = 0  # the address (Thumb bit set) to run from next
        self.waiting: str | None = None  # what the core waits for (None: it can run)
        self.wait_pc = 0
        self.wait_instructions = 0
        self._lengths = lengths
        self._deadline_passed = deadline_passed
        self.uc.hook_add(unicorn.UC_HOOK_BLOCK, self._on_block)

    def starts(self, address: int, size: int) -> list[int]:
        """Addresses of the Thumb instructions of the block at `address` (`size` bytes)."""
        starts = self._lengths.get((address, size))
        if starts is None:
            code = bytes(self.uc.mem_read(address, size))
            starts, offset = [], 0
            while offset < size:
                starts.append(address + offset)
                offset += thumb_instruction_length(int.from_bytes(code[offset : offset + 2], "little"))
            self._lengths[(address, size)] = starts
        return starts

    def _on_block(self, uc: Any, address: int, size: int, data: Any) -> None:
        if self.listener is not None:
            self._deliver(self.listener)
        self.executed += self.count
        starts = self._lengths.get((address, size)) or self.starts(address, size)
        self.count = len(starts)
        self.address, self.size = address, size
        if self.executed > self.deadline:
            self._deadline_passed(self)

    def _deliver(self, listener: Callable[[list[int]], None]) -> None:
        """Give `listener` what ran of the block that just ended (`executed` and `block_waited`
        still describe its start), then note `waited` at the start of the next one."""
        if self.count:
            starts = self._lengths[(self.address, self.size)]
            listener(starts if self.count == len(starts) else starts[: self.count])
        self.block_waited = self.waited

    # --- Counts and clock ---

    def pc(self) -> int:
        return int(self.uc.reg_read(arm.UC_ARM_REG_PC))

    def instructions(self) -> int:
        """Instructions executed so far, the current one included (as far as the PC unicorn
        reports in a callback tells)."""
        pc = self.pc()
        if not self.address <= pc < self.address + self.size:
            return self.executed + self.count
        return self.executed + sum(1 for start in self.starts(self.address, self.size) if start <= pc)

    def total_instructions(self) -> int:
        return self.executed + self.count

    def clock(self) -> int:
        return (self.instructions() if self.active else self.total_instructions()) + self.waited

    def stopped_at(self, pc: int) -> None:
        """The core stopped before the instruction at `pc`, inside the current block: count only
        the instructions before it (the block runs again from `pc` on resume)."""
        if self.address <= pc < self.address + self.size:
            self.count = sum(1 for start in self.starts(self.address, self.size) if start < pc)

    def wait_until(self, clock: int) -> None:
        """Advance the clock to `clock` by waiting (nothing if it is there already)."""
        now = self.clock()
        if clock > now:
            self.waits.append((now, clock))
            self.waited += clock - now

    def instructions_between(self, start: int, end: int) -> int:
        """Instructions executed while the clock went from `start` to `end` (so far)."""
        now = self.total_instructions() + self.waited

        def run_by(t: int) -> int:
            t = min(t, now)
            return t - sum(max(0, min(e, t) - s) for s, e in self.waits if s < t)

        return max(0, run_by(end) - run_by(start))

    # --- What stopped it ---

    def hint_before(self, pc: int) -> str | None:
        """The name of the WFE/WFI/YIELD that ends the current block right before `pc`, if one does
        (a stop there is that hint, not an undefined instruction at `pc`)."""
        if pc != self.address + self.size or not self.size:
            return None
        last = self.starts(self.address, self.size)[-1]
        code = bytes(self.uc.mem_read(last, pc - last))
        first = int.from_bytes(code[:2], "little")
        if len(code) == 2:
            return WAIT_HINTS_16.get(first)
        return WAIT_HINTS_32.get(int.from_bytes(code[2:4], "little")) if first == 0xF3AF else None


def sev_addresses(code: list[tuple[int, bytes]]) -> list[int]:
    """Halfword-aligned addresses in `code` (address, bytes) holding SEV or SEV.W (a superset of
    the SEV instructions: data in code sections may look like one, and is never executed)."""
    found = []
    for base, data in code:
        for pattern in (SEV_16.to_bytes(2, "little"), b"".join(h.to_bytes(2, "little") for h in SEV_32)):
            offset = data.find(pattern)
            while offset >= 0:
                if offset % 2 == 0:
                    found.append(base + offset)
                offset = data.find(pattern, offset + 1)
    return sorted(found)
