"""Boards for the rules' own tests: facts written here, so the tests do not depend on
(or break with) the real boards in //platforms."""

load("//platforms/common:cortex_m.bzl", "CORTEX_M_SEMIHOSTING_STARTUP")
load("//rules:defs.bzl", "board", "memory_region", "qemu")

def fixture_board(*, name, memory, stack_size, emulator = None, cores = 1, two_cores_srcs = []):
    """A Cortex-M33 board declared in //rules/tests."""
    return board(
        name = name,
        package = "//rules/tests",
        cpu = "//platforms/cpu:cortex_m33",
        fpu = "//platforms/fpu:fpv5_sp_d16",
        emulator = emulator,
        memory = memory,
        stack_size = stack_size,
        startup = CORTEX_M_SEMIHOSTING_STARTUP,
        cores = cores,
        two_cores_srcs = two_cores_srcs,
    )

# The memory of the emulated fixtures (the mps2 machines' SSRAM, in part).
_EMULATED_MEMORY = [
    memory_region("FLASH", 0x10000000, 64 * 1024, "rx"),
    memory_region("RAM", 0x38000000, 32 * 1024, "rwx"),
]

EMULATED_FIXTURE = fixture_board(
    name = "fixture_emulated",
    emulator = qemu(system = "arm", machine = "mps2-an505", cpu = "cortex-m33"),
    memory = _EMULATED_MEMORY,
    stack_size = 4 * 1024,
)

BUILD_ONLY_FIXTURE = fixture_board(
    name = "fixture_build_only",
    memory = [
        memory_region("FLASH", 0x10000000, 64 * 1024, "rx"),
        memory_region("RAM", 0x20000000, 32 * 1024, "rwx"),
        memory_region("SCRATCH", 0x20080000, 4 * 1024, "rwx"),
    ],
    stack_size = 2 * 1024,
)

# Two cores: its `:cores` flag is //rules/tests:cores, its two-core board code a stub
# (tiny_two_cores_board.c).
TWO_CORE_FIXTURE = fixture_board(
    name = "fixture_two_cores",
    emulator = qemu(system = "arm", machine = "mps2-an521", cpu = "cortex-m33"),
    memory = _EMULATED_MEMORY,
    stack_size = 4 * 1024,
    cores = 2,
    two_cores_srcs = ["tiny_two_cores_board.c"],
)
