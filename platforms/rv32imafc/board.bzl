"""RISC-V RV32IMAFC (F extension, ilp32f) under QEMU `virt` in machine mode."""

load("//platforms/common:riscv_virt.bzl", "virt_board")

BOARD = virt_board(name = "rv32imafc", fpu = "//platforms/fpu:riscv_f")
