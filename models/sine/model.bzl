"""The sine model's facts (//models:facts.bzl): //models:zoo.bzl declares its targets from them."""

load("//models:facts.bzl", "model")

MODEL = model(
    name = "sine",
    # The float program against ExecuTorch: its operators and its host runtime's outputs.
    program_checks = "sine_test.py",
    int8 = True,
    # Test MSE <= 1e-3 (issue 11). Constants: the 288 weights become int8, but the backend keeps
    # the 33 biases in int32 (CMSIS-NN's accumulator type), 132 of the 420 bytes: 32.7 % of the
    # float constants is this model's floor, so the bar here is 33 % (digits_int8 meets 30 %).
    int8_bars = {"metric": "test_mse", "at-most": 1e-3, "max-constant-ratio": 0.33},
    guarded = True,
    # The app needs well under 1 KiB of stack; 4 KiB leaves room for the consoles (and keeps
    # the Pico 2 W firmware in its RAM budget), which the float firmware for the Pico 2 W
    # (USB console included) was promised to stay within: 24 KiB of flash, 8 KiB of RAM.
    stack_size = 4 * 1024,
    budgets = {"pico2w": (24 * 1024, 8 * 1024)},
    # Both programs as libraries for firmware built with CMake or Make (tests/cmake_consumer):
    # :sine_lib_<cpu> and :sine_int8_lib_<cpu>.
    libraries = {
        "float": ["cortex_m33", "cortex_m55", "rv32imac"],
        "int8": ["cortex_m33", "cortex_m55", "rv32imac"],
    },
    # Both programs' stream firmware (windows from the console, runtime/app/stream_app.c):
    # :stream_<board>_test and :int8_stream_<board>_test stream the 68 golden inputs.
    streams = {
        "float": ["mps2_an505", "rv32imac", "pico2w"],
        "int8": ["mps2_an505", "rv32imac", "pico2w"],
    },
    golden_cases = 68,
)
