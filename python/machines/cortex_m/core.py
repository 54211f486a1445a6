"""One Cortex-M33 of a machine model (the RP2350's two, the SSE-300's one): a unicorn instance, its exact instruction count and its clock.

Instructions are counted per translated block: the block hook adds the previous block's
instruction count (Thumb instruction lengths decoded from the code, cached per block). A
block that does not run to its end is counted to where it stopped: unicorn 2.1.4 abandons the
load whose MMIO callback calls emu_stop (PC stays on it, the register is not written, the
load runs again, in a new block, on resume), so a stalled core counts only the instructions
before that load (`stopped_at`). Inside an IT block it does not: the load completes and the
rest of the block runs (PC after it), and the whole block counts. So a listener (the perf
bench's exact count of tp_method_execute: `listen_around`) is given each block's executed
instruction addresses once the next block starts, when it is known how much of it ran.

The core's clock is its instructions plus the cycles it waited (one instruction = one cycle):
time in the boot ROM before core 1 is launched, and waits for the other core (machine.py).
`waits` keeps those intervals, so the instructions a core ran between two clock values can be
found afterwards (`instructions_between`). SysTick and TIMER0 read the clock of the core that
accesses them. Inside an MMIO callback unicorn reports the PC of the block's start, so a
peripheral sees the clock at that block's first instruction.

The block hook is C (block_counter.c, a host library: libblock_counter.so, beside this file): it
keeps the counts in a structure both sides read (`_Counter`), and calls back into Python only
when Python has work to do at a block: `deadline_passed` (the count passed `deadline`), and the
listener's blocks (only those around one address, until the listener asks for every block; those
are recorded in C and handed over in batches, and whatever is pending when emulation stops is
handed over by `flush`, which the machines call after every emu_start).
"""

from __future__ import annotations

import ctypes
import importlib
import os
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from machines.execute_count import thumb_instruction_length

unicorn: Any = importlib.import_module("unicorn")
arm: Any = importlib.import_module("unicorn.arm_const")

# Hint instructions that end a unicorn run on the M33 (what unicorn 2.1.4 does): WFE and YIELD
# raise UC_ERR_INSN_INVALID with PC after them; WFI halts (emu_start returns, PC after it).
WAIT_HINTS_16 = {0xBF10: "YIELD", 0xBF20: "WFE", 0xBF30: "WFI"}
WAIT_HINTS_32 = {0x8001: "YIELD.W", 0x8002: "WFE.W", 0x8003: "WFI.W"}  # second halfword after 0xF3AF
SEV_16, SEV_32 = 0xBF40, (0xF3AF, 0x8004)

LIBRARY = "libblock_counter.so"  # block_counter.c's build (library_path says where it is found)
PACKAGE = Path("machines", "cortex_m")  # this package's directory under an import root
RECORD = 5  # words of a listener's block in block_counter.c's records
RECORDS = 4096  # blocks handed to the listener at once, at most

# A listener: (the executed instruction addresses of a block, the core's `executed` and `waited`
# at its start) -> whether it wants every block from now on (else only those around its address).
Listener = Callable[[Sequence[int], int, int], bool]


class _Counter(ctypes.Structure):
    """block_counter.c's TpBlockCounter: one core's counts, shared with the C block hook."""

    _fields_ = [
        *((name, ctypes.c_uint64) for name in
          ("executed", "count", "address", "size", "deadline", "waited", "block_waited", "watch")),
        *((name, ctypes.c_int32) for name in ("listening", "listen_all", "unread", "reserved")),
        *((name, ctypes.c_void_p) for name in ("deliver", "slow", "mem_read", "records")),
        *((name, ctypes.c_uint64) for name in ("recorded", "record_capacity")),
        ("blocks", ctypes.c_void_p),
        *((name, ctypes.c_uint64) for name in ("capacity", "used")),
    ]  # fmt: skip


