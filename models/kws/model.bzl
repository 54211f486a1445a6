"""The kws model's facts (//models:facts.bzl): //models:zoo.bzl declares its targets from them."""

load("//models:facts.bzl", "SLOW_IN_SOFT_FLOAT", "model")

MODEL = model(
    name = "kws",
    int8 = True,
    npu = True,
    test_sizes = SLOW_IN_SOFT_FLOAT,
    # :kws_int8_lib_cortex_m33, which tests/cmake_consumer runs.
    libraries = {"int8": ["cortex_m33"]},
    # The int8 program's stream firmware on the Cortex-M33 (:int8_stream_mps2_an505_test streams
    # the 12 golden MFCC windows of 490 values; `bazel run :int8_stream_mps2_an505 -- --golden`).
    streams = {"int8": ["mps2_an505"]},
    golden_cases = 12,
)
