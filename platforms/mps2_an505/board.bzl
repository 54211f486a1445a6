"""Arm MPS2 with the AN505 FPGA image: a Cortex-M33 (Armv8-M Mainline + FPU + DSP), as
emulated by QEMU `mps2-an505`. It is the Pico 2 W's twin: same core, same compiler flags
(//toolchains:arm_cortex_m33), so firmware tested here is the Pico's code."""

load("//platforms/common:cortex_m.bzl", "qemu_cortex_m_board")
load("//rules:defs.bzl", "memory_region")

BOARD = qemu_cortex_m_board(
    name = "mps2_an505",
    cpu = "cortex_m33",
    fpu = "fpv5_sp_d16",
    machine = "mps2-an505",
    memory = [
        # SSRAM1 through its secure alias; QEMU boots from its vector table.
        memory_region("FLASH", 0x10000000, 4 * 1024 * 1024, "rx"),
        # SSRAM2/3, secure alias.
        memory_region("RAM", 0x38000000, 2 * 1024 * 1024, "rwx"),
    ],
    stack_size = 16 * 1024,
)
