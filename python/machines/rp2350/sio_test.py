"""Unit tests of sio.py: the SIO's registers as each core sees them, its FIFOs and spinlocks in
time (each core at its own clock), when a poll counts as waiting, and core 1's launch through
the boot ROM's handshake. A stand-in for the machine records what the SIO asks of it."""

from __future__ import annotations

import sys

import pytest

from machines.cortex_m.register_block import Unmodelled
from machines.rp2350.core1_launch import Launch
from machines.rp2350.sio import CPUID, FIFO_RD, FIFO_ST, FIFO_WR, RDY, ROE, SPINLOCK0, SPINLOCK_ST, VLD, WOF, Sio

VT, SP, ENTRY = 0x10000000, 0x20041000, 0x10000235


class Cores:
    """The machine as the SIO sees it: each core's clock, its place in the code, and a log."""

    def __init__(self) -> None:
        self.current = 0
        self.clocks = [0, 0]
        self.sites = [(0x10000100, 1), (0x10000200, 1)]
        self.stalls: list[tuple[int, str]] = []
        self.woken: list[tuple[int, int]] = []
        self.signals: list[int] = []
        self.launches: list[tuple[Launch, int]] = []

    def clock(self, core: int) -> int:
        return self.clocks[core]

    def site(self, core: int) -> tuple[int, int]:
        return self.sites[core]

    def advance(self, core: int, clock: int) -> None:
        self.clocks[core] = clock

    def stall(self, core: int, what: str) -> None:
        self.stalls.append((core, what))

    def woke(self, core: int, clock: int) -> None:
        self.woken.append((core, clock))

    def signalled(self, core: int) -> None:
        self.signals.append(core)

    def launch(self, launch: Launch, clock: int) -> None:
        self.launches.append((launch, clock))


class Bus:
    """Accesses by one core at a given clock, in a new block each time (a poll loop)."""

    def __init__(self) -> None:
        self.cores = Cores()
        self.sio = Sio(self.cores)

    def on(self, core: int, clock: int | None = None) -> Bus:
        self.cores.current = core
        if clock is not None:
            self.cores.clocks[core] = clock
        pc, block = self.cores.sites[core]
        self.cores.sites[core] = (pc, block + 1)
        return self

    def read(self, offset: int) -> int:
        return self.sio.read(offset)

    def write(self, offset: int, value: int) -> None:
        self.sio.write(offset, value)

    def launched(self) -> Bus:
        """Core 0 runs the launch handshake (as pico-sdk does) at clock 100."""
        self.on(0, 100)
        for word in [0, 0, 1, VT, SP, ENTRY]:
            if word == 0:
                while self.read(FIFO_ST) & VLD:
                    self.read(FIFO_RD)
            self.write(FIFO_WR, word)
            assert self.read(FIFO_RD) == word
        return self


def test_cpuid_tells_the_cores_apart_and_other_registers_are_unmodelled() -> None:
    bus = Bus()
    assert bus.on(0).read(CPUID) == 0
    assert bus.on(1).read(CPUID) == 1
    with pytest.raises(Unmodelled, match="read of unmodelled SIO register 0xd0000004"):
        bus.read(0x004)  # GPIO_IN
    with pytest.raises(Unmodelled, match="write to unmodelled SIO register 0xd0000010"):
        bus.write(0x010, 1)  # GPIO_OUT
    with pytest.raises(Unmodelled, match="read of unmodelled SIO register 0xd0000054"):
        bus.read(FIFO_WR)  # write-only


def test_the_boot_rom_greets_core0_and_launches_core1_on_the_handshake() -> None:
    bus = Bus()
    assert bus.on(0).read(FIFO_ST) == VLD | RDY  # the ROM's handshake 0 is waiting
    bus.launched()
    assert bus.cores.launches == [(Launch(VT, SP, ENTRY), 100)]
    assert bus.read(FIFO_ST) == RDY


