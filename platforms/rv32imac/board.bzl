"""RISC-V RV32IMAC (no FPU, soft float, ilp32) under QEMU `virt` in machine mode."""

load("//platforms/common:riscv_virt.bzl", "virt_board")

BOARD = virt_board(name = "rv32imac", fpu = "//platforms/fpu:none")
