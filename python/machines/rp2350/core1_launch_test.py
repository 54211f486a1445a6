"""Unit tests of core1_launch.py: the boot ROM's launch handshake on core 1, driven word by
word through two 4-deep FIFOs, by core 0 sides that follow the protocol and by ones that do not."""

from __future__ import annotations

import sys
from collections import deque

import pytest

from machines.rp2350.core1_launch import BootRom, Launch, problem

DEPTH = 4  # the RP2350's inter-core FIFOs (pico-sdk multicore.h: 4 deep; the RP2040's are 8)
VT, SP, ENTRY = 0x10000000, 0x20041000, 0x10000235
SRAM = (0x20000000, 520 * 1024)


class Chip:
    """Core 0's side: it pushes and pops; the ROM (core 1) runs after each FIFO change."""

    def __init__(self) -> None:
        self.to_core1: deque[int] = deque()
        self.to_core0: deque[int] = deque()
        self.sent_by_rom: list[int] = []
        self.rom = BootRom()
        self.launch: Launch | None = None
        self._run_rom()

    # core 1's Port
    def can_receive(self) -> bool:
        return bool(self.to_core1)

    def receive(self) -> int:
        return self.to_core1.popleft()

    def can_send(self) -> bool:
        return len(self.to_core0) < DEPTH

    def send(self, word: int) -> None:
        self.sent_by_rom.append(word)
        self.to_core0.append(word)

    def _run_rom(self) -> None:
        launch = self.rom.advance(self)
        if launch is not None:
            assert self.launch is None, "the ROM launched twice"
            self.launch = launch

    # core 0
    def push(self, word: int) -> None:
        assert len(self.to_core1) < DEPTH, "core 0 wrote a full FIFO"
        self.to_core1.append(word)
        self._run_rom()

    def pop(self) -> int | None:
        if not self.to_core0:
            return None
        word = self.to_core0.popleft()
        self._run_rom()
        return word

    def drain(self) -> None:
        while self.pop() is not None:
            pass


def sdk_launch(chip: Chip, sequence: list[int], max_restarts: int = 8) -> list[int]:
    """pico-sdk's multicore_launch_core1_raw (with a restart limit, as platforms/pico2w/core1.c
    has): every echo it reads."""
    echoes: list[int] = []
    step = restarts = 0
    while step < len(sequence):
        if sequence[step] == 0:
            chip.drain()
        chip.push(sequence[step])
        echo = chip.pop()
        assert echo is not None, "the ROM did not answer"
        echoes.append(echo)
        if echo == sequence[step]:
            step += 1
        else:
            restarts += 1
            if restarts > max_restarts:
                break
            step = 0
    return echoes


def push_and_pop(chip: Chip, words: list[int]) -> list[int | None]:
    """A core 0 that pushes each word and pops one answer, checking nothing."""
    answers = []
    for word in words:
        chip.push(word)
        answers.append(chip.pop())
    return answers


def test_the_rom_greets_with_a_handshake_zero() -> None:
    chip = Chip()
    assert list(chip.to_core0) == [0]
    assert "waits for the word 1" in chip.rom.describe()


def test_the_sdk_sequence_launches_core1_with_its_vector_table_stack_and_entry() -> None:
    chip = Chip()
    echoes = sdk_launch(chip, [0, 0, 1, VT, SP, ENTRY])
    assert echoes == [0, 0, 1, VT, SP, ENTRY]
    assert chip.sent_by_rom == [0, 0, 0, 1, VT, SP, ENTRY]  # its greeting, then one answer a word
    assert chip.launch == Launch(VT, SP, ENTRY)
    assert chip.rom.describe() == "the boot ROM launched core 1"


def test_words_after_the_launch_are_left_to_core1s_program() -> None:
    chip = Chip()
    sdk_launch(chip, [0, 0, 1, VT, SP, ENTRY])
    chip.push(0x1234)
    assert list(chip.to_core1) == [0x1234]
    assert chip.pop() is None  # the ROM no longer echoes


