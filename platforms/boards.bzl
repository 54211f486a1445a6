"""Every board tinypte builds for: the one list that test suites and model_firmware read.

A board is a folder `platforms/<name>/` whose `board.bzl` defines `BOARD = board(...)`.
Adding one is that folder plus one `load` line and one list entry here (and a toolchain
when its CPU is new): smoke tests, conformance runs, model firmware, size tables and their
QEMU tests then cover it with no other change.
"""

load("//platforms/corstone300:board.bzl", corstone300 = "BOARD")
load("//platforms/corstone300_npu:board.bzl", corstone300_npu = "BOARD")
load("//platforms/mps2_an505:board.bzl", mps2_an505 = "BOARD")
load("//platforms/mps2_an521:board.bzl", mps2_an521 = "BOARD")
load("//platforms/pico2w:board.bzl", pico2w = "BOARD")
load("//platforms/rv32imac:board.bzl", rv32imac = "BOARD")
load("//platforms/rv32imafc:board.bzl", rv32imafc = "BOARD")
load("//platforms/stm32h7:board.bzl", stm32h7 = "BOARD")

BOARDS = [
    mps2_an505,
    mps2_an521,
    corstone300,
    stm32h7,
    rv32imac,
    rv32imafc,
    pico2w,
]

# Boards with an Ethos-U55 NPU (board(npu = ...)), outside BOARDS: model firmware, smoke and
# conformance runs are not built for them; their own packages test them. corstone300_npu is the
# Corstone-300 on tinypte's machine model (a Cortex-M33 build: unicorn has no Cortex-M55) with
# the NPU's functional model; //platforms/corstone300_npu/tests runs the Ethos-U55 driver on it.
NPU_BOARDS = [corstone300_npu]

# Boards an emulator here runs (QEMU): those with firmware tests.
EMULATED_BOARDS = [board for board in BOARDS if board.emulator]

# Boards whose firmware uses a second core by default (board(cores = 2)).
TWO_CORE_BOARDS = [board for board in BOARDS if board.cores == 2]

# Boards QEMU lacks whose real image runs on an instruction-level model of the chip (the
# Pico 2 W's RP2350: instruction_model_test): they have firmware tests and perf rows too.
MODELLED_BOARDS = [board for board in BOARDS if board.instruction_model]

# The board for checks that need one board only (runtime size probes, failure-path
# firmware): the emulated Cortex-M33, the core of the Pico 2 W.
REFERENCE_BOARD = mps2_an505
