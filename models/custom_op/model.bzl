"""The custom_op model's facts (//models:facts.bzl): //models:zoo.bzl declares its targets from them."""

load("//models:facts.bzl", "model")

# The kernel of mylib::soft_threshold.out: linked because the program calls it.
MODEL = model(
    name = "custom_op",
    kernels = ["soft_threshold.c"],
)
