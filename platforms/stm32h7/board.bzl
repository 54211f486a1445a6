"""STM32H7-class board: a Cortex-M7 with double-precision FPv5 (-mfpu=fpv5-d16).

Run under QEMU `mps2-an500` (a Cortex-M7 FPGA image) as its twin: the regions have the
H7's sizes (STM32H743: 2 MiB of flash, 128 KiB DTCM, 512 KiB AXI SRAM, 288 KiB of SRAM1-3 in
the D2 domain) at the twin's addresses, inside its 4 MiB SSRAM2/3 at 0x20000000 (where the
H7's DTCM also is). On the H7 itself the AXI SRAM is at 0x24000000 and SRAM1-3 at 0x30000000,
and the flash at 0x08000000: a port changes those origins."""

load("//platforms/common:cortex_m.bzl", "qemu_cortex_m_board")
load("//rules:defs.bzl", "memory_region")

BOARD = qemu_cortex_m_board(
    name = "stm32h7",
    cpu = "cortex_m7",
    fpu = "fpv5_d16",
    machine = "mps2-an500",
    memory = [
        memory_region("FLASH", 0x00000000, 2 * 1024 * 1024, "rx"),
        # DTCM: zero wait states at the core clock; the stack, the runtime's data, small arenas.
        memory_region("RAM", 0x20000000, 128 * 1024, "rwx"),
        # AXI SRAM (H7: 0x24000000), on the 64-bit AXI bus: arenas that outgrow the DTCM.
        memory_region("AXI_SRAM", 0x20020000, 512 * 1024, "rwx", speed = 2),
        # SRAM1, SRAM2, SRAM3 of the D2 domain (H7: 0x30000000), on AHB: the slowest on-chip RAM.
        memory_region("SRAM123", 0x200a0000, 288 * 1024, "rwx", speed = 3),
    ],
    stack_size = 8 * 1024,
)
