"""Memory-mapped register blocks, as the Cortex-M machine models describe a peripheral: a
block knows its registers by offset, with optional hooks for registers with behaviour and the
atomic aliases RP2350 peripherals have (+0x1000 XOR, +0x2000 SET, +0x3000 CLR). An access to an
offset a block does not know raises `Unmodelled`, which the machine turns into a test failure
naming the address and the PC: firmware that touches hardware a model does not describe must not
pass by reading zeros.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


class Unmodelled(Exception):
    """An access to a register the model does not implement."""

    def __init__(self, address: int, what: str) -> None:
        super().__init__(f"{what} 0x{address:08x}")
        self.address = address


ALIAS_NAMES = ("", " (XOR alias)", " (SET alias)", " (CLR alias)")


@dataclass
class Block:
    """A peripheral's registers: offset -> value, plus hooks for registers with behaviour."""

    name: str
    base: int
    registers: dict[int, int]
    names: dict[int, str] = field(default_factory=dict)
    on_read: dict[int, Callable[[], int]] = field(default_factory=dict)
    on_write: dict[int, Callable[[int], None]] = field(default_factory=dict)
    atomic_aliases: bool = True
    write_one_to_clear: set[int] = field(default_factory=set)  # registers whose 1 bits clear

    @property
    def size(self) -> int:
        return 0x4000 if self.atomic_aliases else 0x1000

    def register_name(self, offset: int) -> str:
        return f"{self.name}.{self.names.get(offset, f'+0x{offset:03x}')}"

    def read(self, offset: int) -> int:
        register = offset & 0xFFF if self.atomic_aliases else offset
        if register not in self.registers:
            raise Unmodelled(self.base + offset, f"read of unmodelled {self.name} register")
        if register in self.on_read:
            return self.on_read[register]() & 0xFFFFFFFF
        return self.registers[register]

    def write(self, offset: int, value: int) -> None:
        register = offset & 0xFFF if self.atomic_aliases else offset
        if register not in self.registers:
            raise Unmodelled(self.base + offset, f"write to unmodelled {self.name} register")
        alias = offset >> 12 if self.atomic_aliases else 0
        old = self.registers[register]
        if register in self.write_one_to_clear:
            new = old & ~value if alias in (0, 2) else old
        else:
            new = (value, old ^ value, old | value, old & ~value)[alias] & 0xFFFFFFFF
        self.registers[register] = new
        if register in self.on_write:
            self.on_write[register](new)
