"""The imu model's facts (//models:facts.bzl): //models:zoo.bzl declares its targets from them."""

load("//models:facts.bzl", "model")

# No int8 program yet: the Cortex-M backend's explicit-layout pipeline refuses 1-D convolutions
# and pools, and its default pipeline (which the quantize stage falls back to) leaves them float:
# an int8 imu would be int8 only at its linear layer (issue 24: lower them as 2-D of height 1).
MODEL = model(
    name = "imu",
)
