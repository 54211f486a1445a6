"""The Ethos-U55 as the Corstone-300 machine sees it: its register block on the CPU's bus and
its AXI masters on the machine's memory.

Registers: 4 KiB at the NPU's Secure address (0x58102000 on SSE-300), 32-bit accesses only,
forwarded to the functional model (//backends/ethos_u55/npu_model, `EthosU55`); a CMD
write that starts the NPU runs its command stream to the end inside that write. Memory: the
NPU reads and writes the machine's memory, but only within `windows` (memory_map.NPU_REACHES:
the SRAM and the DDR); anything else (the TCMs, unmapped addresses) is refused, which the model
reports as a bus error (STATUS.bus_status).
"""

from __future__ import annotations

from collections.abc import Callable

from ethos_u55.npu_model.device import EthosU55
from machines.sse300.memory_map import Memory

BASE = 0x58102000  # Secure alias; Non-secure 0x48102000 (not modelled: the firmware runs Secure)
SIZE = 0x1000
CMD = 0x008  # the register whose writes start the NPU
CMD_TRANSITION_TO_RUNNING = 1 << 0


class NpuRefused(Exception):
    """An NPU access outside every window (the NPU model turns it into STATUS.bus_status)."""


class NpuPort:
    """The NPU model over `read(address, size)` / `write(address, data)` of the machine's memory."""

    def __init__(
        self,
        windows: tuple[Memory, ...],
        read: Callable[[int, int], bytes],
        write: Callable[[int, bytes], None],
        macs: int,
    ) -> None:
        self.windows = windows
        self._read = read
        self._write = write
        self.device = EthosU55(self.read_memory, self.write_memory, macs=macs)

    def _check(self, address: int, length: int) -> None:
        if not any(window.holds(address, length) for window in self.windows):
            reachable = ", ".join(f"{w.name} 0x{w.base:08x}-0x{w.base + w.size - 1:08x}" for w in self.windows)
            raise NpuRefused(f"0x{address:08x} (+{length}) is outside the memory the NPU reaches ({reachable})")

    def read_memory(self, address: int, length: int) -> bytes:
        self._check(address, length)
        return self._read(address, length)

    def write_memory(self, address: int, data: bytes) -> None:
        self._check(address, len(data))
        self._write(address, data)

    def read_register(self, offset: int) -> int:
        return self.device.read_register(offset) & 0xFFFFFFFF

    def write_register(self, offset: int, value: int) -> None:
        self.device.write_register(offset, value)
