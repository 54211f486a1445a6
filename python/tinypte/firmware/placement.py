"""Where a model firmware's memory goes on a board: by size and speed, among its regions.

A board declares its memories (rules/private/board.bzl `memory_region`: size, speed class,
whether its loader writes there). A model firmware needs:
  - the stack, in the board's RAM region (the start-up code and the linker script put it there);
  - the runtime's state pool and each planned buffer (one per memory id of the program's
    memory plan, as ExecuTorch's planner wrote them): uninitialized RAM, placed here one by
    one, the pool first (small, touched by every kernel call), then the buffers largest
    first, each in the fastest writable region that still holds it (the RAM region first
    among equals);
  - the program and its golden data: constants, in the flash region when they fit, else in
    the fastest region the board's loader writes (`loadable`).
The result names a region for each; app_data puts each array in that region's section
(`.tp_region.<R>.noload` / `.load`, which the board's linker script maps), and a firmware that
cannot be placed fails here, naming what does not fit and each region's free bytes.

The firmware's own data and code are not known yet at this stage; the exact check of the
linked image is tinypte.size's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tinypte.firmware.requirements import Requirements


@dataclass(frozen=True)
class Region:
    """One memory region of a board (from <board>.board.json)."""

    name: str
    size: int
    access: str
    speed: int
    loadable: bool

    @property
    def writable(self) -> bool:
        return "w" in self.access


@dataclass(frozen=True)
class Item:
    """Something a firmware places: `what` it is for messages, `key` for the C generator."""

    key: str  # "stack", "pool", "buffer1", "program", "golden"
    what: str  # "the planned buffer of memory id 1"
    size: int
    constant: bool  # bytes of the image (program, golden data), not uninitialized RAM


@dataclass
class Placement:
    """The region of every item, and what each region holds."""

    board: str
    flash_region: str
    ram_region: str
    regions: list[Region]
    region_of: dict[str, str] = field(default_factory=dict)  # item key -> region name
    contents: dict[str, list[Item]] = field(default_factory=dict)  # region name -> items, in order
    unplaced: list[tuple[Item, str]] = field(default_factory=list)  # item, "RAM" or "flash"

    def free(self, region: Region) -> int:
        return region.size - sum(item.size for item in self.contents.get(region.name, []))

    def put(self, item: Item, region: Region) -> None:
        self.region_of[item.key] = region.name
        self.contents.setdefault(region.name, []).append(item)

    def section(self, key: str) -> str | None:
        """The C section for item `key`, or None when it goes where the linker puts it by
        default (planned buffers and pool in the RAM region's .bss, constants in flash)."""
        region = self.region_of[key]
        if region in (self.ram_region, self.flash_region):
            return None
        item = next(i for i in self.contents[region] if i.key == key)
        return f".tp_region.{region}.{'load' if item.constant else 'noload'}.{key}"

    def candidates(self, item: Item) -> list[Region]:
        """The regions `item` may go to, in the order placement tries them: the stack in the RAM
        region only; constants in flash, then the loadable regions by speed; the rest in the
        writable regions by speed (the RAM region first among equals)."""
        order = sorted(self.regions, key=lambda r: (r.speed, r.name != self.ram_region, self.regions.index(r)))
        if item.key == "stack":
            return [r for r in self.regions if r.name == self.ram_region]
        if item.constant:
            flash = [r for r in self.regions if r.name == self.flash_region]
            return flash + [r for r in order if r.loadable and r.name not in (self.flash_region, self.ram_region)]
        return [r for r in order if r.writable and r.name != self.flash_region]

    def describe_free(self, item: Item) -> str:
        """Each of `item`'s candidate regions: its free bytes and what it already holds, for messages."""
        parts = []
        for region in self.candidates(item):
            held = ", ".join(f"{other.key} {other.size} B" for other in self.contents.get(region.name, []))
            parts.append(
                f"{region.name} {self.free(region)} B free of {region.size} B" + (f" ({held})" if held else "")
            )
        return "; ".join(parts)

    def summary(self) -> str:
        """One line: each item and its region (the build prints it with the size table)."""
        return ", ".join(
            f"{item.key} {item.size} B in {region.name}"
            for region in self.regions
            for item in self.contents.get(region.name, [])
        )


def board_regions(board: dict[str, Any]) -> list[Region]:
    return [
        Region(r["name"], int(r["size"]), r["access"], int(r.get("speed", 1)), bool(r.get("loadable", False)))
        for r in board["memory"]
    ]


def firmware_items(needs: Requirements, golden_bytes: int, stack: int) -> list[Item]:
    """What one model firmware places, in placement order (see the module docstring)."""
    buffers = [
        Item(f"buffer{memory_id}", f"the planned buffer of memory id {memory_id}", size, False)
        for memory_id, size in enumerate(needs.buffer_bytes)
        if memory_id > 0 and size > 0
    ]
    buffers.sort(key=lambda item: -item.size)
    return [
        Item("stack", "the stack", stack, False),
        Item("pool", "the runtime pool", needs.firmware_pool_bytes, False),
        *buffers,
        Item("program", "the program", needs.program_bytes, True),
        Item("golden", "the golden data", golden_bytes, True),
    ]


def place(board: dict[str, Any], items: list[Item]) -> Placement:
    """Place `items` on `board` (its JSON description); what fits nowhere is in `unplaced`."""
    placement = Placement(board["name"], board["flash_region"], board["ram_region"], board_regions(board))
    for item in items:
        target = next((r for r in placement.candidates(item) if placement.free(r) >= item.size), None)
        if target is None:
            placement.unplaced.append((item, "flash" if item.constant else "RAM"))
        else:
            placement.put(item, target)
    return placement


def problem_messages(placement: Placement) -> list[tuple[str, str]]:
    """(RAM or flash, message) for each item that fits nowhere, with every candidate region's numbers."""
    return [
        (
            kind,
            f"{kind}: {item.what} ({item.size} B) fits in no region: {placement.describe_free(item)}",
        )
        for item, kind in placement.unplaced
    ]
