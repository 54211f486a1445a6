"""The NPU's view of memory: region-relative accesses through the base pointers (BASEPn) to
the machine's memory callbacks. A callback that raises (no memory at that address) is a bus
fault, which the device reports in STATUS.bus_status.
"""

from __future__ import annotations

from collections.abc import Callable

REGIONS = 8


class BusFault(Exception):
    """An access the machine's memory refused; the message names the region and range."""


class RegionBus:
    """Reads and writes at region offsets, each region at its base pointer."""

    def __init__(
        self,
        base: Callable[[int], int],
        read_memory: Callable[[int, int], bytes],
        write_memory: Callable[[int, bytes], None],
    ) -> None:
        self._base = base
        self._read = read_memory
        self._write = write_memory

    def address(self, region: int, offset: int) -> int:
        if not 0 <= region < REGIONS:
            raise BusFault(f"region {region} does not exist (0..{REGIONS - 1})")
        return self._base(region) + offset

    def read(self, region: int, offset: int, length: int) -> bytes:
        address = self.address(region, offset)
        try:
            data = self._read(address, length)
        except Exception as error:
            raise BusFault(
                f"read of {length} bytes at region {region} + 0x{offset:x} (0x{address:x}): {error}"
            ) from error
        if len(data) != length:
            raise BusFault(f"read of {length} bytes at region {region} + 0x{offset:x} returned {len(data)} bytes")
        return data

    def write(self, region: int, offset: int, data: bytes) -> None:
        address = self.address(region, offset)
        try:
            self._write(address, data)
        except Exception as error:
            raise BusFault(
                f"write of {len(data)} bytes at region {region} + 0x{offset:x} (0x{address:x}): {error}"
            ) from error


def read_at(read_memory: Callable[[int, int], bytes], address: int, length: int) -> bytes:
    """A read at an absolute address (the command queue); a refused one is a BusFault."""
    try:
        return read_memory(address, length)
    except Exception as error:
        raise BusFault(f"read of {length} bytes at 0x{address:x}: {error}") from error
