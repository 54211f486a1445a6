"""`tinypte uf2`: a firmware ELF as a UF2 image (image.py) to drag onto the board.

usage: tinypte uf2 --elf FIRMWARE.elf --out FIRMWARE.uf2
           [--family-id 0xe48bff59] [--flash-base 0x10000000 --flash-size 0x400000]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tinypte.uf2.image import RP2350_ARM_S_FAMILY_ID, Uf2Block, elf_to_uf2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--elf", type=Path, required=True, help="firmware ELF (32-bit Arm or RISC-V)")
    parser.add_argument("--out", type=Path, required=True, help="UF2 file to write")
    parser.add_argument(
        "--family-id",
        type=lambda s: int(s, 0),
        default=RP2350_ARM_S_FAMILY_ID,
        help="UF2 family ID (default: RP2350 Arm Secure)",
    )
    parser.add_argument("--flash-base", type=lambda s: int(s, 0), help="flash start address, to check placement")
    parser.add_argument("--flash-size", type=lambda s: int(s, 0), help="flash size in bytes, to check placement")


def run(args: argparse.Namespace) -> None:
    data = elf_to_uf2(args.elf, args.family_id, args.flash_base, args.flash_size)
    args.out.write_bytes(data)
    print(f"uf2: {args.out.name}: {len(data) // Uf2Block.LENGTH} blocks, family {args.family_id:#010x}")
