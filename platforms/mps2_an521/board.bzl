"""Arm MPS2 with the AN521 FPGA image: the SSE-200 subsystem's two Cortex-M33s, as emulated
by QEMU `mps2-an521`. The same memory map and console as mps2_an505 (its one-core twin);
core 1 is the runtime's worker in two-core firmware (two_cores.c), the default."""

load("//platforms/common:cortex_m.bzl", "qemu_cortex_m_board")
load("//platforms/mps2_an505:board.bzl", mps2_an505 = "BOARD")

BOARD = qemu_cortex_m_board(
    name = "mps2_an521",
    cpu = "cortex_m33",
    fpu = "fpv5_sp_d16",
    machine = "mps2-an521",
    # QEMU builds the SSE-200's CPU 0 without FPU and DSP extension (the subsystem's
    # defaults; CPU 1 has both). tinypte's Cortex-M33 code uses both, on both cores.
    qemu_args = [
        "-global",
        "sse-200.CPU0_FPU=true",
        "-global",
        "sse-200.CPU0_DSP=true",
    ],
    # mps2_an505's map: QEMU boots core 0 from SSRAM1's vector table; core 1's stack and the
    # cores' mailbox are in the .bss, in SSRAM2/3.
    memory = mps2_an505.memory,
    stack_size = mps2_an505.stack_size,
    cores = 2,
    two_cores_srcs = ["//platforms/mps2_an521:two_cores.c"],
)
