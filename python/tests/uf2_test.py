"""Unit tests of tinypte.uf2.image: block layout, paging, and the errors users can hit."""

from __future__ import annotations

import sys

import pytest

from tinypte.errors import TinypteError
from tinypte.uf2 import image as uf2


def test_block_round_trip_and_layout() -> None:
    block = uf2.Uf2Block(
        uf2.Uf2Block.FLAG_FAMILY_ID_PRESENT, 0x10000100, 1, 3, uf2.RP2350_ARM_S_FAMILY_ID, b"\x5a" * 256
    )
    raw = block.to_bytes()
    assert len(raw) == 512
    assert raw[:4] == b"UF2\n"
    assert raw[-4:] == (0x0AB16F30).to_bytes(4, "little")
    assert uf2.Uf2Block.from_bytes(raw) == block


def test_corrupt_magic_is_a_user_error() -> None:
    raw = bytearray(uf2.Uf2Block(0x2000, 0, 0, 1, 0, b"x").to_bytes())
    raw[0] ^= 0xFF
    with pytest.raises(TinypteError, match="bad magic"):
        uf2.Uf2Block.from_bytes(bytes(raw))
    with pytest.raises(TinypteError, match="not a multiple of 512"):
        uf2.read_uf2(bytes(raw[:100]))


def test_pages_pad_with_zeros_and_split_at_256() -> None:
    paged = uf2.pages({0x10000000 + 250: b"\x01" * 10})
    assert list(paged) == [0x10000000, 0x10000100]
    assert paged[0x10000000][250:] == b"\x01" * 6 and paged[0x10000000][:250] == bytes(250)
    assert paged[0x10000100][:4] == b"\x01" * 4 and paged[0x10000100][4:] == bytes(252)


def test_overlapping_segments_are_rejected() -> None:
    with pytest.raises(TinypteError, match="overlap at 0x10000004"):
        uf2.pages({0x10000000: b"\0" * 8, 0x10000004: b"\1"})


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
