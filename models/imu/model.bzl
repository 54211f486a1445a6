"""The imu model's facts (//models:facts.bzl): //models:zoo.bzl declares its targets from them."""

load("//models:facts.bzl", "model")

# No int8 program: ExecuTorch's Cortex-M quantizer refuses the 1-D convolutions
# (ValidateCortexMExplicitLayoutPass).
MODEL = model(
    name = "imu",
)
