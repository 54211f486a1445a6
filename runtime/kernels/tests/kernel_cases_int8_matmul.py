"""Kernel test cases: the int8 matrix products of ExecuTorch's Cortex-M backend.

cortex_m::quantized_linear (both of its reference's modes: kernel_sum, summed in int64 with
bias ignored, and bias or no bias, summed in wrapping int32) and cortex_m::quantized_batch_matmul.
Expected outs come from the backend's reference implementations (operators.py), bit for bit.
Depths cover the fast paths' tails (not multiples of 4, 8 or 16) and more than the DSP path's
256-column chunk; kernel_test runs the portable path, s8_matmul_check the DSP and Helium ones.
Batch matmul cases keep depth * (128 + |lhs_zp|) * (128 + |rhs_zp|) <= 2^24, where the
reference's float32 sums are exact.
"""

from __future__ import annotations

import torch
from executorch.backends.cortex_m.passes.passes_utils import quantize_multiplier_aot
from kernel_case import ARGS, DTYPE, ArgValue, Case, CaseList, Rng, collect, f32, i8, i32, i64, int8, u8

Args = dict[str, ArgValue]

LINEAR = "cortex_m::quantized_linear.out"
BATCH_MATMUL = "cortex_m::quantized_batch_matmul.out"
INT32_MAX = 2**31 - 1


def cases(rng: Rng) -> list[Case]:
    """The cases, drawing their random inputs from `rng` in a fixed order."""
    return collect(rng, linear, batch_matmul)


def requant(scale: float) -> tuple[int, int]:
    """The multiplier and shift the backend's passes compute for `scale`."""
    multiplier, shift = quantize_multiplier_aot(scale)
    return int(multiplier), int(shift)


def linear_args(
    x: torch.Tensor,
    w: torch.Tensor,
    *,
    bias: torch.Tensor | None = None,
    kernel_sum: torch.Tensor | None = None,
    input_offset: int = 0,
    filter_offset: int = 0,
    output_offset: int = 0,
    scale: float = 1 / 300,
    mult_shift: tuple[int, int] | None = None,
    lists: int = 1,
    lo: int = -128,
    hi: int = 127,
) -> Args:
    mult, shift = mult_shift if mult_shift is not None else requant(scale)
    return {
        "input": x,
        "weights": w,
        "bias": bias,
        "kernel_sum": kernel_sum,
        "input_offset": input_offset,
        "filter_offset": filter_offset,
        "output_offset": output_offset,
        "requantize_multipliers": [mult] * lists,
        "requantize_shifts": [shift] * lists,
        "activation_max": hi,
        "activation_min": lo,
    }


def bias32(rng: Rng, n: int, span: int = 5000) -> torch.Tensor:
    return rng.randint(n, lo=-span, hi=span, dtype=i32)


