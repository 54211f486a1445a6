"""A board of the example workspace's own: tinypte's mps2_an505 (QEMU's mps2-an505, a Cortex-M33)
declared with less memory (256 KiB of code, 64 KiB of RAM), as a smaller part of the same family
would have. Its targets are declared in this package (BUILD.bazel: tinypte_board)."""

load("@tinypte//platforms/mps2_an505:board.bzl", mps2_an505 = "BOARD")
load("@tinypte//rules:defs.bzl", "board_variant", "memory_region")

BOARD = board_variant(
    mps2_an505,
    name = "small_an505",
    # This workspace's package, not tinypte's //platforms/<name>.
    package = "//boards/small_an505",
    memory = [
        memory_region("FLASH", 0x10000000, 256 * 1024, "rx"),
        memory_region("RAM", 0x38000000, 64 * 1024, "rwx"),
    ],
    stack_size = 8 * 1024,
)
