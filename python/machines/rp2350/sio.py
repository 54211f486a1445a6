"""The RP2350's SIO (0xd0000000) as two cores see it: CPUID, the inter-core FIFOs and the spinlocks.

Registers (RP2350 datasheet, "SIO"; offsets from pico-sdk's hardware/regs/sio.h; the SIO has
no atomic aliases): CPUID (0x000: 0 on core 0, 1 on core 1), FIFO_ST (0x050: VLD bit 0 =
this core's RX FIFO holds a word, RDY bit 1 = its TX FIFO has room, WOF bit 2 / ROE bit 3
sticky: a write to a full FIFO / a read of an empty one; any write to FIFO_ST clears them),
FIFO_WR (0x054: push to the other core), FIFO_RD (0x058: pop; empty reads 0 and sets ROE),
SPINLOCK_ST (0x05c: the held locks' bitmap) and SPINLOCK0..31 (0x100..0x17c: a read claims a
free lock and returns 1 << n, or returns 0 if the lock is held; a write releases it). Every
other offset (GPIO, doorbells, interpolators, ...) is unmodelled: the firmware touches none.
The FIFOs are 4 words deep on the RP2350 (pico-sdk's multicore.h; the register description in
sio.h still says 8, the RP2040's depth).

Time: the cores run one at a time (machine.py), each with its own clock. A FIFO word carries
the writer's clock at the push, and a pop the reader's clock, so each core sees the FIFOs as
they are at its own clock: a word pushed in its future is not there yet, a slot freed in its
future is still full. The same holds for a spinlock released in a core's future.

Waiting: a core that reads the same SIO register from the same place in its code twice in a
row (in two blocks, no SIO change by it in between) with the same value spins on it. If the
value changes at a known time (a word or a free slot from its future), the core's clock
advances to that time, counted as waiting, and the read returns the new value. Otherwise only
the other core can change it: the core stalls (`Cores.stall`: the machine stops it on that
read, which runs again when it resumes; cortex_m/core.py) until the other core pushes, pops or
releases a lock (`Cores.woke`, with the time of that event). A stalled read has no side
effect (no ROE, no claim). One read of FIFO_ST alone says nothing about
waiting: it holds both VLD and RDY, and a core checking RDY before a push must not wait for
VLD. Before core 1 is launched, the boot ROM's handshake (core1_launch.py) answers core 0.
"""

from __future__ import annotations

from collections import deque
from typing import Protocol

from machines.cortex_m.register_block import Block, Unmodelled
from machines.rp2350.core1_launch import BootRom, Launch

BASE = 0xD0000000
DEPTH = 4
CPUID, FIFO_ST, FIFO_WR, FIFO_RD, SPINLOCK_ST = 0x000, 0x050, 0x054, 0x058, 0x05C
SPINLOCK0, SPINLOCKS = 0x100, 32
VLD, RDY, WOF, ROE = 1, 2, 4, 8
NAMES = {CPUID: "CPUID", FIFO_ST: "FIFO_ST", FIFO_WR: "FIFO_WR", FIFO_RD: "FIFO_RD", SPINLOCK_ST: "SPINLOCK_ST"}
NAMES |= {SPINLOCK0 + 4 * n: f"SPINLOCK{n}" for n in range(SPINLOCKS)}


class Cores(Protocol):
    """What the SIO needs of the machine."""

    current: int  # the core whose access this is

    def clock(self, core: int) -> int: ...

    def site(self, core: int) -> tuple[int, int]: ...  # where in its code it is: (PC, block number)

    def advance(self, core: int, clock: int) -> None: ...  # a wait that ends at a known time

    def stall(self, core: int, what: str) -> None: ...  # wait for the other core

    def woke(self, core: int, clock: int) -> None: ...  # what `core` may wait for changed at `clock`

    def signalled(self, core: int) -> None: ...  # `core` pushed or released a lock

    def launch(self, launch: Launch, clock: int) -> None: ...


