"""RISC-V RV32IMAC (no FPU, soft float, ilp32) under QEMU `virt` in machine mode."""

load("//platforms/common:riscv_virt.bzl", "VIRT_MEMORY", "VIRT_QEMU", "VIRT_STARTUP")
load("//rules:defs.bzl", "board")

BOARD = board(
    name = "rv32imac",
    cpu = "//platforms/cpu:rv32imac",
    fpu = "//platforms/fpu:none",
    emulator = VIRT_QEMU,
    memory = VIRT_MEMORY,
    stack_size = 16 * 1024,
    startup = VIRT_STARTUP,
)