def linear(cs: CaseList, rng: Rng) -> None:
    op = LINEAR
    # The digits model's classifier: 64 -> 10, input zero point -128 (offset 128).
    x, w = int8(rng, 1, 64), int8(rng, 10, 64)
    cs.ok(op, "digits_fc", linear_args(x, w, bias=bias32(rng, 10), input_offset=128, output_offset=-7,
                                         scale=0.0021))  # fmt: skip
    for k in (1, 3, 4, 7, 8, 15, 16, 17, 33, 63, 100):  # every tail of 4, 8 and 16 columns
        n = 1 + k % 9
        x, w = int8(rng, 2, k), int8(rng, n, k)
        cs.ok(op, f"bias_depth_{k}", linear_args(x, w, bias=bias32(rng, n), input_offset=-37 + k,
                                                   output_offset=3, scale=0.007 / k**0.5))  # fmt: skip
    x, w = int8(rng, 2, 3, 37), int8(rng, 7, 37)
    cs.ok(op, "batch_dims_filter_offset", linear_args(x, w, bias=bias32(rng, 7), input_offset=12, filter_offset=-3,
                                                        output_offset=-20, scale=0.0007))  # fmt: skip
    x, w = int8(rng, 3, 19), int8(rng, 5, 19)
    cs.ok(op, "no_bias", linear_args(x, w, input_offset=-128 + 255, scale=0.003))
    x, w = int8(rng, 300), int8(rng, 6, 300)  # rank-1 input; more than one DSP chunk
    cs.ok(op, "rank1_depth_300", linear_args(x, w, bias=bias32(rng, 6), input_offset=100, scale=0.00011))
    x, w = int8(rng, 2, 600), int8(rng, 9, 600)
    cs.ok(op, "depth_600_relu", linear_args(x, w, bias=bias32(rng, 9), input_offset=-5, filter_offset=2,
                                              output_offset=-60, scale=0.0003, lo=-60, hi=127))  # fmt: skip
    x, w = int8(rng, 4, 24), int8(rng, 8, 24)
    cs.ok(op, "relu_range", linear_args(x, w, bias=bias32(rng, 8), input_offset=3, output_offset=-40,
                                          scale=0.004, lo=-40, hi=127))  # fmt: skip
    cs.ok(op, "narrow_range", linear_args(x, w, bias=bias32(rng, 8), input_offset=3, scale=0.004, lo=-10, hi=10))
    cs.ok(op, "saturates", linear_args(x, w, bias=bias32(rng, 8), input_offset=-70, scale=0.9))
    cs.ok(op, "per_channel_lists", linear_args(x, w, bias=bias32(rng, 8), input_offset=1, scale=0.002, lists=8))
    cs.ok(op, "shift_30", linear_args(x, w, input_offset=9, mult_shift=(3, 30)))
    cs.ok(op, "shift_minus_31", linear_args(x, w, input_offset=9, mult_shift=(INT32_MAX, -31), output_offset=1))
    cs.ok(op, "negative_multiplier", linear_args(x, w, input_offset=9, mult_shift=(-(2**30) - 12345, -9)))
    # int32 wraps: the bias mode adds in int32 (torch's int32 tensors).
    big = torch.tensor([INT32_MAX, -(2**31), INT32_MAX - 5, 7, -7, 2**30, -(2**30), 0], dtype=i32)
    cs.ok(op, "bias_wraps", linear_args(x, w, bias=big, input_offset=128, filter_offset=128,
                                          mult_shift=(2**30, -20)))  # fmt: skip
    # kernel_sum mode: bias ignored, input_offset ignored, int64 sums.
    x, w = int8(rng, 3, 40), int8(rng, 9, 40)
    io, b = 128, bias32(rng, 9)
    ks = (w.to(i32).sum(dim=1) * io + b).to(i32)  # CMSIS-NN's kernel sum: bias + input_offset * row sums
    cs.ok(op, "kernel_sum", linear_args(x, w, kernel_sum=ks, input_offset=io, scale=0.0013, output_offset=5))
    # [1, N]: how the backend's passes store kernel_sum in exported programs.
    cs.ok(op, "kernel_sum_row", linear_args(x, w, kernel_sum=ks[None, :], input_offset=io, scale=0.0013))
    cs.ok(op, "kernel_sum_ignores_bias", linear_args(x, w, bias=b * 9, kernel_sum=ks, input_offset=-99,
                                                       scale=0.0013))  # fmt: skip
    cs.ok(op, "kernel_sum_filter_offset", linear_args(x, w, kernel_sum=ks, filter_offset=-11, scale=0.0011))
    x, w = int8(rng, 2, 2, 21), int8(rng, 5, 21)
    huge = torch.tensor([INT32_MAX, -(2**31), INT32_MAX, -(2**31) + 1, 2**30], dtype=i32)
    cs.ok(op, "kernel_sum_int64", linear_args(x, w, kernel_sum=huge, filter_offset=2**31 - 1,
                                                mult_shift=(2**30 + 3, -31)))  # fmt: skip
    cs.ok(op, "kernel_sum_int64_shift", linear_args(x, w, kernel_sum=huge, filter_offset=-(2**31),
                                                      mult_shift=(1518500250, 4)))  # fmt: skip
    x, w = int8(rng, 1, 17), int8(rng, 3, 17)
    cs.ok(op, "kernel_sum_tail_17", linear_args(x, w, kernel_sum=bias32(rng, 3), filter_offset=1, scale=0.01))
    cs.ok(op, "empty_rows", linear_args(torch.zeros(0, 8, dtype=i8), int8(rng, 4, 8), input_offset=1))
    cs.ok(op, "empty_depth", linear_args(torch.zeros(2, 0, dtype=i8), torch.zeros(3, 0, dtype=i8),
                                           bias=torch.tensor([100, -300, 7], dtype=i32), scale=0.1))  # fmt: skip

    x, w, b = int8(rng, 2, 8), int8(rng, 3, 8), bias32(rng, 3)
    base = linear_args(x, w, bias=b, input_offset=1)
    out = ((2, 3), i8)
    cs.err(op, "float_input", DTYPE, out, {**base, "input": x.to(f32)})
    cs.err(op, "int32_weights", DTYPE, out, {**base, "weights": w.to(i32)})
    cs.err(op, "float_bias", DTYPE, out, {**base, "bias": b.to(f32)})
    cs.err(op, "int64_kernel_sum", DTYPE, out, {**base, "kernel_sum": b.to(i64)})
    cs.err(op, "float_out", DTYPE, ((2, 3), f32), base)
    cs.err(op, "int32_out", DTYPE, ((2, 3), i32), base)
    cs.err(op, "weights_1d", ARGS, out, {**base, "weights": int8(rng, 8)})
    cs.err(op, "weights_3d", ARGS, out, {**base, "weights": int8(rng, 1, 3, 8)})
    cs.err(op, "depth_mismatch", ARGS, out, {**base, "weights": int8(rng, 3, 9)})
    cs.err(op, "rank0_input", ARGS, ((3,), i8), {**base, "input": torch.tensor(5, dtype=i8)})
    cs.err(op, "bias_length", ARGS, out, {**base, "bias": bias32(rng, 4)})
    cs.err(op, "bias_2d", ARGS, out, {**base, "bias": bias32(rng, 1, 3)})
    cs.err(op, "kernel_sum_length", ARGS, out, {**base, "kernel_sum": bias32(rng, 2)})
    cs.err(op, "out_shape", ARGS, ((3, 2), i8), base)
    cs.err(op, "out_rank", ARGS, ((6,), i8), base)
    cs.err(op, "no_multipliers", ARGS, out, {**base, "requantize_multipliers": []})
    cs.err(op, "no_shifts", ARGS, out, {**base, "requantize_shifts": []})
    cs.err(op, "multiplier_beyond_int32", ARGS, out, {**base, "requantize_multipliers": [2**31]})
    cs.err(op, "shift_31", ARGS, out, {**base, "requantize_shifts": [31]})
    cs.err(op, "shift_minus_32", ARGS, out, {**base, "requantize_shifts": [-32]})
    cs.err(op, "activation_inverted", ARGS, out, {**base, "activation_max": -5, "activation_min": 5})
    cs.err(op, "activation_min_beyond_int8", ARGS, out, {**base, "activation_min": -129})
    cs.err(op, "activation_max_beyond_int8", ARGS, out, {**base, "activation_max": 128})
    cs.err(op, "input_offset_256", ARGS, out, {**base, "input_offset": 256})
    cs.err(op, "input_offset_minus_256", ARGS, out, {**base, "input_offset": -256})
    cs.err(op, "filter_offset_beyond_int32", ARGS, out, {**base, "filter_offset": 2**31})
    cs.err(op, "output_offset_beyond_int32", ARGS, out, {**base, "output_offset": -(2**31) - 1})


