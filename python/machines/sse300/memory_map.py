"""The Corstone-300's memories as the Secure world addresses them (//platforms/corstone300's map:
the ITCM, DTCM, SRAM and DDR; corstone300_npu firmware lives in the DDR and the SRAM), and the
part of them the Ethos-U55 reaches."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Memory:
    """[base, base + size), named."""

    name: str
    base: int
    size: int

    def holds(self, address: int, length: int) -> bool:
        return self.base <= address and address + length <= self.base + self.size


ITCM = Memory("ITCM", 0x10000000, 512 * 1024)  # Secure alias of 0x00000000
DTCM = Memory("DTCM", 0x30000000, 512 * 1024)  # Secure alias of 0x20000000
SRAM = Memory("SRAM", 0x11000000, 2 * 1024 * 1024)  # Secure alias of 0x01000000
DDR = Memory("DDR", 0x70000000, 16 * 1024 * 1024)  # Secure alias of 0x60000000
MEMORIES = (ITCM, DTCM, SRAM, DDR)
# Where the NPU's AXI masters read and write (Arm's Corstone-300 examples put every NPU buffer in
# the SRAM or the DDR); the TCMs are the CPU's own.
NPU_REACHES = (SRAM, DDR)
