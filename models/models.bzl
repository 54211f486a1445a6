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

# The models ExecuTorch's own host runtime can run (the int8 ones call cortex_m::* operators,
# for which the wheel has no kernels): the host timing rows of the perf bench.
EXECUTORCH_RUNNABLE_MODELS = [m for m in MODELS if not m.endswith("_int8")]

def model_label(name):
    """The executorch_model target of model `name`."""
    return "//models/{0}:{0}".format(name)

def model_firmware_label(name, board):
    """Model `name`'s firmware for `board` (a board() struct), as model_firmware names it."""
    return "//models/{}:{}_elf".format(name, board.name)
