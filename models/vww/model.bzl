"""The vww model's facts (//models:facts.bzl): //models:zoo.bzl declares its targets from them."""

load("//models:facts.bzl", "model")

MODEL = model(
    name = "vww",
    int8 = True,
    npu = True,
)
