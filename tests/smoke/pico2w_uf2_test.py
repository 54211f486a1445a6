"""The Pico 2 W UF2 is what the RP2350 boot ROM accepts, and holds exactly the ELF's bytes.

Parses the UF2 independently of python/tinypte/uf2/image.py (plain struct unpacking) and checks:
magic numbers, flags and family ID (RP2350 Arm Secure), block numbering 0..n-1 with the
right count, 256-byte payloads at 256-byte-aligned addresses inside flash (from the
board's JSON), payload bytes == the ELF's loadable bytes at those addresses (and nothing
loadable missing), and a well-formed IMAGE_DEF block within the first 4 KiB.

usage: pico2w_uf2_test.py FIRMWARE.uf2 FIRMWARE.elf BOARD_FILES...
"""

from __future__ import annotations

import json
import os
import struct
import sys
from pathlib import Path

import pytest
from elftools.elf.elffile import ELFFile

RP2350_ARM_S = 0xE48BFF59
HEADER = struct.Struct("<8I")


def blocks() -> list[tuple[int, ...]]:
    data = Path(os.environ["TINYPTE_TEST_UF2"]).read_bytes()
    assert data and len(data) % 512 == 0, f"UF2 size {len(data)}"
    out = []
    for offset in range(0, len(data), 512):
        block = data[offset : offset + 512]
        fields = HEADER.unpack_from(block)
        (end,) = struct.unpack_from("<I", block, 508)
        out.append((*fields, end, block[32 : 32 + fields[4]]))
    return out


def board() -> dict:
    return json.loads(Path(os.environ["TINYPTE_TEST_BOARD_JSON"]).read_text())


def elf_bytes() -> dict[int, int]:
    """{address: byte} for every loadable byte of the ELF (by load address)."""
    out: dict[int, int] = {}
    with Path(os.environ["TINYPTE_TEST_ELF"]).open("rb") as f:
        for seg in ELFFile(f).iter_segments():
            if seg["p_type"] == "PT_LOAD" and seg["p_filesz"]:
                for i, b in enumerate(seg.data()):
                    out[seg["p_paddr"] + i] = b
    return out


def test_block_headers() -> None:
    all_blocks = blocks()
    for number, block in enumerate(all_blocks):
        magic0, magic1, flags, address, size, block_no, count, family, end, _ = block
        assert (magic0, magic1, end) == (0x0A324655, 0x9E5D5157, 0x0AB16F30)
        assert flags == 0x00002000, "family-ID-present flag only"
        assert family == RP2350_ARM_S
        assert (block_no, count) == (number, len(all_blocks))
        assert size == 256 and address % 256 == 0


def test_addresses_inside_flash() -> None:
    (flash,) = [r for r in board()["memory"] if r["name"] == board()["flash_region"]]
    addresses = [b[3] for b in blocks()]
    assert addresses == sorted(set(addresses)), "blocks must be in address order, no duplicates"
    assert addresses[0] == flash["origin"], "image must start at the start of flash (vector table)"
    for address in addresses:
        assert flash["origin"] <= address and address + 256 <= flash["origin"] + flash["size"]


def test_payload_equals_elf_bytes() -> None:
    expected = elf_bytes()
    seen: dict[int, int] = {}
    for block in blocks():
        address, payload = block[3], block[9]
        for i, b in enumerate(payload):
            seen[address + i] = b
    for address, byte in expected.items():
        assert seen.get(address) == byte, f"byte at {address:#x}: UF2 {seen.get(address)} != ELF {byte}"
    padding = set(seen) - set(expected)
    assert all(seen[a] == 0 for a in padding), "page padding must be zeros"


def test_image_def_in_first_4k() -> None:
    image = bytearray(4096)
    for block in blocks():
        address, payload = block[3] - board()["memory"][0]["origin"], block[9]
        if address < 4096:
            image[address : address + len(payload)] = payload
    words = [struct.unpack_from("<I", image, i)[0] for i in range(0, 4096, 4)]
    start = words.index(0xFFFFDED3)
    assert words[start + 1 : start + 5] == [0x10210142, 0x000001FF, 0, 0xAB123579]


def main() -> int:
    uf2, elf, *board_files = sys.argv[1:]
    (board_json,) = [p for p in board_files if p.endswith(".board.json")]
    os.environ.update(TINYPTE_TEST_UF2=uf2, TINYPTE_TEST_ELF=elf, TINYPTE_TEST_BOARD_JSON=board_json)
    return pytest.main([__file__, "-q", "-p", "no:cacheprovider"])


if __name__ == "__main__":
    sys.exit(main())
