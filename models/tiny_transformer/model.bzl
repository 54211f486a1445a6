"""The tiny_transformer model's facts (//models:facts.bzl): //models:zoo.bzl declares its targets from them."""

load("//models:facts.bzl", "model")

# No int8 program: ExecuTorch's Cortex-M quantizer refuses the attention
# (ReplaceScalarWithTensorArgPass).
MODEL = model(
    name = "tiny_transformer",
)
