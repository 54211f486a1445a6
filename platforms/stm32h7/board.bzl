"""STM32H7-class board: a Cortex-M7 with double-precision FPv5 (-mfpu=fpv5-d16).

Run under QEMU `mps2-an500` (a Cortex-M7 FPGA image) as its twin: the regions sit at the
twin's addresses (code at 0, data at 0x20000000, where the H7's ITCM/DTCM also are) with
the H7's budgets: 2 MiB of flash, 128 KiB of DTCM as the RAM region."""

load("//platforms/common:cortex_m.bzl", "CORTEX_M_SEMIHOSTING_STARTUP")
load("//rules:defs.bzl", "board", "memory_region", "qemu")

BOARD = board(
    name = "stm32h7",
    cpu = "//platforms/cpu:cortex_m7",
    fpu = "//platforms/fpu:fpv5_d16",
    emulator = qemu(system = "arm", machine = "mps2-an500", cpu = "cortex-m7"),
    memory = [
        memory_region("FLASH", 0x00000000, 2 * 1024 * 1024, "rx"),
        memory_region("RAM", 0x20000000, 128 * 1024, "rwx"),
    ],
    stack_size = 8 * 1024,
    startup = CORTEX_M_SEMIHOSTING_STARTUP,
)