def library_path() -> Path:
    """Where block_counter.c's library is: under the first PYTHONPATH directory that holds it as
    machines/cortex_m/libblock_counter.so (a checkout run with bazel-bin/python on PYTHONPATH),
    else beside this file (Bazel's runfiles, where //python/machines/cortex_m puts it)."""
    for directory in os.environ.get("PYTHONPATH", "").split(os.pathsep):
        if directory and (Path(directory) / PACKAGE / LIBRARY).exists():
            return Path(directory) / PACKAGE / LIBRARY
    return Path(__file__).with_name(LIBRARY)


def _library() -> Any:
    """block_counter.c's library, loaded once."""
    global _LOADED
    if _LOADED is None:
        path = library_path()
        if not path.exists():
            raise ImportError(
                f"{LIBRARY} is neither on PYTHONPATH nor beside {__file__}: build //python/machines/cortex_m:{LIBRARY}"
            )
        _LOADED = ctypes.CDLL(str(path.absolute()))
        _LOADED.tp_block_counter_size.restype = ctypes.c_size_t
        if _LOADED.tp_block_counter_size() != ctypes.sizeof(_Counter):
            raise ImportError(f"{path}: its TpBlockCounter is not core.py's _Counter (rebuild it, or update both)")
        _LOADED.tp_block_counter_release.argtypes = [ctypes.POINTER(_Counter)]
        _LOADED.tp_block_counter_cached.argtypes = [ctypes.POINTER(_Counter)]
        _LOADED.tp_block_counter_cached.restype = ctypes.c_uint64
    return _LOADED


_LOADED: Any = None