@pytest.mark.parametrize(
    ("sequence", "answers", "waits_for"),
    [
        # A third word other than 1 restarts the handshake: every later word is answered by 0.
        ([0, 0, 2, VT, SP, ENTRY], [0, 0, 0, 0, 0, 0], "the word 1"),
        # 0 in place of the stack pointer: a new handshake; the entry alone is not the word 1.
        ([0, 0, 1, VT, 0, ENTRY], [0, 0, 1, VT, 0, 0], "the word 1"),
        # A cut sequence: the ROM waits for the entry point.
        ([0, 0, 1, VT, SP], [0, 0, 1, VT, SP], "the entry point"),
        # The vector table twice: the second one is taken as the stack pointer, the stack
        # pointer as the entry; the real entry then arrives after the ROM has jumped.
        ([0, 0, 1, VT, VT], [0, 0, 1, VT, VT], "the entry point"),
    ],
)
def test_a_wrong_sequence_does_not_launch(sequence: list[int], answers: list[int], waits_for: str) -> None:
    chip = Chip()
    chip.drain()  # the greeting
    assert push_and_pop(chip, sequence) == answers
    assert chip.launch is None
    assert f"waits for {waits_for}" in chip.rom.describe()


def test_a_checking_host_that_sends_1_first_reads_the_greeting_not_an_echo() -> None:
    # Without draining first, core 0 pops the ROM's greeting 0 as the "echo" of its 1: a host
    # that checks echoes starts over (and then launches); the ROM itself accepted the 1.
    chip = Chip()
    assert push_and_pop(chip, [1]) == [0]
    assert "waits for the vector table" in chip.rom.describe()
    assert chip.launch is None
    assert sdk_launch(chip, [0, 0, 1, VT, SP, ENTRY])[-1] == ENTRY
    assert chip.launch == Launch(VT, SP, ENTRY)


def test_after_a_handshake_zero_the_rom_needs_no_prefix() -> None:
    # As in the ROM's code: a handshake 0 followed by 1, VTOR, SP, entry launches.
    chip = Chip()
    chip.drain()
    assert push_and_pop(chip, [1, VT, SP, ENTRY]) == [1, VT, SP, ENTRY]
    assert chip.launch == Launch(VT, SP, ENTRY)


def test_stale_words_are_resynchronised_by_the_sdk_sequence() -> None:
    chip = Chip()
    chip.push(0xDEAD)  # a word left over from before: not 1, so the ROM starts a new handshake
    chip.push(0xBEEF)
    assert list(chip.to_core0) == [0, 0, 0]
    assert sdk_launch(chip, [0, 0, 1, VT, SP, ENTRY]) == [0, 0, 1, VT, SP, ENTRY]
    assert chip.launch == Launch(VT, SP, ENTRY)


def test_a_handshake_drains_words_the_rom_has_not_read() -> None:
    chip = Chip()
    for word in [5, 6, 7]:  # not the word 1: each is answered by a new handshake's 0
        chip.push(word)
    assert list(chip.to_core0) == [0, 0, 0, 0]  # the greeting and three answers: core 0's RX is full
    chip.push(1)
    assert "waits to push the echo 0x1" in chip.rom.describe()
    for word in [0, 1, VT]:  # queued behind the ROM's blocked echo
        chip.push(word)
    chip.drain()
    # Unblocked, the ROM pushes its echo, takes the 0, and its handshake drains 1 and VT unread.
    assert chip.sent_by_rom[-2:] == [1, 0]
    assert list(chip.to_core1) == []
    assert chip.rom.received[-3:] == [0, 1, VT]
    assert "waits for the word 1" in chip.rom.describe()
    assert chip.launch is None


def test_the_rom_waits_while_core0_does_not_pop() -> None:
    chip = Chip()
    for word in [1, VT, SP]:  # the greeting and three echoes fill core 0's RX FIFO ...
        chip.push(word)
    chip.push(ENTRY)
    assert chip.launch is None  # ... so the ROM cannot echo the entry point, and does not jump
    assert "waits to push the echo 0x10000235" in chip.rom.describe()
    chip.drain()
    assert chip.launch == Launch(VT, SP, ENTRY)


@pytest.mark.parametrize(
    ("launch", "message"),
    [
        (Launch(VT, SP, ENTRY), None),
        (Launch(VT, SP, ENTRY & ~1), "entry point 0x10000234 lacks the Thumb bit"),
        (Launch(VT, 0x10004000, ENTRY), "stack pointer 0x10004000 is not in SRAM"),
        (Launch(VT, 0x20000000, ENTRY), "stack pointer 0x20000000 is not in SRAM"),
        (Launch(VT, 0x20082000, ENTRY), None),  # the top of SCRATCH_Y: a full-descending stack's start
    ],
)
def test_the_model_refuses_an_entry_without_thumb_bit_or_a_stack_outside_sram(
    launch: Launch, message: str | None
) -> None:
    found = problem(launch, SRAM)
    if message is None:
        assert found is None
    else:
        assert found is not None and message in found


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
