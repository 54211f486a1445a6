"""Arm Corstone-300 (SSE-300): a Cortex-M55 with Helium (MVE) and an Ethos-U55 NPU slot,
as emulated by QEMU `mps3-an547` (no NPU model in QEMU). When Arm's
FVP_Corstone_SSE-300_Ethos-U55 is on PATH, qemu_test runs the firmware on it too."""

load("//platforms/common:cortex_m.bzl", "CORTEX_M_SEMIHOSTING_STARTUP")
load("//rules:defs.bzl", "board", "memory_region", "qemu")

BOARD = board(
    name = "corstone300",
    cpu = "//platforms/cpu:cortex_m55",
    fpu = "//platforms/fpu:mve_fp",
    emulator = qemu(system = "arm", machine = "mps3-an547", cpu = "cortex-m55"),
    fvp = "FVP_Corstone_SSE-300_Ethos-U55",
    memory = [
        # ITCM through its secure alias (code and constants).
        memory_region("FLASH", 0x10000000, 512 * 1024, "rx"),
        # DTCM through its secure alias.
        memory_region("RAM", 0x30000000, 512 * 1024, "rwx"),
        # Larger, slower memories for big models (not used by the default layout).
        memory_region("SRAM", 0x01000000, 2 * 1024 * 1024, "rwx"),
        memory_region("DDR", 0x60000000, 16 * 1024 * 1024, "rwx"),
    ],
    stack_size = 16 * 1024,
    startup = CORTEX_M_SEMIHOSTING_STARTUP,
)
