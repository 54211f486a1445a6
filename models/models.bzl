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

def model_label(name):
    """The executorch_model target of model `name`."""
    return "//models/{0}:{0}".format(name)

def model_firmware_label(name, board):
    """Model `name`'s firmware for `board` (a board() struct), as model_firmware names it."""
    return "//models/{}:{}_elf".format(name, board.name)
