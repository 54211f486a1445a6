"""Every example model: the one list the benches (size table, perf table and its guard) read.

A model is a folder `models/<name>/` whose BUILD file declares `executorch_model(name =
"<name>", ...)` and `model_firmware(...)` for `BOARDS`. Adding one is that folder and its
name here.
"""

MODELS = [
    "sine",
    "digits",
    "sine_int8",
    "digits_int8",
]

# The model zoo (issue 12): shaped like what people deploy (MLPerf Tiny), each with firmware
# for the boards it fits (models/zoo.bzl). Its perf rows are `//tests/bench:zoo_perf`'s (the
# guard keeps to MODELS: the zoo's big models take minutes to trace).
ZOO_MODELS = [
    "kws",
    "kws_int8",
    "resnet8",
    "resnet8_int8",
    "anomaly",
    "anomaly_int8",
    "vww",
    "vww_int8",
    "imu",
    "tiny_transformer",
    "custom_op",
]

# Boards a zoo model does not fit, and the region it overflows: zoo_firmware declares a
# fit-error test for each instead of firmware, and the benches skip them.
TOO_SMALL = {
    "anomaly": {"corstone300": "flash"},
    "resnet8": {"stm32h7": "RAM"},
    "vww": {"corstone300": "flash", "stm32h7": "RAM"},
    "vww_int8": {"stm32h7": "RAM"},
}

# Boards whose zoo rows the perf bench skips for float models: rv32imac has no FPU, and
# tracing its soft-float emulation of a float zoo model instruction by instruction takes
# many minutes (its QEMU tests still run every model).
ZOO_PERF_SKIP_FLOAT = ["rv32imac"]

# Size budgets tighter than a board's regions, model -> board -> (flash bytes, RAM bytes): the
# firmware build prints them and fails above them (the Pico 2 W's sine firmware, USB console
# included, was promised to stay within 24 KiB of flash and 8 KiB of RAM).
BUDGETS = {
    "sine": {"pico2w": (24 * 1024, 8 * 1024)},
}

def fitting_boards(name, boards):
    """The boards of `boards` model `name` fits (all but TOO_SMALL's)."""
    return [b for b in boards if b.name not in TOO_SMALL.get(name, {})]

# The models ExecuTorch's own host runtime can run (the int8 ones call cortex_m::* operators,
# for which the wheel has no kernels): the host timing rows of the perf bench.
EXECUTORCH_RUNNABLE_MODELS = [m for m in MODELS if not m.endswith("_int8")]

def model_label(name):
    """The executorch_model target of model `name`."""
    return "//models/{0}:{0}".format(name)

def model_firmware_label(name, board):
    """Model `name`'s firmware for `board` (a board() struct), as model_firmware names it."""
    return "//models/{}:{}_elf".format(name, board.name)
