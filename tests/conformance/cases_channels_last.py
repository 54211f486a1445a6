"""Conformance cases of portable operators on channels-last tensors (dim order (0, 2, 3, 1)),
what a model exported with channels-last inputs gives the runtime: elementwise operators with
and without broadcasting, the spatial operators of CNNs (convolution, pools, padding,
upsampling, batch norm), reductions over the spatial dims and over channels, softmax over
channels and concatenation. ExecuTorch's portable kernels accept these layouts; the expected
outputs are its host runtime's. See cases.py for how a case is written."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from cases import ELEMENTWISE, EXACT, REDUCTION, Case, Fn, case, f32, nhwc
from torch import nn


def op(name: str) -> str:
    return f"aten::{name}"


TO_DIM_ORDER = "dim_order_ops::_to_dim_order_copy.out"
# What ExecuTorch's own host runtime does with the case (its portable kernels): such a case is
# generated only to check it still fails there, and the runtime is not held to it.
ET_REFUSES = "ExecuTorch's host runtime refuses these channels-last operands (InvalidArgument)"
ET_WRONG = "ExecuTorch's host runtime computes wrong values (its kernel reads channels-last as contiguous)"


CASES: list[Case] = [
    case("nhwc_add", Fn(lambda a, b: a + b), [nhwc(1, 3, 4, 5), nhwc(1, 3, 4, 5)], [op("add.out")], EXACT),
    case(
        "nhwc_add_bias",
        Fn(lambda a, b: a + b),
        [nhwc(2, 4, 3, 3), f32(1, 4, 1, 1)],
        [op("add.out")],
        EXACT,
        unsupported=ET_REFUSES,
    ),
    case(
        "nhwc_mul_row",
        Fn(lambda a, b: a * b),
        [nhwc(1, 4, 3, 5), f32(5)],
        [op("mul.out")],
        EXACT,
        unsupported=ET_REFUSES,
    ),
    case("nhwc_sub_scalar", Fn(lambda a: a - 1.5), [nhwc(1, 6, 2, 3)], [op("sub.out")], EXACT, unsupported=ET_REFUSES),
    case("nhwc_div", Fn(lambda a, b: a / b), [nhwc(1, 3, 4, 4), nhwc(1, 3, 4, 4, kind="nonzero")], [op("div.out")]),
    case(
        "nhwc_sigmoid_mul", Fn(lambda a: a * torch.sigmoid(a)), [nhwc(1, 5, 3, 3)], [op("sigmoid.out"), op("mul.out")]
    ),
    case(
        "nhwc_where",
        Fn(lambda a, b: torch.where(a > 0, a, b)),
        [nhwc(1, 3, 3, 4), nhwc(1, 3, 3, 4)],
        [op("gt.Scalar_out"), op("where.self_out")],
        EXACT,
    ),
    case(
        "nhwc_conv_relu",
        nn.Sequential(nn.Conv2d(3, 6, 3, padding=1), nn.ReLU()),
        [nhwc(1, 3, 6, 6)],
        [op("convolution.out"), op("relu.out")],
        REDUCTION,
    ),
    case("nhwc_max_pool", nn.MaxPool2d(2), [nhwc(1, 4, 6, 6)], [op("max_pool2d_with_indices.out")], EXACT),
    case("nhwc_avg_pool", nn.AvgPool2d(3, 2, 1), [nhwc(1, 4, 7, 7)], [op("avg_pool2d.out"), TO_DIM_ORDER], REDUCTION),
    case(
        "nhwc_mean_hw",
        Fn(lambda a: a.mean((2, 3), keepdim=True)),
        [nhwc(1, 8, 5, 5)],
        [op("mean.out"), TO_DIM_ORDER],
        REDUCTION,
    ),
    case(
        "nhwc_sum_c",
        Fn(lambda a: a.sum(1, keepdim=True)),
        [nhwc(1, 6, 3, 4)],
        [op("sum.IntList_out"), TO_DIM_ORDER],
        REDUCTION,
    ),
    case(
        "nhwc_softmax_c",
        Fn(lambda a: torch.softmax(a, 1)),
        [nhwc(1, 5, 2, 3)],
        [op("_softmax.out")],
        REDUCTION,
        unsupported=ET_REFUSES,
    ),
    case(
        "nhwc_cat_c",
        Fn(lambda a, b: torch.cat([a, b], 1)),
        [nhwc(1, 2, 3, 3), nhwc(1, 3, 3, 3)],
        [op("cat.out")],
        EXACT,
        unsupported=ET_WRONG,
    ),
    case(
        "nhwc_pad",
        Fn(lambda a: F.pad(a, (1, 2, 0, 1))),
        [nhwc(1, 3, 3, 4)],
        [op("constant_pad_nd.out")],
        EXACT,
        unsupported=ET_WRONG,
    ),
    case(
        "nhwc_upsample",
        nn.Upsample(scale_factor=2, mode="nearest"),
        [nhwc(1, 3, 3, 4)],
        [op("upsample_nearest2d.vec_out")],
        EXACT,
    ),
    case(
        "nhwc_batch_norm",
        nn.BatchNorm2d(4),
        [nhwc(1, 4, 3, 3)],
        [op("_native_batch_norm_legit_no_training.out")],
        ELEMENTWISE,
        unsupported=ET_REFUSES,
    ),
    case(
        "nhwc_max_pool_padded",
        nn.MaxPool2d(3, 2, 1, dilation=1, ceil_mode=True),
        [nhwc(2, 3, 7, 6)],
        [op("max_pool2d_with_indices.out")],
        EXACT,
    ),
    case(
        "nhwc_max_pool_indices",
        Fn(lambda a: F.max_pool2d(a, 2, 1, dilation=2, return_indices=True)),
        [nhwc(1, 4, 6, 5)],
        [op("max_pool2d_with_indices.out")],
        EXACT,
    ),
    case(
        "nhwc_upsample_odd",
        nn.Upsample(size=(5, 7), mode="nearest"),
        [nhwc(1, 3, 3, 4)],
        [op("upsample_nearest2d.vec_out")],
        EXACT,
    ),
    case(
        "nhwc_activations",
        Fn(lambda a: torch.tanh(F.gelu(F.elu(F.leaky_relu(a, 0.2))))),
        [nhwc(1, 4, 3, 3)],
        [op("leaky_relu.out"), op("elu.out"), op("gelu.out"), op("tanh.out")],
        ELEMENTWISE,
    ),
    case(
        "nhwc_hardtanh_clamp",
        Fn(lambda a: F.hardtanh(a).clamp(min=-0.5)),
        [nhwc(1, 3, 4, 4)],
        [op("hardtanh.out"), op("clamp.out")],
        EXACT,
    ),
]
