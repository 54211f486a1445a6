"""The program a model firmware runs is the model's program library, where it promises to be.

For the sine model's firmware on every board: the ELF has the symbol `sine_pte` from
//models/sine:sine_program (the one embedding of a .pte), of the program's size, 16-byte
aligned, inside the board's flash region (executed in place, never copied to RAM), and
its bytes are exactly sine.pte. And the program header's size and SHA-256 are the file's.

usage: program_embedding_test.py MIN_FIRMWARES SINE.pte SINE_PROGRAM.h (FIRMWARE.elf BOARD.board.json)...
       (fails when fewer than MIN_FIRMWARES firmwares were checked)
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection


def symbol_bytes(elf_path: Path, name: str) -> tuple[int, bytes]:
    """Address and contents of symbol `name`, read from the loadable section holding it."""
    with elf_path.open("rb") as stream:
        elf = ELFFile(stream)
        table = elf.get_section_by_name(".symtab")
        assert isinstance(table, SymbolTableSection), f"{elf_path}: no symbol table"
        symbols = table.get_symbol_by_name(name)
        assert symbols, f"{elf_path}: no symbol {name}"
        symbol = symbols[0]
        address, size = int(symbol["st_value"]), int(symbol["st_size"])
        for section in elf.iter_sections():
            start = int(section["sh_addr"])
            if section["sh_type"] == "SHT_PROGBITS" and start <= address < start + int(section["sh_size"]):
                data = section.data()[address - start : address - start + size]
                return address, bytes(data)
    raise AssertionError(f"{elf_path}: {name} is in no loadable section")


def check(pte: bytes, elf: Path, board_json: Path) -> None:
    board = json.loads(board_json.read_text())
    flash = next(r for r in board["memory"] if r["name"] == board["flash_region"])
    address, data = symbol_bytes(elf, "sine_pte")
    where = f"{elf.name} on {board['name']}"
    assert address % 16 == 0, f"{where}: sine_pte at {address:#x} is not 16-byte aligned"
    assert flash["origin"] <= address and address + len(data) <= flash["origin"] + flash["size"], (
        f"{where}: sine_pte at {address:#x} is outside {flash['name']}"
    )
    assert data == pte, f"{where}: sine_pte differs from sine.pte ({len(data)} B vs {len(pte)} B)"


def main(argv: list[str]) -> int:
    min_firmwares, pte_path, header_path, *pairs = argv
    pte = Path(pte_path).read_bytes()
    header = Path(header_path).read_text()
    assert f"#define SINE_PTE_SIZE {len(pte)}u" in header, "the header's size is not the program's"
    assert f'#define SINE_PTE_SHA256 "{hashlib.sha256(pte).hexdigest()}"' in header, "the header's SHA-256 is wrong"
    checked = 0
    for elf, board_json in zip(pairs[0::2], pairs[1::2], strict=True):
        check(pte, Path(elf), Path(board_json))
        print(f"program_embedding: {Path(elf).name}: sine_pte is sine.pte, 16-byte aligned, in flash")
        checked += 1
    print(f"program_embedding: {checked} firmwares checked")
    assert checked >= int(min_firmwares), f"only {checked} firmwares checked, at least {min_firmwares} required"
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
