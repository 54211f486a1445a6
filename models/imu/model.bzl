"""The imu model's facts (//models:facts.bzl): //models:zoo.bzl declares its targets from them."""

load("//models:facts.bzl", "model")

MODEL = model(
    name = "imu",
    # int8 through the Cortex-M backend's explicit-layout pipeline: its Conv1d and 1-D pools
    # as 2-D of height 1, its LeakyReLUs as 256-entry tables (python/tinypte/quantize).
    int8 = True,
    int8_bars = {
        "metric": "test_accuracy",
        "higher-is-better": True,
        "within": 0.02,
        # 31.5 %: its three LeakyReLU tables (768 B) and int32 biases on a small network.
        "max-constant-ratio": 0.35,
        "max-arena-ratio": 0.40,
    },
)
