"""Unit tests of boot_rom.py: images the RP2350 boot ROM enters, and images it refuses, on
hand-assembled flash bytes (the first one laid out as platforms/pico2w/boot_block.c is)."""

from __future__ import annotations

import struct
import sys

import pytest

from machines.rp2350.boot_rom import BootError, Entry, entry

BASE = 0x10000000
START, END = 0xFFFFDED3, 0xAB123579
IMAGE_TYPE_S_ARM_RP2350 = 0x10210142  # EXE, Secure, Arm, RP2350; item 0x42 of 1 word
LAST_1 = 0x000001FF  # LAST: 1 word of items before it


def image(*words: int, at: int = 0x40, size: int = 0x200) -> bytes:
    """A flash image: a vector table (SP, reset) then `words` at offset `at`."""
    data = bytearray(size)
    struct.pack_into("<II", data, 0, 0x20080000, BASE + 0x101)
    struct.pack_into(f"<{len(words)}I", data, at, *words)
    return bytes(data)


def test_the_boot_block_enters_through_the_vector_table() -> None:
    assert entry(image(START, IMAGE_TYPE_S_ARM_RP2350, LAST_1, 0, END), BASE) == Entry(vector_table=BASE)


def test_an_image_without_a_block_is_refused() -> None:
    with pytest.raises(BootError, match=r"no block \(start marker 0xffffded3\) in the first 4096 bytes"):
        entry(image(), BASE)


def test_a_block_past_the_search_window_is_not_found() -> None:
    far = image(START, IMAGE_TYPE_S_ARM_RP2350, LAST_1, 0, END, at=0x1000, size=0x1100)
    with pytest.raises(BootError, match="no block"):
        entry(far, BASE)


@pytest.mark.parametrize(
    ("flags", "described"),
    [
        (0x1121, "a Secure RISC-V executable for the RP2350"),
        (0x0021, "a Secure Arm executable for the RP2040"),
        (0x1002, "not an executable"),
    ],
)
def test_an_image_type_the_chip_cannot_run_is_refused(flags: int, described: str) -> None:
    with pytest.raises(BootError, match=f"IMAGE_DEF at 0x10000040 is {described}"):
        entry(image(START, flags << 16 | 0x0142, LAST_1, 0, END), BASE)


def test_malformed_blocks_are_refused() -> None:
    with pytest.raises(BootError, match="LAST item says 2 words of items, there are 1"):
        entry(image(START, IMAGE_TYPE_S_ARM_RP2350, 0x000002FF, 0, END), BASE)
    with pytest.raises(BootError, match="no end marker"):
        entry(image(START, IMAGE_TYPE_S_ARM_RP2350, LAST_1, 0, 0), BASE)
    with pytest.raises(BootError, match="has no IMAGE_TYPE item"):
        entry(image(START, 0x00000148, LAST_1, 0, END), BASE)  # a VERSION item only


def test_a_loop_of_two_blocks_boots_its_image_def_through_its_entry_point() -> None:
    # Block 1 at 0x40 (a VERSION item) links to block 2 at 0x80, which links back (-0x40).
    first = [START, 0x00000148, LAST_1, 0x40, END]
    second = [START, IMAGE_TYPE_S_ARM_RP2350, 0x00000344, BASE + 0x181, 0x20001000, 0x000004FF, 0xFFFFFFC0, END]
    data = bytearray(image(*first))
    struct.pack_into(f"<{len(second)}I", data, 0x80, *second)
    assert entry(bytes(data), BASE) == Entry(pc=BASE + 0x181, sp=0x20001000)


def test_a_vector_table_item_moves_the_entry() -> None:
    words = [START, IMAGE_TYPE_S_ARM_RP2350, 0x00000203, BASE + 0x400, 0x000003FF, 0, END]
    assert entry(image(*words), BASE) == Entry(vector_table=BASE + 0x400)


def test_a_link_to_nowhere_is_refused() -> None:
    with pytest.raises(BootError, match="its link 0x100 leads to no block of the loop"):
        entry(image(START, IMAGE_TYPE_S_ARM_RP2350, LAST_1, 0x100, END), BASE)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
