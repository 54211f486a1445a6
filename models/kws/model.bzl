"""The kws model's facts (//models:facts.bzl): //models:zoo.bzl declares its targets from them."""

load("//models:facts.bzl", "SLOW_IN_SOFT_FLOAT", "model")

MODEL = model(
    name = "kws",
    int8 = True,
    npu = True,
    test_sizes = SLOW_IN_SOFT_FLOAT,
)