class Core:
    """Core `index`: unicorn's Cortex-M33 with counting hooks; `deadline_passed(core)` runs once
    its count passes `deadline`."""

    def __init__(
        self, index: int, lengths: dict[tuple[int, int], list[int]], deadline_passed: Callable[[Core], None]
    ) -> None:
        self.index = index
        self.uc: Any = unicorn.Uc(unicorn.UC_ARCH_ARM, unicorn.UC_MODE_THUMB | unicorn.UC_MODE_MCLASS)
        self.uc.ctl_set_cpu_model(arm.UC_CPU_ARM_CORTEX_M33)
        self._listener: Listener | None = None
        self._ran: dict[tuple[int, int, int], tuple[int, ...]] = {}  # (address, size, count) -> what ran
        self._counter = _Counter()
        self._records = (ctypes.c_uint64 * (RECORD * RECORDS))()
        self._counter.records = ctypes.addressof(self._records)
        self._counter.record_capacity = RECORD * RECORDS
        self.waits: list[tuple[int, int]] = []  # clock intervals [start, end) spent waiting
        self.started = index == 0
        self.active = False  # the core unicorn runs now (its PC is live)
        self.resume = 0  # the address (Thumb bit set) to run from next
        self.waiting: str | None = None  # what the core waits for (None: it can run)
        self.wait_pc = 0
        self.wait_instructions = 0
        self._lengths = lengths
        self._deadline_passed = deadline_passed
        self._hook_c()

    def _hook_c(self) -> None:
        """Register block_counter.c's hook on this core, with Python's two callbacks (wrapped by
        the unicorn binding, so an exception in them stops the run and emu_start raises it)."""
        library, binding = _library(), importlib.import_module("unicorn.unicorn_py3.unicorn")
        callback = binding.HOOK_CODE_CFUNC
        # Kept referenced here: C holds only their addresses.
        self._callbacks = tuple(binding.uccallback(self.uc, callback)(f) for f in (self._on_deliver, self._on_slow))
        counter = self._counter
        counter.deliver, counter.slow = (ctypes.cast(f, ctypes.c_void_p).value for f in self._callbacks)
        counter.mem_read = ctypes.cast(binding.uclib.uc_mem_read, ctypes.c_void_p).value
        hook = ctypes.cast(library.tp_block_counter_hook, ctypes.c_void_p)
        data = ctypes.cast(ctypes.pointer(counter), ctypes.c_void_p)
        handle = binding.uc_hook_h()
        everywhere = (ctypes.c_uint64(1), ctypes.c_uint64(0))  # begin > end: every address
        status = binding.uclib.uc_hook_add(
            self.uc._uch, ctypes.byref(handle), unicorn.UC_HOOK_BLOCK, hook, data, *everywhere
        )
        if status != unicorn.UC_ERR_OK:
            raise unicorn.UcError(status)
        weakref.finalize(self, library.tp_block_counter_release, ctypes.pointer(counter))

    # --- The counts, kept by the C hook ---

    @property
    def executed(self) -> int:
        """Instructions of the blocks before the current one."""
        return int(self._counter.executed)

    @executed.setter
    def executed(self, value: int) -> None:
        self._counter.executed = value

    @property
    def count(self) -> int:
        """Instructions of the current block (fewer once it stopped early: `stopped_at`)."""
        return int(self._counter.count)

    @count.setter
    def count(self, value: int) -> None:
        self._counter.count = value

    @property
    def address(self) -> int:
        """The current block's address."""
        return int(self._counter.address)

    @property
    def size(self) -> int:
        """The current block's size in bytes."""
        return int(self._counter.size)

    @property
    def deadline(self) -> int:
        """`deadline_passed` runs at the first block after the count passes it."""
        return int(self._counter.deadline)

    @deadline.setter
    def deadline(self, value: int) -> None:
        self._counter.deadline = value

    @property
    def waited(self) -> int:
        """Cycles spent waiting."""
        return int(self._counter.waited)

    @waited.setter
    def waited(self, value: int) -> None:
        self._counter.waited = value

    @property
    def block_waited(self) -> int:
        """`waited` when the current block started (kept while a listener is set)."""
        return int(self._counter.block_waited)

    @property
    def listener(self) -> Listener | None:
        """What listen_around set, until stop_listening."""
        return self._listener

    def listen_around(self, listener: Listener, address: int) -> None:
        """Give `listener` the blocks that hold `address` or run right before one that does, and
        while it returns True every block (see `Listener`)."""
        self.stop_listening()
        self._listener = listener
        counter = self._counter
        counter.watch = address
        counter.listen_all = False
        counter.listening = True

    def stop_listening(self) -> None:
        """The listener gets what is pending, and nothing after it."""
        self.flush()
        self._listener = None
        self._counter.listening = False
        self._counter.recorded = 0

    def flush(self) -> None:
        """Hand the listener the blocks recorded for it (emulation stopped, or they filled up)."""
        counter, listener = self._counter, self._listener
        used = counter.recorded
        if not used:
            return
        counter.recorded = 0
        if listener is None:
            return
        records = iter(self._records[:used])
        ran = self._ran
        more = False
        for address, size, count, executed, waited in zip(records, records, records, records, records, strict=True):
            starts = ran.get((address, size, count))
            if starts is None:
                starts = ran[(address, size, count)] = tuple(self.starts(address, size)[:count])
            more = listener(starts, executed, waited)
            if self._listener is not listener:
                return
        counter.listen_all = more is True

    def cached_blocks(self) -> int:
        """The distinct blocks (address, size) the C hook has counted."""
        return int(_library().tp_block_counter_cached(ctypes.byref(self._counter)))

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

    def _on_deliver(self, uc: Any, address: int, size: int, data: Any) -> None:
        """The C hook, at the block at `address`: the listener's records are due."""
        self.flush()

    def _on_slow(self, uc: Any, address: int, size: int, data: Any) -> None:
        """The C hook, at the block at `address` (now the current block): it could not read the
        block's code (reading it here raises unicorn's error), or the count passed the deadline."""
        counter = self._counter
        if counter.unread:
            counter.unread = 0
            counter.count = len(self.starts(address, size))
        if counter.executed > counter.deadline:
            self._deadline_passed(self)

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
