"""The resnet8 model's facts (//models:facts.bzl): //models:zoo.bzl declares its targets from them."""

load("//models:facts.bzl", "model")

MODEL = model(
    name = "resnet8",
    int8 = True,
    npu = True,
    # Its float program in soft-float on rv32imac (no FPU), under QEMU: 41 s (resnet8) and
    # 24 s (kws) of a small test's 60 s in a cold `bazel test //...` with one of two cores busy.
    test_sizes = {"rv32imac": "medium"},
)
