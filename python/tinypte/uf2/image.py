"""ELF -> UF2 for drag-and-drop flashing (RP2350 boot ROM's USB mass-storage mode).

UF2 is a sequence of 512-byte blocks, each carrying up to 476 bytes of payload for one
target address; the RP2350 boot ROM accepts 256-byte payloads, each aligned to a 256-byte
flash page, with the family ID of the image type (RP2350 Arm Secure: 0xe48bff59).

Only loadable bytes are converted: PT_LOAD segments with file contents, placed at their
load (physical) addresses, so initialized data goes to its flash load image. Pages that
no segment touches are not emitted; partial pages are padded with zeros.

`tinypte uf2` (command.py) writes one from a firmware ELF.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from elftools.elf.elffile import ELFFile

from tinypte.errors import TinypteError

RP2350_ARM_S_FAMILY_ID = 0xE48BFF59
PAGE_SIZE = 256


@dataclass(frozen=True)
class Uf2Block:
    """One UF2 block (the format's fixed 512-byte layout, all fields little-endian)."""

    MAGIC_START0: ClassVar[int] = 0x0A324655
    MAGIC_START1: ClassVar[int] = 0x9E5D5157
    MAGIC_END: ClassVar[int] = 0x0AB16F30
    FLAG_FAMILY_ID_PRESENT: ClassVar[int] = 0x00002000
    LENGTH: ClassVar[int] = 512
    DATA_CAPACITY: ClassVar[int] = 476
    _HEADER: ClassVar[struct.Struct] = struct.Struct("<8I")  # magic0, magic1, flags, addr, size, no, count, family

    flags: int
    target_address: int
    block_number: int
    block_count: int
    family_id: int
    payload: bytes

    def to_bytes(self) -> bytes:
        if len(self.payload) > self.DATA_CAPACITY:
            raise ValueError(f"UF2 payload of {len(self.payload)} bytes exceeds {self.DATA_CAPACITY}")
        header = self._HEADER.pack(
            self.MAGIC_START0,
            self.MAGIC_START1,
            self.flags,
            self.target_address,
            len(self.payload),
            self.block_number,
            self.block_count,
            self.family_id,
        )
        data = self.payload.ljust(self.DATA_CAPACITY, b"\0")
        return header + data + struct.pack("<I", self.MAGIC_END)

    @classmethod
    def from_bytes(cls, raw: bytes) -> Uf2Block:
        if len(raw) != cls.LENGTH:
            raise TinypteError(f"UF2 block is {len(raw)} bytes, expected {cls.LENGTH}")
        magic0, magic1, flags, address, size, number, count, family = cls._HEADER.unpack_from(raw)
        (magic_end,) = struct.unpack_from("<I", raw, cls.LENGTH - 4)
        if (magic0, magic1, magic_end) != (cls.MAGIC_START0, cls.MAGIC_START1, cls.MAGIC_END):
            raise TinypteError(f"UF2 block {number}: bad magic numbers")
        if size > cls.DATA_CAPACITY:
            raise TinypteError(f"UF2 block {number}: payload size {size} exceeds {cls.DATA_CAPACITY}")
        payload = raw[cls._HEADER.size : cls._HEADER.size + size]
        return cls(flags, address, number, count, family, payload)


def read_uf2(data: bytes) -> list[Uf2Block]:
    """Parse a UF2 file into its blocks (checking size and magic numbers)."""
    if len(data) % Uf2Block.LENGTH:
        raise TinypteError(f"UF2 file size {len(data)} is not a multiple of {Uf2Block.LENGTH}")
    return [Uf2Block.from_bytes(data[i : i + Uf2Block.LENGTH]) for i in range(0, len(data), Uf2Block.LENGTH)]


def loadable_image(elf_path: Path) -> dict[int, bytes]:
    """{load address: bytes} of the ELF's PT_LOAD segments that carry file contents."""
    with elf_path.open("rb") as f:
        elf = ELFFile(f)
        if elf["e_machine"] not in ("EM_ARM", "EM_RISCV") or elf.elfclass != 32:
            raise TinypteError(f"{elf_path}: not a 32-bit Arm or RISC-V ELF (machine {elf['e_machine']})")
        return {
            seg["p_paddr"]: seg.data() for seg in elf.iter_segments() if seg["p_type"] == "PT_LOAD" and seg["p_filesz"]
        }


def pages(image: dict[int, bytes]) -> dict[int, bytes]:
    """Split an image into 256-byte pages {page address: 256 bytes}, zero-padded, overlaps rejected."""
    paged: dict[int, bytearray] = {}
    written: set[int] = set()
    for address, data in sorted(image.items()):
        for offset, byte in enumerate(data):
            where = address + offset
            if where in written:
                raise TinypteError(f"ELF segments overlap at {where:#x}")
            written.add(where)
            page = paged.setdefault(where - where % PAGE_SIZE, bytearray(PAGE_SIZE))
            page[where % PAGE_SIZE] = byte
    return {address: bytes(page) for address, page in sorted(paged.items())}


def elf_to_uf2(elf_path: Path, family_id: int, flash_base: int | None = None, flash_size: int | None = None) -> bytes:
    """The UF2 bytes for an ELF; with flash bounds, every byte must land inside them."""
    paged = pages(loadable_image(elf_path))
    if not paged:
        raise TinypteError(f"{elf_path}: no loadable bytes")
    if flash_base is not None and flash_size is not None:
        for address in paged:
            if not flash_base <= address < flash_base + flash_size:
                raise TinypteError(
                    f"{elf_path}: loadable bytes at {address:#x} lie outside flash "
                    f"[{flash_base:#x}, {flash_base + flash_size:#x}); check the board's linker script"
                )
    count = len(paged)
    return b"".join(
        Uf2Block(Uf2Block.FLAG_FAMILY_ID_PRESENT, address, number, count, family_id, page).to_bytes()
        for number, (address, page) in enumerate(paged.items())
    )
