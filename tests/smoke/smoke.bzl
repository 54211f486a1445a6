"""Smoke firmware for every board, and proof that each emulated board's fault handler and
test harness (QEMU's, or the RP2350 model's for the Pico 2 W) report misbehaving firmware
(see smoke.c and misbehave.c)."""

load("//rules:defs.bzl", "expect_failure_test", "qemu_test", "instruction_model_test", "tinypte_firmware")

# What a fault report must show: the board's name and its first fault register
# (CFSR on Cortex-M, mcause on RISC-V), from platforms/common/*/ fault handlers.
_FAULT_REPORT = "tinypte: .* on board {}: (CFSR|mcause)=0x[0-9a-f]{{8}}"

# The RP2350 model stops at the trapping instruction itself, naming it and the PC.
_MODEL_FAULT_REPORT = "^instruction_model_test: FAIL undefined instruction 0x[0-9a-f]{4} at PC 0x[0-9a-f]{8} "

def _board_test(*, name, board, firmware, expect_output = [], timeout_seconds = 30, max_instructions = None, **kwargs):
    """A qemu_test, or on a board QEMU lacks an instruction_model_test on its chip's model.

    Args:
      name: the test's name.
      board: the `board()` it runs on.
      firmware: the firmware to run.
      expect_output: regular expressions each some output line must match.
      timeout_seconds: the qemu_test's time limit.
      max_instructions: the instruction_model_test's instruction limit (None: the rule's default).
      **kwargs: other test attributes (size, tags).
    """
    if board.emulator:
        qemu_test(
            name = name,
            firmware = firmware,
            expect_output = expect_output,
            timeout_seconds = timeout_seconds,
            **kwargs
        )
        return
    limit = {"max_instructions": max_instructions} if max_instructions else {}
    instruction_model_test(
        name = name,
        firmware = firmware,
        expect_output = expect_output,
        model = board.instruction_model,
        **dict(kwargs, **limit)
    )

def smoke_tests(*, boards):
    """For each board: `smoke_<board>` (firmware); on emulated and modelled boards also
    `smoke_<board>_test` and `fault_<board>_fails_test`, which runs firmware that traps
    and requires its test to fail with the board's fault report (the RP2350 model's: the
    exception and the PC).

    Args:
      boards: `board()` structs, usually `BOARDS` from //platforms:boards.bzl.
    """
    for board in boards:
        tinypte_firmware(
            name = "smoke_" + board.name,
            board = board,
            srcs = [
                "check_line.h",
                "smoke.c",
            ],
            deps = ["//platforms/common:board_api"],
        )
        if not (board.emulator or board.instruction_model):
            continue
        _board_test(
            name = "smoke_{}_test".format(board.name),
            board = board,
            size = "small",
            expect_output = [
                "^smoke: board={}$".format(board.name),
                "^smoke: PASS$",
            ] + ([] if board.emulator else ["^tinypte: main returned 0x00000000$"]),
            firmware = ":smoke_" + board.name,
        )
        misbehaving_firmware_test(
            name = "fault_" + board.name,
            board = board,
            define = "TP_MISBEHAVE_FAULT",
            message = _FAULT_REPORT.format(board.name) if board.emulator else _MODEL_FAULT_REPORT,
        )

def misbehaving_firmware_test(*, name, board, define, message, timeout_seconds = 30, max_instructions = None):
    """`<name>_fails_test`: misbehave.c built with `define` must fail its test with `message`.

    Args:
      name: prefix of the targets (`<name>` firmware, `<name>_qemu_test` or `<name>_instruction_model_test`,
        `<name>_fails_test`).
      board: the `board()` to run on (it needs an emulator or an instruction model).
      define: the misbehaviour, a misbehave.c compile-time switch.
      message: extended regular expression the failure output must match.
      timeout_seconds: the qemu_test's time limit.
      max_instructions: the instruction_model_test's instruction limit (None: the rule's default).
    """
    tinypte_firmware(
        name = name,
        board = board,
        srcs = ["misbehave.c"],
        local_defines = [define],
        deps = ["//platforms/common:board_api"],
    )
    run = name + ("_qemu_test" if board.emulator else "_instruction_model_test")
    _board_test(
        name = run,
        board = board,
        firmware = ":" + name,
        tags = ["manual"],
        timeout_seconds = timeout_seconds,
        max_instructions = max_instructions,
    )
    expect_failure_test(
        name = name + "_fails_test",
        message = message,
        command = ["$(location :{})".format(run)],
        data = [":" + run],
    )
