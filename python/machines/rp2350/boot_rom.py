"""What the RP2350 boot ROM checks before it enters a flash image, and where it enters.

The boot ROM searches the first 4 KiB of flash (4-byte aligned) for a block: start marker
0xffffded3, items, a LAST item giving the items' total size in words, a link (the offset
of the next block of the loop from this one; 0 when the block loops to itself) and end
marker 0xab123579. Of the blocks of that loop, the last whose IMAGE_TYPE item says
"executable, Arm, RP2350" is the IMAGE_DEF it boots. It enters through the IMAGE_DEF's
ENTRY_POINT item (PC and SP) if there is one, else through the vector table its
VECTOR_TABLE item names, else through the vector table at the start of the image.

The RP2350 model boots this way, so an image the boot ROM would refuse (no IMAGE_DEF, a
malformed block, a RISC-V or RP2040 image type) fails its test with the reason, instead of
running. Item formats: RP2350 datasheet, "Blocks and block loops", "Image definitions".
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

SEARCH_WINDOW = 4096
BLOCK_START = 0xFFFFDED3
BLOCK_END = 0xAB123579

ITEM_VECTOR_TABLE = 0x03
ITEM_IMAGE_TYPE = 0x42
ITEM_ENTRY_POINT = 0x44
ITEM_LAST = 0xFF
TWO_BYTE_SIZE = 0x80  # an item type with this bit has a 16-bit size, else an 8-bit one

IMAGE_TYPE_EXE = 1
CPU_NAMES = {0: "Arm", 1: "RISC-V", 2: "Varmulet"}
CHIP_NAMES = {0: "RP2040", 1: "RP2350"}
SECURITY_NAMES = {0: "unspecified", 1: "Non-secure", 2: "Secure"}


class BootError(Exception):
    """The boot ROM would not enter this image: the message says why."""


@dataclass(frozen=True)
class Entry:
    """Where the boot ROM enters: a vector table, or an explicit PC and SP."""

    vector_table: int | None = None
    pc: int | None = None
    sp: int | None = None


@dataclass(frozen=True)
class Block:
    address: int
    items: dict[int, tuple[int, ...]]  # item type -> the item's words, its header first
    link: int


def _word(image: bytes, offset: int) -> int:
    if not 0 <= offset <= len(image) - 4:
        raise BootError(f"a block runs past the end of the image at offset 0x{offset:x}")
    value: int = struct.unpack_from("<I", image, offset)[0]
    return value


def parse_block(image: bytes, offset: int, base: int) -> Block:
    """The block whose start marker is at `offset` of `image` (flash address `base + offset`)."""
    where = f"block at 0x{base + offset:08x}"
    items: dict[int, tuple[int, ...]] = {}
    cursor, total = offset + 4, 0
    while True:
        header = _word(image, cursor)
        kind = header & 0xFF
        size = (header >> 8) & (0xFFFF if kind & TWO_BYTE_SIZE else 0xFF)
        if kind == ITEM_LAST:
            if size != total:
                raise BootError(f"{where}: the LAST item says {size} words of items, there are {total}")
            break
        if size == 0:
            raise BootError(f"{where}: item 0x{kind:02x} has size 0")
        items[kind] = tuple(_word(image, cursor + 4 * i) for i in range(size))
        cursor += 4 * size
        total += size
        if cursor - offset > SEARCH_WINDOW:
            raise BootError(f"{where}: no LAST item")
    link = _word(image, cursor + 4)
    if _word(image, cursor + 8) != BLOCK_END:
        raise BootError(f"{where}: no end marker 0x{BLOCK_END:08x} after the LAST item and the link")
    return Block(base + offset, items, link)


def block_loop(image: bytes, base: int) -> list[Block]:
    """The blocks of the loop whose first block lies in the search window."""
    window = image[:SEARCH_WINDOW]
    first = next((o for o in range(0, len(window) - 3, 4) if _word(window, o) == BLOCK_START), None)
    if first is None:
        raise BootError(
            f"no block (start marker 0x{BLOCK_START:08x}) in the first {SEARCH_WINDOW} bytes of flash: the boot "
            "ROM would not enter this image (platforms/pico2w/boot_block.c holds the IMAGE_DEF)"
        )
    blocks, offset = [], first
    while True:
        block = parse_block(image, offset, base)
        blocks.append(block)
        offset = (offset + block.link) & 0xFFFFFFFF
        if offset == first:
            return blocks
        if len(blocks) > 64 or not 0 <= offset < len(image) or _word(image, offset) != BLOCK_START:
            raise BootError(f"block at 0x{block.address:08x}: its link 0x{block.link:x} leads to no block of the loop")


def image_type(block: Block) -> int:
    """The IMAGE_TYPE item's flags (the upper half of its header word)."""
    return block.items[ITEM_IMAGE_TYPE][0] >> 16


def bootable(flags: int) -> bool:
    """An executable for the Arm cores of an RP2350 (any security setting)."""
    return flags & 0xF == IMAGE_TYPE_EXE and (flags >> 8) & 7 == 0 and (flags >> 12) & 7 == 1


def describe_image_type(flags: int) -> str:
    if flags & 0xF != IMAGE_TYPE_EXE:
        return f"not an executable (image type {flags & 0xF})"
    cpu, chip = CPU_NAMES.get((flags >> 8) & 7, "unknown CPU"), CHIP_NAMES.get((flags >> 12) & 7, "unknown chip")
    return f"a {SECURITY_NAMES.get((flags >> 4) & 3, 'reserved')} {cpu} executable for the {chip}"


def entry(image: bytes, base: int) -> Entry:
    """Where the boot ROM enters `image`, placed at flash address `base`; BootError if it would not."""
    loop = block_loop(image, base)
    definitions = [block for block in loop if ITEM_IMAGE_TYPE in block.items]
    if not definitions:
        raise BootError(f"the block loop at 0x{loop[0].address:08x} has no IMAGE_TYPE item: no IMAGE_DEF to boot")
    candidates = [block for block in definitions if bootable(image_type(block))]
    if not candidates:
        last = definitions[-1]
        raise BootError(f"the IMAGE_DEF at 0x{last.address:08x} is {describe_image_type(image_type(last))}, "
                        "not an Arm executable for the RP2350")  # fmt: skip
    chosen = candidates[-1].items
    if ITEM_ENTRY_POINT in chosen:
        if len(chosen[ITEM_ENTRY_POINT]) < 3:
            raise BootError(f"the ENTRY_POINT item at 0x{candidates[-1].address:08x}'s block is too short")
        return Entry(pc=chosen[ITEM_ENTRY_POINT][1], sp=chosen[ITEM_ENTRY_POINT][2])
    if ITEM_VECTOR_TABLE in chosen and len(chosen[ITEM_VECTOR_TABLE]) >= 2:
        return Entry(vector_table=chosen[ITEM_VECTOR_TABLE][1])
    return Entry(vector_table=base)
