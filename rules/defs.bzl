"""Public API of tinypte's Bazel rules. Load from here; implementations are private.

Boards:    board, memory_region, qemu (a board's facts, in platforms/<board>/board.bzl),
           board_variant (a board of another's chip with its own name and memory map),
           tinypte_board (declares a board's targets from them)
Firmware:  tinypte_firmware (a cc_binary built for one board through a platform transition),
           firmware_uf2 (drag-and-drop image),
           firmware_with_cores (a firmware built with two-core boards' `:cores` flag set)
Tests:     qemu_test (runs a firmware under its board's emulator),
           instruction_model_test (runs a firmware's real image on its board's instruction-level
             model: the RP2350 model for the Pico 2 W, the Corstone-300 machine with its Ethos-U55),
           expect_failure_test (a command must fail, with a given message),
           stream_test (a stream firmware fed the golden inputs, each answer checked)
Live data: stream_run (bazel run: tools/stream.py bound to a stream firmware,
             model_firmware(app = "stream"))
Settings:  choice_flag (a string build setting with fixed choices)
Models:    model_weights (model.py -> trained weights and metrics, once per model file),
           executorch_model (weights -> .pte, float or int8, ops, memory plan, golden data,
           and the program as a C library `:<name>_program`),
           executorch_model_report (bazel run: summary and plots),
           executorch_program (a .pte made elsewhere: golden data, firmware, tests)
Firmware:  model_firmware (a model's inference firmware for many boards, with QEMU tests)
Models:    tinypte_model (a model file's float and int8 programs, their firmware for a list of
           boards and their reports, in any package: what models/zoo.bzl and a workspace that
           has tinypte as @tinypte both use)
Libraries: model_library (one program as a static library + CMake package for one CPU, for
             firmware built elsewhere)
Kernels:   kernel_library (selective build: only the kernels some programs call)
Providers: TinypteBoardInfo, TinypteFirmwareInfo, TinypteWeightsInfo, TinyptePteInfo,
           TinypteKernelRegistryInfo
"""

load(
    "//rules:providers.bzl",
    _TinypteBoardInfo = "TinypteBoardInfo",
    _TinypteFirmwareInfo = "TinypteFirmwareInfo",
    _TinypteKernelRegistryInfo = "TinypteKernelRegistryInfo",
    _TinyptePteInfo = "TinyptePteInfo",
    _TinypteWeightsInfo = "TinypteWeightsInfo",
)
load("//rules/private:board.bzl", _board = "board", _board_variant = "board_variant", _memory_region = "memory_region", _qemu = "qemu", _tinypte_board = "tinypte_board")
load("//rules/private:choice_flag.bzl", _choice_flag = "choice_flag")
load("//rules/private:expect_failure.bzl", _expect_failure_test = "expect_failure_test")
load("//rules/private:firmware.bzl", _firmware_uf2 = "firmware_uf2", _firmware_with_cores = "firmware_with_cores", _tinypte_firmware = "tinypte_firmware")
load("//rules/private:instruction_model_test.bzl", _pico2w_console_firmware = "pico2w_console_firmware", _instruction_model_test = "instruction_model_test")
load("//rules/private:kernels.bzl", _kernel_library = "kernel_library")
load("//rules/private:model.bzl", _executorch_model = "executorch_model")
load("//rules/private:model_firmware.bzl", _model_firmware = "model_firmware")
load("//rules/private:model_library.bzl", _model_library = "model_library")
load("//rules/private:program.bzl", _executorch_program = "executorch_program")
load("//rules/private:qemu_test.bzl", _qemu_test = "qemu_test")
load("//rules/private:report.bzl", _executorch_model_report = "executorch_model_report")
load("//rules/private:stream.bzl", _stream_run = "stream_run", _stream_test = "stream_test")
load("//rules/private:tinypte_model.bzl", _tinypte_model = "tinypte_model")
load("//rules/private:training.bzl", _model_weights = "model_weights")

TinypteBoardInfo = _TinypteBoardInfo
TinypteFirmwareInfo = _TinypteFirmwareInfo
TinyptePteInfo = _TinyptePteInfo
TinypteKernelRegistryInfo = _TinypteKernelRegistryInfo
TinypteWeightsInfo = _TinypteWeightsInfo
model_weights = _model_weights
kernel_library = _kernel_library
model_firmware = _model_firmware
tinypte_model = _tinypte_model
model_library = _model_library
executorch_model = _executorch_model
executorch_program = _executorch_program
executorch_model_report = _executorch_model_report
board = _board
board_variant = _board_variant
memory_region = _memory_region
qemu = _qemu
tinypte_board = _tinypte_board
tinypte_firmware = _tinypte_firmware
firmware_uf2 = _firmware_uf2
firmware_with_cores = _firmware_with_cores
qemu_test = _qemu_test
stream_run = _stream_run
stream_test = _stream_test
instruction_model_test = _instruction_model_test
pico2w_console_firmware = _pico2w_console_firmware
choice_flag = _choice_flag
expect_failure_test = _expect_failure_test
