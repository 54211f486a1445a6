"""Flash and RAM use of a firmware ELF against its board's memory map, and budgets.

Flash use = every allocated section whose load address lies in the board's flash region
(code, read-only data, the model's bytes, the .data load image). RAM use = every
allocated section whose run address lies in the RAM region (.data, .bss with the arena
and runtime pools, the reserved stack). The board's other regions are listed when the build
placed something there (tinypte.firmware.placement: an arena too big for the RAM region, a
program too big for flash). A firmware over its region, or over an optional
tighter budget, fails with the numbers and its biggest symbols, so the fix is clear.

usage: tinypte size --elf FIRMWARE.elf --board BOARD.board.json
           [--max-flash BYTES] [--max-ram BYTES] [--json OUT.json] [--text OUT.txt] [--top 8]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from elftools.elf.constants import SH_FLAGS
from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection

from tinypte.errors import TinypteError


@dataclass(frozen=True)
class Region:
    """One memory region of a board (from <board>.board.json)."""

    name: str
    origin: int
    size: int

    def contains(self, address: int, length: int) -> bool:
        return self.origin <= address and address + length <= self.origin + self.size


@dataclass
class Usage:
    """Bytes a firmware uses in one region, by section and by biggest symbols."""

    region: Region
    used: int = 0
    sections: dict[str, int] = field(default_factory=dict)
    symbols: list[tuple[str, int]] = field(default_factory=list)

    @property
    def percent(self) -> float:
        return 100.0 * self.used / self.region.size


def load_board(path: Path) -> tuple[str, Region, Region, list[Region]]:
    """(board name, flash region, RAM region, its other regions) from a board JSON."""
    board = json.loads(path.read_text())
    regions = {r["name"]: Region(r["name"], r["origin"], r["size"]) for r in board["memory"]}
    flash, ram = regions[board["flash_region"]], regions[board["ram_region"]]
    return board["name"], flash, ram, [r for r in regions.values() if r not in (flash, ram)]


def measure(elf_path: Path, flash: Region, ram: Region, top: int, others: list[Region] | None = None) -> tuple[Usage, Usage, list[Usage]]:  # fmt: skip
    """Flash and RAM usage of an ELF, and of the board's `others` regions (what the build placed
    there: tinypte.firmware.placement), with the `top` biggest symbols in each."""
    flash_use, ram_use = Usage(flash), Usage(ram)
    other_uses = [Usage(region) for region in others or []]
    with elf_path.open("rb") as f:
        elf = ELFFile(f)
        # Load address (LMA) of each section: from the PT_LOAD segment that holds it.
        segments = [s for s in elf.iter_segments() if s["p_type"] == "PT_LOAD"]
        for section in elf.iter_sections():
            if not section["sh_flags"] & SH_FLAGS.SHF_ALLOC or not section["sh_size"]:
                continue
            name, vma, size = section.name, section["sh_addr"], section["sh_size"]
            lma = vma
            for segment in segments:
                if segment.section_in_segment(section) and section["sh_type"] != "SHT_NOBITS":
                    lma = segment["p_paddr"] + (vma - segment["p_vaddr"])
            placed = False
            for usage in (ram_use, *other_uses):
                if usage.region.contains(vma, size):
                    usage.used += size
                    usage.sections[name] = size
                    placed = True
            if section["sh_type"] != "SHT_NOBITS" and flash.contains(lma, size):
                flash_use.used += size
                flash_use.sections[name] = size
            elif not placed:
                raise TinypteError(
                    f"{elf_path.name}: section {name} ({size} bytes at {vma:#x}) is outside the board's "
                    f"regions; check the board's memory_region() list"
                )
        symtab = elf.get_section_by_name(".symtab")
        symbols = []
        if isinstance(symtab, SymbolTableSection):
            for symbol in symtab.iter_symbols():
                if symbol["st_size"] and symbol["st_info"]["type"] in ("STT_OBJECT", "STT_FUNC"):
                    symbols.append((symbol.name, symbol["st_value"] & ~1, symbol["st_size"], symbol["st_info"]["type"]))
    for usage in (flash_use, ram_use, *other_uses):
        chosen = [(name, size) for name, address, size, _ in symbols if usage.region.contains(address, size)]
        usage.symbols = sorted(set(chosen), key=lambda item: (-item[1], item[0]))[:top]
    return flash_use, ram_use, [usage for usage in other_uses if usage.used]


def render(board: str, elf_name: str, usages: list[tuple[str, Usage, int | None]]) -> str:
    lines = [f"{elf_name} on {board}:"]
    for label, usage, budget in usages:
        limit = f", budget {budget} B" if budget is not None else ""
        lines.append(
            f"  {label:5} {usage.used:8} B of {usage.region.size:8} B ({usage.percent:5.1f}% of {usage.region.name}{limit})"
        )
        sections = ", ".join(f"{name} {size}" for name, size in sorted(usage.sections.items(), key=lambda kv: -kv[1]))
        lines.append(f"        sections: {sections}")
        biggest = ", ".join(f"{name} {size}" for name, size in usage.symbols)
        lines.append(f"        biggest:  {biggest}")
    return "\n".join(lines) + "\n"


def check(board: str, elf_name: str, usages: list[tuple[str, Usage, int | None]]) -> None:
    problems = []
    for label, usage, budget in usages:
        limit = min(usage.region.size, budget) if budget is not None else usage.region.size
        if usage.used > limit:
            what = "budget" if budget is not None and budget < usage.region.size else f"{usage.region.name} region"
            biggest = ", ".join(f"{name} ({size} B)" for name, size in usage.symbols[:5])
            problems.append(
                f"{label} use {usage.used} B exceeds the {what} of {limit} B by {usage.used - limit} B; "
                f"biggest: {biggest}"
            )
    if problems:
        raise TinypteError(f"{elf_name} does not fit {board}: " + "; ".join(problems))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--elf", type=Path, required=True)
    parser.add_argument("--board", type=Path, required=True, help="<board>.board.json from tinypte_board")
    parser.add_argument("--max-flash", type=int, help="flash budget in bytes (tighter than the region)")
    parser.add_argument("--max-ram", type=int, help="RAM budget in bytes (tighter than the region)")
    parser.add_argument("--json", type=Path, help="write the numbers as JSON")
    parser.add_argument("--text", type=Path, help="write the table as text")
    parser.add_argument("--top", type=int, default=8, help="biggest symbols to list per region")
    parser.add_argument("--name", help="firmware name to show (default: the ELF's file name)")


def run(args: argparse.Namespace) -> None:
    board, flash, ram, others = load_board(args.board)
    flash_use, ram_use, other_uses = measure(args.elf, flash, ram, args.top, others)
    usages = [("flash", flash_use, args.max_flash), ("RAM", ram_use, args.max_ram)]
    usages += [(usage.region.name, usage, None) for usage in other_uses]
    name = args.name or args.elf.name
    table = render(board, name, usages)
    sys.stdout.write(table)
    if args.text:
        args.text.write_text(table)
    if args.json:
        report: dict[str, Any] = {"board": board, "firmware": name, "regions": {}}
        for label, usage, budget in usages:
            entry = asdict(usage) | {"budget": budget}
            if label in ("flash", "RAM"):
                report[label.lower()] = entry
            else:
                report["regions"][label] = entry
        args.json.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
    check(board, name, usages)
