"""The kws model's facts (//models:facts.bzl): //models:zoo.bzl declares its targets from them."""

load("//models:facts.bzl", "SLOW_IN_SOFT_FLOAT", "model")

MODEL = model(
    name = "kws",
    int8 = True,
    npu = True,
    test_sizes = SLOW_IN_SOFT_FLOAT,
    # :kws_int8_lib_cortex_m33, which tests/cmake_consumer runs.
    libraries = {"int8": ["cortex_m33"]},
)
