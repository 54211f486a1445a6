"""The digits model's facts (//models:facts.bzl): //models:zoo.bzl declares its targets from them."""

load("//models:facts.bzl", "model")

MODEL = model(
    name = "digits",
    # The float program against ExecuTorch: its operators and its host runtime's outputs.
    program_checks = "digits_test.py",
    int8 = True,
    # Issue 11's bars: test accuracy within 1 point of float, int8 constants <= 30 % and arena
    # <= 40 % of float's.
    int8_bars = {
        "metric": "test_accuracy",
        "higher-is-better": True,
        "within": 0.01,
        "max-constant-ratio": 0.30,
        "max-arena-ratio": 0.40,
    },
    guarded = True,
)