def test_fifos_are_four_deep_with_sticky_errors() -> None:
    bus = Bus().launched()
    for word in range(1, 5):
        assert bus.on(0).read(FIFO_ST) & RDY
        bus.write(FIFO_WR, word)
    assert bus.read(FIFO_ST) == 0  # full: RDY clear
    bus.write(FIFO_WR, 5)  # dropped
    assert bus.read(FIFO_ST) == WOF
    bus.write(FIFO_ST, 0)
    assert bus.read(FIFO_ST) == 0
    assert [bus.on(1, 200).read(FIFO_RD) for _ in range(4)] == [1, 2, 3, 4]
    assert bus.read(FIFO_RD) == 0
    assert bus.read(FIFO_ST) == ROE | RDY
    assert bus.cores.signals.count(0) == 6 + 4  # the handshake's words and the four pushes


def test_a_word_pushed_in_a_readers_future_is_not_there_yet() -> None:
    bus = Bus().launched()
    bus.on(0, 1000).write(FIFO_WR, 0xAB)
    assert bus.cores.woken[-1] == (1, 1000)
    assert bus.on(1, 500).read(FIFO_ST) == RDY
    assert bus.read(FIFO_RD) == 0  # empty at its clock: ROE
    bus.write(FIFO_ST, 0)
    # Polling: the second identical read (same place, later block) waits until the word came.
    assert bus.on(1).read(FIFO_ST) == RDY
    assert bus.on(1).read(FIFO_ST) == VLD | RDY
    assert bus.cores.clocks[1] == 1000
    assert bus.read(FIFO_RD) == 0xAB
    assert not bus.cores.stalls


def test_a_full_fifo_emptied_in_the_writers_future_is_still_full() -> None:
    bus = Bus().launched()
    for word in range(4):
        bus.on(0, 200).write(FIFO_WR, word)
    bus.on(1, 2000).read(FIFO_RD)  # core 1 frees a slot at its clock 2000
    assert bus.cores.woken[-1] == (0, 2000)
    assert bus.on(0, 1500).read(FIFO_ST) == 0
    assert bus.on(0).read(FIFO_ST) == RDY  # polled again: waits until 2000
    assert bus.cores.clocks[0] == 2000


def test_a_poll_only_the_other_core_can_end_stalls() -> None:
    bus = Bus().launched()
    assert bus.on(1, 300).read(FIFO_ST) == RDY
    assert not bus.cores.stalls
    bus.cores.current = 1  # the same block again: not a loop yet
    assert bus.read(FIFO_ST) == RDY and not bus.cores.stalls
    bus.on(1).read(FIFO_ST)
    assert bus.cores.stalls == [(1, "SIO FIFO_ST (0x2: its RX FIFO is empty, its TX FIFO has room)")]
    assert bus.cores.clocks[1] == 300


def test_a_change_between_two_reads_is_not_a_poll() -> None:
    bus = Bus().launched()
    bus.on(0, 300).read(FIFO_ST)
    bus.write(FIFO_WR, 1)
    bus.on(0).read(FIFO_ST)  # same value (RDY), but core 0 pushed in between
    bus.on(0).write(FIFO_WR, 2)
    assert not bus.cores.stalls


def test_spinlocks_are_claimed_released_and_seen_in_time() -> None:
    bus = Bus().launched()
    lock = SPINLOCK0 + 4 * 3
    assert bus.on(0, 100).read(lock) == 1 << 3
    assert bus.read(SPINLOCK_ST) == 1 << 3
    assert bus.on(1, 50).read(lock) == 0
    bus.on(1).read(lock)
    assert bus.cores.stalls == [(1, "SIO SPINLOCK3 (held by core 0)")]
    bus.on(0, 300).write(lock, 0)
    assert bus.cores.woken[-1] == (1, 300) and bus.cores.signals[-1] == 0
    assert bus.read(SPINLOCK_ST) == 0
    assert bus.on(1, 100).read(lock) == 0  # released in its future
    assert bus.on(1).read(lock) == 1 << 3
    assert bus.cores.clocks[1] == 300


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
