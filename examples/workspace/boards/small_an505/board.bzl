"""A board of the example workspace's own: QEMU's mps2-an505 (Cortex-M33) declared with less
memory than tinypte's mps2_an505 (256 KiB of code, 64 KiB of RAM), as a smaller part of the same
family would have. Its targets are declared in this package (BUILD.bazel: tinypte_board)."""

load("@tinypte//platforms/common:cortex_m.bzl", "qemu_cortex_m_board")
load("@tinypte//rules:defs.bzl", "memory_region")

BOARD = qemu_cortex_m_board(
    name = "small_an505",
    cpu = "cortex_m33",
    fpu = "fpv5_sp_d16",
    machine = "mps2-an505",
    memory = [
        memory_region("FLASH", 0x10000000, 256 * 1024, "rx"),
        memory_region("RAM", 0x38000000, 64 * 1024, "rwx"),
    ],
    stack_size = 8 * 1024,
    # This workspace's package, not tinypte's //platforms/<name>.
    package = "//boards/small_an505",
)
