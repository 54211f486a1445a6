"""The int8 conformance cases: small float modules quantized by ExecuTorch's Cortex-M flow.

Each case is calibrated on CALIBRATION batches drawn like its inputs, quantized with
tinypte.quantize (the flow `executorch_model(quantize = "int8")` uses) and exported; the
expected outputs are the quantized program's, run in PyTorch through the backend's reference
implementations, and tinypte must reproduce them exactly (the outputs are dequantized int8
values: a different rounding anywhere shows). The operators each case lists are the ones its
program calls, checked by generate.py like the float cases'.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
import torch.nn.functional as F
from cases import EXACT, Case, Fn, Input, case, f32, seed_of
from torch import nn

CALIBRATION = 8  # batches per case

Q = "cortex_m::quantize_per_tensor.out"
DQ = "cortex_m::dequantize_per_tensor.out"
LINEAR = "cortex_m::quantized_linear.out"
CONV_NHWC = "cortex_m::quantized_conv2d_nhwc.out"
DEPTHWISE_NHWC = "cortex_m::quantized_depthwise_conv2d_nhwc.out"
MAX_POOL_NHWC = "cortex_m::quantized_max_pool2d_nhwc.out"
AVG_POOL_NHWC = "cortex_m::quantized_avg_pool2d_nhwc.out"
TRANSPOSE = "cortex_m::transpose.out"
ADD = "cortex_m::quantized_add.out"
MUL = "cortex_m::quantized_mul.out"
SOFTMAX = "cortex_m::softmax.out"
ACTIVATION = "cortex_m::quantized_activation.out"
BMM = "cortex_m::quantized_batch_matmul.out"
PAD = "cortex_m::pad.out"
TRANSPOSE_CONV_NHWC = "cortex_m::quantized_transpose_conv2d_nhwc.out"
VIEW = "aten::view_copy.out"


def int8_case(name: str, module: nn.Module, inputs: Sequence[Input], operators: Sequence[str]) -> Case:
    """An int8 case: `case` plus calibration batches from a generator of its own, and the
    case's inputs themselves (so no input is clamped: the int8 program stays close to float,
    which generate.py checks as a sanity check of the case)."""
    base = case(name, module, inputs, operators, EXACT)
    generator = torch.Generator().manual_seed(seed_of(name + "/calibration"))
    drawn = tuple(tuple(spec.make(generator) for spec in inputs) for _ in range(CALIBRATION))
    batches = (tuple(t.clone() for t in base.inputs), *drawn)
    return Case(base.name, base.module, base.inputs, base.operators, EXACT, calibration=batches)


class ConvNet(nn.Module):
    """conv3x3 -> relu -> maxpool -> conv3x3 (stride 2) -> relu -> global avg -> linear."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 12, 3, stride=2, padding=1)
        self.fc = nn.Linear(12 * 2 * 2, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(torch.relu(self.conv1(x)), 2)
        x = torch.relu(self.conv2(x))
        out: torch.Tensor = self.fc(torch.flatten(x, 1))
        return out


def mlp() -> nn.Module:
    return nn.Sequential(nn.Linear(12, 20), nn.ReLU(), nn.Linear(20, 7))


INT8_CASES: list[Case] = [
    int8_case("int8_mlp", mlp(), [f32(1, 12)], [Q, LINEAR, DQ]),
    int8_case("int8_linear_batch", nn.Linear(9, 5), [f32(3, 9)], [Q, LINEAR, DQ]),
    int8_case("int8_conv", nn.Conv2d(3, 8, 3, padding=1), [f32(1, 3, 6, 6)], [Q, TRANSPOSE, CONV_NHWC, DQ]),
    # (No dilated convolution: the reference implementation cannot run one, F.conv2d has no
    # dilated int32 kernel.)
    int8_case("int8_conv_stride", nn.Conv2d(4, 6, 3, stride=2, padding=1), [f32(1, 4, 9, 7)],
              [Q, TRANSPOSE, CONV_NHWC, DQ]),
    int8_case("int8_conv_1x1", nn.Conv2d(5, 3, 1), [f32(1, 5, 4, 4)], [Q, TRANSPOSE, CONV_NHWC, DQ]),
    int8_case("int8_depthwise", nn.Conv2d(4, 8, 3, padding=1, groups=4), [f32(1, 4, 5, 5)],
              [Q, TRANSPOSE, DEPTHWISE_NHWC, DQ]),
    int8_case("int8_max_pool", Fn(lambda x: F.max_pool2d(x, 2)), [f32(1, 3, 6, 6)], [Q, TRANSPOSE, MAX_POOL_NHWC, DQ]),
    int8_case("int8_avg_pool", Fn(lambda x: F.avg_pool2d(x, 2)), [f32(1, 3, 6, 6)], [Q, TRANSPOSE, PAD, AVG_POOL_NHWC, DQ]),
    int8_case("int8_add", Fn(lambda x, y: x + y), [f32(2, 10), f32(2, 10)], [Q, ADD, DQ]),
    int8_case("int8_mul", Fn(lambda x, y: x * y), [f32(2, 10), f32(2, 10)], [Q, MUL, DQ]),
    int8_case("int8_sigmoid", Fn(torch.sigmoid), [f32(3, 11, kind="wide")], [Q, ACTIVATION, DQ]),
    int8_case("int8_softmax", Fn(lambda x: torch.softmax(x, dim=-1)), [f32(2, 10)], [Q, SOFTMAX, DQ]),
    int8_case("int8_bmm", Fn(torch.bmm), [f32(2, 3, 4), f32(2, 4, 5)], [Q, TRANSPOSE, BMM, DQ]),
    int8_case("int8_convnet", ConvNet(), [f32(1, 3, 8, 8)], [Q, TRANSPOSE, CONV_NHWC, MAX_POOL_NHWC, LINEAR, DQ]),
]  # fmt: skip
