"""Arm MPS2 with the AN521 FPGA image: the SSE-200 subsystem's two Cortex-M33s, as emulated
by QEMU `mps2-an521`. The same memory map and console as mps2_an505 (its one-core twin);
core 1 is the runtime's worker in two-core firmware (core1.c), the default."""

load("//platforms/common:cortex_m.bzl", "CORTEX_M_SEMIHOSTING_STARTUP")
load("//rules:defs.bzl", "board", "memory_region", "qemu")

BOARD = board(
    name = "mps2_an521",
    cpu = "//platforms/cpu:cortex_m33",
    fpu = "//platforms/fpu:fpv5_sp_d16",
    emulator = qemu(
        system = "arm",
        machine = "mps2-an521",
        cpu = "cortex-m33",
        # QEMU builds the SSE-200's CPU 0 without FPU and DSP extension (the subsystem's
        # defaults; CPU 1 has both). tinypte's Cortex-M33 code uses both, on both cores.
        args = [
            "-global",
            "sse-200.CPU0_FPU=true",
            "-global",
            "sse-200.CPU0_DSP=true",
        ],
    ),
    memory = [
        # SSRAM1 through its secure alias; QEMU boots core 0 from its vector table.
        memory_region("FLASH", 0x10000000, 4 * 1024 * 1024, "rx"),
        # SSRAM2/3, secure alias; core 1's stack and the cores' mailbox are in its .bss.
        memory_region("RAM", 0x38000000, 2 * 1024 * 1024, "rwx"),
    ],
    stack_size = 16 * 1024,
    startup = CORTEX_M_SEMIHOSTING_STARTUP,
    cores = 2,
    core1 = ["//platforms/mps2_an521:core1.c"],
)
