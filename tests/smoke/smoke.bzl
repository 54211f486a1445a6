"""Smoke firmware for every board, and proof that each emulated board's fault handler and
the QEMU test harness report misbehaving firmware (see smoke.c and misbehave.c)."""

load("//rules:defs.bzl", "qemu_test", "tinypte_firmware")
load(":expect_failure.bzl", "expect_failure_test")

# What a fault report must show: the board's name and its first fault register
# (CFSR on Cortex-M, mcause on RISC-V), from platforms/common/*/ fault handlers.
_FAULT_REPORT = "tinypte: .* on board {}: (CFSR|mcause)=0x[0-9a-f]{{8}}"

def smoke_tests(*, boards):
    """For each board: `smoke_<board>` (firmware); on emulated boards also
    `smoke_<board>_test` and `fault_<board>_fails_test`, which runs firmware that traps
    and requires its qemu_test to fail with the board's fault report.

    Args:
      boards: `board()` structs, usually `BOARDS` from //platforms:boards.bzl.
    """
    for board in boards:
        tinypte_firmware(
            name = "smoke_" + board.name,
            board = board,
            srcs = ["smoke.c"],
            deps = ["//platforms/common:board_api"],
        )
        if not board.emulator:
            continue
        qemu_test(
            name = "smoke_{}_test".format(board.name),
            size = "small",
            expect_output = [
                "^smoke: board={}$".format(board.name),
                "^smoke: PASS$",
            ],
            firmware = ":smoke_" + board.name,
        )
        misbehaving_firmware_test(
            name = "fault_" + board.name,
            board = board,
            define = "TP_MISBEHAVE_FAULT",
            message = _FAULT_REPORT.format(board.name),
        )

def misbehaving_firmware_test(*, name, board, define, message, timeout_seconds = 30):
    """`<name>_fails_test`: misbehave.c built with `define` must fail its qemu_test with `message`.

    Args:
      name: prefix of the targets (`<name>` firmware, `<name>_qemu_test`, `<name>_fails_test`).
      board: the `board()` to run on (it needs an emulator).
      define: the misbehaviour, a misbehave.c compile-time switch.
      message: extended regular expression the failure output must match.
      timeout_seconds: the qemu_test's time limit.
    """
    tinypte_firmware(
        name = name,
        board = board,
        srcs = ["misbehave.c"],
        local_defines = [define],
        deps = ["//platforms/common:board_api"],
    )
    qemu_test(
        name = name + "_qemu_test",
        firmware = ":" + name,
        tags = ["manual"],
        timeout_seconds = timeout_seconds,
    )
    expect_failure_test(
        name = name + "_fails_test",
        message = message,
        command = ["$(location :{}_qemu_test)".format(name)],
        data = [":{}_qemu_test".format(name)],
    )
