"""Structural checks of a Pico 2 W (RP2350) firmware ELF: will the boot ROM start it?

There is no RP2350 emulator, so this test checks what the boot ROM and the Cortex-M33
need, against the board's own memory map (the generated <board>.board.json, so no
address is repeated here):
- a 32-bit little-endian Arm ELF whose loadable bytes all land in flash;
- the vector table at the start of flash: initial SP inside SRAM, reset handler a Thumb
  address inside flash;
- a well-formed IMAGE_DEF block (Arm, Secure, EXE, RP2350) in the first 4 KiB of flash;
- .data/.bss/.stack inside SRAM, and the image inside the flash size.

usage: pico2w_image_test.py FIRMWARE.elf BOARD_FILES...
"""

from __future__ import annotations

import json
import os
import struct
import sys
from pathlib import Path

import pytest
from elftools.elf.constants import P_FLAGS
from elftools.elf.elffile import ELFFile

BLOCK_START = 0xFFFFDED3
BLOCK_END = 0xAB123579
IMAGE_TYPE_EXE_SECURE_ARM_RP2350 = 0x10210142
IMAGE_DEF_SEARCH_WINDOW = 4096


def elf_path() -> Path:
    return Path(os.environ["TINYPTE_TEST_ELF"])


def board() -> dict:
    return json.loads(Path(os.environ["TINYPTE_TEST_BOARD_JSON"]).read_text())


def region(name: str) -> tuple[int, int]:
    (found,) = [r for r in board()["memory"] if r["name"] == name]
    return found["origin"], found["origin"] + found["size"]


def flash_image() -> tuple[int, bytes]:
    """(base address, bytes) of the image as it will sit in flash (by load address)."""
    with elf_path().open("rb") as f:
        elf = ELFFile(f)
        chunks = sorted(
            (s["p_paddr"], s.data()) for s in elf.iter_segments() if s["p_type"] == "PT_LOAD" and s["p_filesz"]
        )
    base = chunks[0][0]
    image = bytearray()
    for address, data in chunks:
        image[address - base : address - base + len(data)] = data
    return base, bytes(image)


def test_is_32bit_little_endian_arm() -> None:
    with elf_path().open("rb") as f:
        elf = ELFFile(f)
        assert elf.elfclass == 32
        assert elf.little_endian
        assert elf["e_machine"] == "EM_ARM"


def test_loadable_bytes_are_in_flash() -> None:
    flash_lo, flash_hi = region(board()["flash_region"])
    with elf_path().open("rb") as f:
        for segment in ELFFile(f).iter_segments():
            if segment["p_type"] == "PT_LOAD" and segment["p_filesz"]:
                start, end = segment["p_paddr"], segment["p_paddr"] + segment["p_filesz"]
                assert flash_lo <= start and end <= flash_hi, f"segment {start:#x}-{end:#x} outside flash"
                assert not (segment["p_flags"] & P_FLAGS.PF_W and segment["p_flags"] & P_FLAGS.PF_X)


def test_vector_table_at_start_of_flash() -> None:
    flash_lo, flash_hi = region(board()["flash_region"])
    ram_lo, ram_hi = region(board()["ram_region"])
    base, image = flash_image()
    assert base == flash_lo, f"image starts at {base:#x}, flash at {flash_lo:#x}"
    initial_sp, reset = struct.unpack_from("<II", image, 0)
    assert ram_lo < initial_sp <= ram_hi and initial_sp % 8 == 0, f"initial SP {initial_sp:#x}"
    assert reset & 1, f"reset vector {reset:#x} is not a Thumb address"
    assert flash_lo <= (reset & ~1) < flash_hi


def test_image_def_block_in_first_4k() -> None:
    _, image = flash_image()
    window = image[:IMAGE_DEF_SEARCH_WINDOW]
    starts = [i for i in range(0, len(window) - 4, 4) if struct.unpack_from("<I", window, i)[0] == BLOCK_START]
    assert len(starts) == 1, f"expected one block start marker in the first 4 KiB, found {len(starts)}"
    words = struct.unpack_from("<5I", window, starts[0])
    assert words[1] == IMAGE_TYPE_EXE_SECURE_ARM_RP2350, f"IMAGE_TYPE item {words[1]:#x}"
    item_type, size_lo, size_hi = words[2] & 0xFF, (words[2] >> 8) & 0xFF, (words[2] >> 16) & 0xFF
    assert (item_type, size_lo | size_hi << 8) == (0xFF, 1), f"LAST item {words[2]:#x}"
    assert words[3] == 0, "single block must link to itself (offset 0)"
    assert words[4] == BLOCK_END


def test_ram_sections_fit() -> None:
    ram_lo, ram_hi = region(board()["ram_region"])
    with elf_path().open("rb") as f:
        elf = ELFFile(f)
        for name in (".data", ".bss", ".stack"):
            section = elf.get_section_by_name(name)
            assert section is not None, f"{name} missing"
            assert ram_lo <= section["sh_addr"] and section["sh_addr"] + section["sh_size"] <= ram_hi
        stack = elf.get_section_by_name(".stack")
        assert stack["sh_size"] == board()["stack_size"]


def main() -> int:
    elf, *board_files = sys.argv[1:]
    (board_json,) = [p for p in board_files if p.endswith(".board.json")]
    os.environ["TINYPTE_TEST_ELF"] = elf
    os.environ["TINYPTE_TEST_BOARD_JSON"] = board_json
    return pytest.main([__file__, "-q", "-p", "no:cacheprovider"])


if __name__ == "__main__":
    sys.exit(main())