def bmm_args(lhs: torch.Tensor, lhs_zp: int, rhs: torch.Tensor, rhs_zp: int, out_zp: int, scale: float = 0.0,
             mult_shift: tuple[int, int] | None = None) -> Args:  # fmt: skip
    mult, shift = mult_shift if mult_shift is not None else requant(scale)
    return {
        "lhs": lhs,
        "lhs_zero_point": lhs_zp,
        "rhs_transposed": rhs,
        "rhs_zero_point": rhs_zp,
        "output_zero_point": out_zp,
        "output_multiplier": mult,
        "output_shift": shift,
        "scratch": torch.zeros(0, dtype=u8),
    }


def batch_matmul(cs: CaseList, rng: Rng) -> None:
    op = BATCH_MATMUL
    cs.ok(op, "attention_scores", bmm_args(int8(rng, 1, 4, 16), 128, int8(rng, 1, 5, 16), 0, -3, scale=0.0002))
    for k in (1, 3, 5, 8, 13, 16, 17, 31, 48, 70):
        b, m, n = 1 + k % 3, 1 + k % 4, 1 + k % 7
        lhs, rhs = int8(rng, b, m, k), int8(rng, b, n, k)
        cs.ok(op, f"depth_{k}", bmm_args(lhs, 20 - k, rhs, k % 5 - 2, k - 30, scale=0.006 / k**0.5))
    lhs, rhs = int8(rng, 3, 2, 37), int8(rng, 3, 6, 37)
    cs.ok(op, "both_offsets_128", bmm_args(lhs, 128, rhs, 128, -100, scale=0.0003))
    cs.ok(op, "offsets_minus_127", bmm_args(lhs, -127, rhs, -127, -100, scale=0.0003))
    cs.ok(op, "saturates", bmm_args(lhs, 10, rhs, -4, 0, scale=0.2))
    cs.ok(op, "shift_30", bmm_args(lhs, 1, rhs, 0, 0, mult_shift=(5, 30)))
    cs.ok(op, "shift_minus_31", bmm_args(lhs, 1, rhs, 0, -128, mult_shift=(INT32_MAX, -31)))
    cs.ok(op, "output_zero_point_127", bmm_args(lhs, 1, rhs, 0, 127, scale=0.0001))
    lhs, rhs = int8(rng, 2, 3, 300), int8(rng, 2, 9, 300)  # more than one DSP chunk
    cs.ok(op, "depth_300", bmm_args(lhs, 13, rhs, 0, -1, scale=0.0004))
    cs.ok(op, "empty_batch", bmm_args(torch.zeros(0, 2, 4, dtype=i8), 1, torch.zeros(0, 3, 4, dtype=i8), 0, 0,
                                        scale=0.1))  # fmt: skip
    cs.ok(op, "empty_depth", bmm_args(torch.zeros(2, 2, 0, dtype=i8), 1, torch.zeros(2, 3, 0, dtype=i8), 0, 4,
                                        scale=0.1))  # fmt: skip

    lhs, rhs = int8(rng, 2, 3, 8), int8(rng, 2, 4, 8)
    base = bmm_args(lhs, 3, rhs, 0, 1, scale=0.001)
    out = ((2, 3, 4), i8)
    cs.err(op, "float_lhs", DTYPE, out, {**base, "lhs": lhs.to(f32)})
    cs.err(op, "int32_rhs", DTYPE, out, {**base, "rhs_transposed": rhs.to(i32)})
    cs.err(op, "int8_scratch", DTYPE, out, {**base, "scratch": torch.zeros(4, dtype=i8)})
    cs.err(op, "int32_out", DTYPE, ((2, 3, 4), i32), base)
    cs.err(op, "float_out", DTYPE, ((2, 3, 4), f32), base)
    cs.err(op, "lhs_2d", ARGS, out, {**base, "lhs": int8(rng, 3, 8)})
    cs.err(op, "rhs_2d", ARGS, out, {**base, "rhs_transposed": int8(rng, 4, 8)})
    cs.err(op, "lhs_4d", ARGS, out, {**base, "lhs": int8(rng, 1, 2, 3, 8)})
    cs.err(op, "batch_mismatch", ARGS, out, {**base, "rhs_transposed": int8(rng, 3, 4, 8)})
    cs.err(op, "depth_mismatch", ARGS, out, {**base, "rhs_transposed": int8(rng, 2, 4, 9)})
    cs.err(op, "out_shape", ARGS, ((2, 4, 3), i8), base)
    cs.err(op, "out_rank", ARGS, ((6, 4), i8), base)
    cs.err(op, "out_batch", ARGS, ((1, 3, 4), i8), base)
    cs.err(op, "lhs_zero_point_256", ARGS, out, {**base, "lhs_zero_point": 256})
    cs.err(op, "rhs_zero_point_minus_256", ARGS, out, {**base, "rhs_zero_point": -256})
    cs.err(op, "output_zero_point_beyond_int32", ARGS, out, {**base, "output_zero_point": 2**31})
    cs.err(op, "multiplier_beyond_int32", ARGS, out, {**base, "output_multiplier": 2**31})
    cs.err(op, "shift_31", ARGS, out, {**base, "output_shift": 31})
    cs.err(op, "shift_minus_32", ARGS, out, {**base, "output_shift": -32})
    # depth * 383 * 383 > 2^31 - 1: the exact sum could leave int32.
    wide = bmm_args(int8(rng, 1, 1, 14700), 255, int8(rng, 1, 1, 14700), -255, 0, scale=1e-6)
    cs.err(op, "sum_beyond_int32", ARGS, ((1, 1, 1), i8), wide)
