"""Arm Corstone-300 (SSE-300): a Cortex-M55 with Helium (MVE) and an Ethos-U55 NPU slot,
as emulated by QEMU `mps3-an547` (no NPU model in QEMU). When Arm's
FVP_Corstone_SSE-300_Ethos-U55 is on PATH, qemu_test runs the firmware on it too."""

load("//platforms/common:cortex_m.bzl", "qemu_cortex_m_board")
load("//rules:defs.bzl", "memory_region")

BOARD = qemu_cortex_m_board(
    name = "corstone300",
    cpu = "cortex_m55",
    fpu = "mve_fp",
    machine = "mps3-an547",
    fvp = "FVP_Corstone_SSE-300_Ethos-U55",
    memory = [
        # ITCM through its secure alias (code and constants): 0 wait states.
        memory_region("FLASH", 0x10000000, 512 * 1024, "rx"),
        # DTCM through its secure alias: the stack, the runtime's data, and what else fits.
        memory_region("RAM", 0x30000000, 512 * 1024, "rwx"),
        # SRAM (secure alias of 0x01000000), on the system bus: arenas that outgrow the DTCM, and
        # programs that outgrow the ITCM (the FVP and QEMU load the ELF there, as Arm's
        # Corstone-300 examples load networks into memory other than the ITCM).
        memory_region("SRAM", 0x11000000, 2 * 1024 * 1024, "rwx", speed = 2, loadable = True),
        # DDR (secure alias of 0x60000000): the slowest, for what fits nowhere else.
        memory_region("DDR", 0x70000000, 16 * 1024 * 1024, "rwx", speed = 3, loadable = True),
    ],
    stack_size = 16 * 1024,
)
