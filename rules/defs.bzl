"""Public API of tinypte's Bazel rules. Load from here; implementations are private.

Boards:    tinypte_board, memory_region, qemu
Firmware:  tinypte_firmware (a cc_binary built for one board through a platform transition)
Tests:     qemu_test (runs a firmware under its board's emulator)
Providers: TinypteBoardInfo, TinypteFirmwareInfo
"""

load("//rules:providers.bzl", _TinypteBoardInfo = "TinypteBoardInfo", _TinypteFirmwareInfo = "TinypteFirmwareInfo")
load("//rules/private:board.bzl", _memory_region = "memory_region", _qemu = "qemu", _tinypte_board = "tinypte_board")
load("//rules/private:firmware.bzl", _tinypte_firmware = "tinypte_firmware")
load("//rules/private:qemu_test.bzl", _qemu_test = "qemu_test")

TinypteBoardInfo = _TinypteBoardInfo
TinypteFirmwareInfo = _TinypteFirmwareInfo
memory_region = _memory_region
qemu = _qemu
tinypte_board = _tinypte_board
tinypte_firmware = _tinypte_firmware
qemu_test = _qemu_test
