"""Core 1 in the RP2350 boot ROM, waiting to be launched: the ROM's handshake as a state machine.

After reset core 1 runs the boot ROM's holding pen (RP2350 datasheet, "Launching code on
processor core 1"; the ROM's core 1 boot path in raspberrypi/pico-bootrom-rp2350,
src/main/arm/arm8_bootrom_rt0.S). What it does, word by word on the SIO FIFOs:

1. Handshake: drain its RX FIFO (discard every word in it), push 0 on its TX FIFO (waiting
   while that is full), then wait for a word.
2. A word 0, at any step, starts the handshake again (drain, push 0, wait).
3. The first nonzero word must be 1, else the handshake starts again. The ROM echoes it.
4. The next three nonzero words are the vector table (written to VTOR), the stack pointer
   and the entry point; the ROM echoes each one, and after echoing the entry point it jumps to
   it (`blx`: the entry needs its Thumb bit).

So the ROM echoes every word it accepts and answers a word that breaks the sequence with
the 0 of a new handshake. Core 0's side (pico-sdk's multicore_launch_core1_raw) sends 0, 0,
1, vector table, stack pointer, entry, pops an echo after each word, drains its own RX FIFO
before each 0 and starts over when an echo differs: the two leading 0s resynchronise the
ROM whatever state it is in. As in the ROM, the state machine needs no particular prefix:
right after a handshake 0, the words 1, vector table, stack pointer, entry launch core 1.

`BootRom.advance(port)` runs the ROM as far as it can (until it waits for a word or for room
in its TX FIFO) on a `Port`, core 1's view of the FIFOs; it returns the `Launch` when the ROM
jumps. No unicorn here: boot_rom_test.py-style unit tests drive it (core1_launch_test.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

STEPS = ("the word 1", "the vector table", "the stack pointer", "the entry point")


class Port(Protocol):
    """Core 1's view of the inter-core FIFOs."""

    def can_receive(self) -> bool: ...  # a word waits in core 1's RX FIFO

    def receive(self) -> int: ...

    def can_send(self) -> bool: ...  # core 1's TX FIFO has room

    def send(self, word: int) -> None: ...


@dataclass(frozen=True)
class Launch:
    """What core 1 starts with: VTOR, SP (MSP) and the entry point (the ROM's `blx` target)."""

    vector_table: int
    stack_pointer: int
    entry: int


class BootRom:
    """The ROM's holding pen on core 1. `received` keeps the last words it took from its FIFO."""

    def __init__(self) -> None:
        self.handshakes = 0  # handshakes begun (each sends one 0)
        self.step = 0  # index into STEPS of the word it waits for
        self.words: list[int] = []  # the words accepted since the handshake: 1, VTOR, SP, entry
        self.pending: int | None = None  # a word it waits to push (its TX FIFO is full)
        self.launched: Launch | None = None
        self.received: list[int] = []
        self._drain = True  # the next thing to do is a handshake

    def advance(self, port: Port) -> Launch | None:
        """Run until the ROM waits; the Launch once it jumps to the entry point (None before)."""
        while self.launched is None:
            if self._drain:
                while port.can_receive():
                    self._note(port.receive())
                self._drain, self.step, self.words = False, 0, []
                self.handshakes += 1
                self.pending = 0
            if self.pending is not None:
                if not port.can_send():
                    return None
                port.send(self.pending)
                self.pending = None
                if len(self.words) == len(STEPS):
                    vector_table, stack_pointer, entry = self.words[1:]
                    self.launched = Launch(vector_table, stack_pointer, entry)
                    return self.launched
            if not port.can_receive():
                return None
            word = self._note(port.receive())
            if word == 0 or (self.step == 0 and word != 1):
                self._drain = True
                continue
            self.words.append(word)
            self.step += 1
            self.pending = word  # the echo
        return None

    def _note(self, word: int) -> int:
        self.received = [*self.received[-7:], word]
        return word

    def describe(self) -> str:
        """Where the handshake stands, for a failure message."""
        if self.launched is not None:
            return "the boot ROM launched core 1"
        if self.pending is not None:
            what = "the 0 of a handshake" if not self.words else f"the echo 0x{self.pending:x}"
            state = f"waits to push {what} (its TX FIFO, core 0's RX FIFO, is full: core 0 does not pop it)"
        else:
            state = f"waits for {STEPS[self.step]}"
        accepted = ", ".join(f"0x{word:x}" for word in self.words) or "none"
        last = ", ".join(f"0x{word:x}" for word in self.received) or "none"
        return (
            f"core 1 is still in the boot ROM, in the launch handshake: it {state}; words accepted since "
            f"its last handshake 0: {accepted}; last words received: {last}; handshakes: {self.handshakes}"
        )


def problem(launch: Launch, ram: tuple[int, int]) -> str | None:
    """Why the model will not start core 1 with `launch` (None: it will). The ROM would jump
    anyway: to an entry without the Thumb bit the `blx` faults (INVSTATE), and a stack outside
    SRAM (`ram`: base, size) faults at the first push; the model names the value instead."""
    if not launch.entry & 1:
        return (
            f"core 1 launch: the entry point 0x{launch.entry:08x} lacks the Thumb bit (bit 0); the boot ROM's "
            "`blx` to it would fault"
        )
    if not ram[0] < launch.stack_pointer <= ram[0] + ram[1]:
        return (
            f"core 1 launch: the stack pointer 0x{launch.stack_pointer:08x} is not in SRAM "
            f"(0x{ram[0]:08x}..0x{ram[0] + ram[1]:08x})"
        )
    return None