class Fifo:
    """One direction: words with the writer's clock at the push; the reader's clock at its pops."""

    def __init__(self) -> None:
        self.words: deque[tuple[int, int]] = deque()
        self.pops: deque[int] = deque(maxlen=DEPTH)

    def visible(self, now: int) -> bool:
        return bool(self.words) and self.words[0][1] <= now

    def occupied(self, now: int) -> int:
        """Words in the FIFO at the writer's clock `now` (pops after `now` have not happened)."""
        return len(self.words) + sum(1 for pop in self.pops if pop > now)

    def room_at(self, now: int) -> int | None:
        """When the writer (at `now`) finds room: now, a known later pop, or None (a pop not yet made)."""
        missing = self.occupied(now) - DEPTH + 1
        if missing <= 0:
            return now
        later = [pop for pop in self.pops if pop > now]
        return later[missing - 1] if len(later) >= missing else None

    def push(self, word: int, now: int) -> None:
        self.words.append((word, now))

    def pop(self, now: int) -> int:
        word, _ = self.words.popleft()
        self.pops.append(now)
        return word


class Sio(Block):
    """The SIO block, shared by both cores; `cores.current` says whose access it is."""

    def __init__(self, cores: Cores) -> None:
        super().__init__("SIO", BASE, dict.fromkeys(NAMES, 0), dict(NAMES), atomic_aliases=False)
        self.cores = cores
        self.rx = (Fifo(), Fifo())  # rx[c]: the FIFO core c reads (the other core's TX)
        self.sticky = [0, 0]  # WOF/ROE per core
        self.holder: dict[int, int] = {}  # lock -> the core holding it
        self.released: dict[int, int] = {}  # lock -> the clock of its last release
        self.changes = [0, 0]  # per core: SIO changes it made or saw (a spin has none)
        self.polls: list[tuple[int, int, int, int, int] | None] = [None, None]  # last read of each core
        self.rom = BootRom()  # core 1 in the boot ROM, until it launches it
        self.rom_clock = 0
        self._run_rom(0)

    # --- Bus access ---

    def read(self, offset: int) -> int:
        core = self.cores.current
        if offset == CPUID:
            return core
        if offset == SPINLOCK_ST:
            return sum(1 << lock for lock in self.holder)
        if offset not in self.registers or offset == FIFO_WR:
            raise Unmodelled(self.base + offset, "read of unmodelled SIO register")
        now = self.cores.clock(core)
        value = self._value(core, offset, now)
        if self._spins(core, offset, value):
            later = self._changes_at(core, offset, now)
            if later is None:
                self.cores.stall(core, self.describe_wait(core, offset, value))
                return value  # dropped (the load runs again on resume), or in an IT block seen: polled again
            self.cores.advance(core, later)
            now = later
        return self._take(core, offset, now)

    def write(self, offset: int, value: int) -> None:
        core = self.cores.current
        if offset not in self.registers:
            raise Unmodelled(self.base + offset, "write to unmodelled SIO register")
        now = self.cores.clock(core)
        if offset == FIFO_ST:
            self.sticky[core] = 0
            self.changes[core] += 1
        elif offset == FIFO_WR:
            self._push(core, value, now)
        elif offset >= SPINLOCK0:
            self._release((offset - SPINLOCK0) // 4, core, now)
        # CPUID, SPINLOCK_ST and FIFO_RD are read-only: the write is ignored, as on the chip.

    # --- Values ---

    def _value(self, core: int, offset: int, now: int) -> int:
        """What a read returns at `now`, without its side effects."""
        if offset == FIFO_ST:
            vld = VLD if self.rx[core].visible(now) else 0
            rdy = RDY if self.rx[1 - core].room_at(now) == now else 0
            return vld | rdy | self.sticky[core]
        if offset == FIFO_RD:
            return self.rx[core].words[0][0] if self.rx[core].visible(now) else 0
        lock = (offset - SPINLOCK0) // 4
        return 1 << lock if self._free(lock, now) else 0

    def _free(self, lock: int, now: int) -> bool:
        return lock not in self.holder and self.released.get(lock, 0) <= now

    def _take(self, core: int, offset: int, now: int) -> int:
        """The read at `now`, with its side effects: a pop, a claim, the ROE flag."""
        if offset == FIFO_ST:
            return self._value(core, offset, now)
        if offset == FIFO_RD:
            fifo = self.rx[core]
            if not fifo.visible(now):
                self.sticky[core] |= ROE
                return 0
            word = fifo.pop(now)
            self.changes[core] += 1
            self.changes[1 - core] += 1
            self.cores.woke(1 - core, now)
            self._run_rom(now)
            return word
        lock = (offset - SPINLOCK0) // 4
        if not self._free(lock, now):
            return 0
        self.holder[lock] = core
        self.changes[core] += 1
        return 1 << lock

    def _push(self, core: int, word: int, now: int) -> None:
        fifo = self.rx[1 - core]
        if fifo.room_at(now) != now:
            self.sticky[core] |= WOF
            return
        fifo.push(word, now)
        self.changes[core] += 1
        self.changes[1 - core] += 1
        self.cores.signalled(core)
        self.cores.woke(1 - core, now)
        self._run_rom(now)

    def _release(self, lock: int, core: int, now: int) -> None:
        if self.holder.pop(lock, None) is None:
            return
        self.released[lock] = now
        self.changes[0] += 1
        self.changes[1] += 1
        self.cores.signalled(core)
        self.cores.woke(1 - core, now)

    # --- Waiting ---

    def _spins(self, core: int, offset: int, value: int) -> bool:
        """Whether this read repeats the core's last SIO read: same place in the code, a later
        block, same register and value, no SIO change in between."""
        pc, block = self.cores.site(core)
        last = self.polls[core]
        self.polls[core] = (pc, block, offset, value, self.changes[core])
        if last is None:
            return False
        return last[0] == pc and last[1] != block and last[2:] == (offset, value, self.changes[core])

    def _changes_at(self, core: int, offset: int, now: int) -> int | None:
        """The clock after `now` at which the value read changes by itself (something already
        done by the other core, in the reader's future), or None."""
        times: list[int | None] = []
        if offset in (FIFO_ST, FIFO_RD) and self.rx[core].words:
            times.append(self.rx[core].words[0][1])
        if offset == FIFO_ST:
            times.append(self.rx[1 - core].room_at(now))
        if offset >= SPINLOCK0:
            lock = (offset - SPINLOCK0) // 4
            times.append(self.released.get(lock) if lock not in self.holder else None)
        later = [t for t in times if t is not None and t > now]
        return min(later) if later else None

    def describe_wait(self, core: int, offset: int, value: int) -> str:
        if offset == FIFO_ST:
            rx = "holds a word" if value & VLD else "is empty"
            tx = "has room" if value & RDY else "is full"
            return f"SIO FIFO_ST (0x{value:x}: its RX FIFO {rx}, its TX FIFO {tx})"
        if offset == FIFO_RD:
            return "SIO FIFO_RD (its RX FIFO is empty)"
        lock = (offset - SPINLOCK0) // 4
        holder = self.holder.get(lock)
        return f"SIO SPINLOCK{lock} (held by core {holder})"

    # --- Core 1 in the boot ROM ---

    def _run_rom(self, now: int) -> None:
        if self.rom.launched is not None:
            return
        self.rom_clock = max(self.rom_clock, now)
        launch = self.rom.advance(_RomPort(self))
        if launch is not None:
            self.cores.launch(launch, self.rom_clock)


class _RomPort:
    """Core 1's FIFOs as the boot ROM sees them, at the ROM's clock."""

    def __init__(self, sio: Sio) -> None:
        self.sio = sio

    def can_receive(self) -> bool:
        return bool(self.sio.rx[1].words)

    def receive(self) -> int:
        sio = self.sio
        sio.rom_clock = max(sio.rom_clock, sio.rx[1].words[0][1])
        return sio.rx[1].pop(sio.rom_clock)

    def can_send(self) -> bool:
        return self.sio.rx[0].room_at(self.sio.rom_clock) is not None

    def send(self, word: int) -> None:
        sio = self.sio
        room = sio.rx[0].room_at(sio.rom_clock)
        assert room is not None
        sio.rom_clock = room
        sio.rx[0].push(word, sio.rom_clock)
        sio.changes[0] += 1
        sio.cores.woke(0, sio.rom_clock)
