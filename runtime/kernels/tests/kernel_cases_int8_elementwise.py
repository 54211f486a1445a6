"""Kernel test cases: the elementwise and data-movement int8 operators of ExecuTorch's Cortex-M
backend (cortex_m::quantized_add/mul/div, minimum, maximum, quantized_activation, softmax,
transpose, pad).

Expected outs come from the backend's reference implementations (the functional variants in
executorch/backends/cortex_m/ops/operators.py); kernel_test.c compares the int8 outs bit for
bit. Multipliers and shifts are those the backend's passes derive from scales
(quantize_multiplier_aot: multiplier in [2^30, 2^31), negated for a subtraction) plus extreme
ones. Each op's function draws its inputs from `rng` in a fixed order.
"""

from __future__ import annotations

import math

import torch
from kernel_case import ARGS, DTYPE, ArgValue, Case, CaseList, OutSpec, Rng, collect, f32, i8, i32, int8

Args = dict[str, ArgValue]
i16 = torch.int16

ADD = "cortex_m::quantized_add.out"
MUL = "cortex_m::quantized_mul.out"
DIV = "cortex_m::quantized_div.out"
MINIMUM = "cortex_m::minimum.out"
MAXIMUM = "cortex_m::maximum.out"
ACTIVATION = "cortex_m::quantized_activation.out"
SOFTMAX = "cortex_m::softmax.out"
TRANSPOSE = "cortex_m::transpose.out"
PAD = "cortex_m::pad.out"

SHIFT_INT8 = 20  # quantized_add's left shift of its inputs (passes_utils.SHIFT_INT8)
SOFTMAX_INPUT_INTEGER_BITS = 5


def cases(rng: Rng) -> list[Case]:
    """The cases, drawing their random inputs from `rng` in a fixed order."""
    return collect(
        rng, quantized_add, quantized_mul, quantized_div, minimum_maximum, quantized_activation, softmax, transpose, pad
    )


def all_int8() -> torch.Tensor:
    return torch.arange(-128, 128, dtype=i8)


def quantize_multiplier(scale: float) -> tuple[int, int]:
    """passes_utils.quantize_multiplier_aot: scale = multiplier * 2^shift / 2^31."""
    if scale == 0.0:
        return 0, 0
    mantissa, shift = math.frexp(scale)
    q = round(mantissa * (1 << 31))
    if q == 1 << 31:
        q //= 2
        shift += 1
    return max(-(2**31), min(2**31 - 1, q)), shift


def requantization(prefix: str, zero_point: int, scale: float, sign: int = 1) -> Args:
    """`<prefix>_zero_point`, `_multiplier` and `_shift` of a requantization by a real `scale`
    (sign -1: the multiplier negated)."""
    multiplier, shift = quantize_multiplier(scale)
    return {f"{prefix}_zero_point": zero_point, f"{prefix}_multiplier": sign * multiplier, f"{prefix}_shift": shift}


# --- quantized_add -------------------------------------------------------------------------
def add_params(
    s1: float, zp1: int, s2: float, zp2: int, so: float, zpo: int, lo: int = -128, hi: int = 127, sign: int = 1
) -> Args:
    """quantized_add's integer arguments as the backend's pass derives them (sign -1: a sub)."""
    max2 = 2 * max(s1, s2)
    return {
        **requantization("self", zp1, s1 / max2),
        **requantization("other", zp2, s2 / max2, sign),
        **requantization("output", zpo, max2 / (so * (1 << SHIFT_INT8))),
        "activation_min": lo,
        "activation_max": hi,
    }


def quantized_add(cs: CaseList, rng: Rng) -> None:
    op = ADD
    p = add_params(0.05, 3, 0.031, -7, 0.07, 10)
    cs.ok(op, "same_shape", p, self=int8(rng, 4, 33), other=int8(rng, 4, 33))
    cs.ok(
        op,
        "sub_negative_multiplier",
        add_params(0.02, -1, 0.09, 4, 0.1, 0, sign=-1),
        self=int8(rng, 5, 7),
        other=int8(rng, 5, 7),
    )
    cs.ok(op, "channel_broadcast_self", p, self=int8(rng, 1, 5, 1, 1), other=int8(rng, 3, 5, 1, 1))
    cs.ok(op, "channel_broadcast_other", p, self=int8(rng, 2, 6, 1, 1), other=int8(rng, 1, 6, 1, 1))
    cs.ok(op, "scalar_broadcast", p, self=int8(rng, 1, 1, 1, 1), other=int8(rng, 2, 1, 3, 5))
    cs.ok(
        op, "relu_range", add_params(0.1, 0, 0.1, 0, 0.12, -20, -20, 127), self=int8(rng, 3, 17), other=int8(rng, 3, 17)
    )
    cs.ok(op, "narrow_range", add_params(0.3, 5, 0.01, 1, 0.05, 2, -50, 60), self=int8(rng, 29), other=int8(rng, 29))
    cs.ok(op, "saturates", add_params(0.5, 0, 0.4, 0, 0.01, 0), self=int8(rng, 64), other=int8(rng, 64))
    cs.ok(op, "zero_points_at_ends", add_params(0.02, -128, 0.03, 127, 0.05, 0), self=all_int8(), other=int8(rng, 256))
    cs.ok(
        op, "equal_scales", add_params(1 / 128, 0, 1 / 128, 0, 1 / 64, 0), self=int8(rng, 3, 11), other=int8(rng, 3, 11)
    )
    cs.ok(op, "odd_sizes", add_params(0.011, 9, 0.7, -3, 0.5, 1), self=int8(rng, 7, 13, 3), other=int8(rng, 7, 13, 3))
    extreme = {
        **p,
        "self_multiplier": 2**31 - 1,
        "self_shift": 30,
        "other_multiplier": -(2**31),
        "other_shift": -31,
        "output_multiplier": 2**30,
        "output_shift": -24,
    }
    cs.ok(op, "extreme_multipliers_wrap", extreme, self=all_int8(), other=all_int8())
    big = {**p, "self_shift": 10, "other_shift": 10, "output_multiplier": 2**31 - 1, "output_shift": 30}
    cs.ok(op, "large_shifts", big, self=int8(rng, 40), other=int8(rng, 40))
    cs.ok(op, "rank0", p, self=torch.tensor(17, dtype=i8), other=torch.tensor(-90, dtype=i8))
    cs.ok(op, "empty", p, self=torch.zeros(0, 4, dtype=i8), other=torch.zeros(0, 4, dtype=i8))
    a, b = int8(rng, 2, 3), int8(rng, 2, 3)
    cs.err(op, "no_broadcast", ARGS, ((2, 3), i8), p, self=a, other=int8(rng, 3, 2))
    cs.err(op, "out_shape", ARGS, ((3, 2), i8), p, self=a, other=b)
    cs.err(op, "int32_other", DTYPE, ((2, 3), i8), p, self=a, other=b.to(i32))
    cs.err(op, "int16_out", DTYPE, ((2, 3), i16), p, self=a, other=b)
    cs.err(op, "shift_31", ARGS, ((2, 3), i8), {**p, "self_shift": 31}, self=a, other=b)
    cs.err(op, "shift_minus_32", ARGS, ((2, 3), i8), {**p, "output_shift": -32}, self=a, other=b)
    cs.err(op, "multiplier_beyond_int32", ARGS, ((2, 3), i8), {**p, "other_multiplier": 2**31}, self=a, other=b)
    cs.err(op, "zero_point_128", ARGS, ((2, 3), i8), {**p, "self_zero_point": 128}, self=a, other=b)
    cs.err(op, "output_zero_point_minus_129", ARGS, ((2, 3), i8), {**p, "output_zero_point": -129}, self=a, other=b)
    cs.err(op, "inverted_range", ARGS, ((2, 3), i8), {**p, "activation_min": 5, "activation_max": 4}, self=a, other=b)
    cs.err(op, "range_beyond_int8", ARGS, ((2, 3), i8), {**p, "activation_max": 128}, self=a, other=b)


# --- quantized_mul -------------------------------------------------------------------------
def mul_params(s1: float, zp1: int, s2: float, zp2: int, so: float, zpo: int) -> Args:
    return {"self_zero_point": zp1, "other_zero_point": zp2, **requantization("output", zpo, s1 * s2 / so)}


def quantized_mul(cs: CaseList, rng: Rng) -> None:
    op = MUL
    p = mul_params(0.05, 3, 0.031, -7, 0.02, 10)
    cs.ok(op, "same_shape", p, self=int8(rng, 4, 33), other=int8(rng, 4, 33))
    cs.ok(op, "channel_broadcast_self", p, self=int8(rng, 1, 5, 1, 1), other=int8(rng, 3, 5, 1, 1))
    cs.ok(op, "channel_broadcast_other", p, self=int8(rng, 2, 6, 1, 1), other=int8(rng, 1, 6, 1, 1))
    cs.ok(op, "scalar_broadcast", p, self=int8(rng, 2, 1, 3, 5), other=int8(rng, 1, 1, 1, 1))
    cs.ok(op, "saturates", mul_params(0.5, 0, 0.4, 0, 0.01, 0), self=int8(rng, 64), other=int8(rng, 64))
    cs.ok(
        op,
        "zero_points_at_ends",
        mul_params(0.02, -128, 0.03, 127, 0.3, 127),
        self=all_int8(),
        other=all_int8().flip(0),
    )
    cs.ok(
        op, "small_output_scale", mul_params(0.9, -5, 0.8, 6, 700.0, -100), self=int8(rng, 9, 5), other=int8(rng, 9, 5)
    )
    cs.ok(op, "odd_sizes", mul_params(0.011, 9, 0.7, -3, 0.05, 1), self=int8(rng, 7, 13, 3), other=int8(rng, 7, 13, 3))
    cs.ok(
        op,
        "extreme_left_shift",
        {**p, "output_multiplier": 2**31 - 1, "output_shift": 30},
        self=all_int8(),
        other=all_int8().flip(0),
    )
    cs.ok(
        op,
        "extreme_right_shift",
        {**p, "output_multiplier": 2**31 - 1, "output_shift": -31},
        self=all_int8(),
        other=all_int8(),
    )
    cs.ok(
        op,
        "right_shift_rounding",
        {**p, "output_multiplier": 2**30 + 12345, "output_shift": -9},
        self=all_int8(),
        other=all_int8(),
    )
    cs.ok(op, "negative_multiplier", {**p, "output_multiplier": -(2**30)}, self=int8(rng, 30), other=int8(rng, 30))
    cs.ok(op, "empty", p, self=torch.zeros(3, 0, dtype=i8), other=torch.zeros(3, 0, dtype=i8))
    a, b = int8(rng, 2, 3), int8(rng, 2, 3)
    cs.err(op, "no_broadcast", ARGS, ((2, 3), i8), p, self=a, other=int8(rng, 2, 2))
    cs.err(op, "out_shape", ARGS, ((2, 4), i8), p, self=a, other=b)
    cs.err(op, "float_other", DTYPE, ((2, 3), i8), p, self=a, other=b.to(f32))
    cs.err(op, "int32_out", DTYPE, ((2, 3), i32), p, self=a, other=b)
    cs.err(op, "shift_31", ARGS, ((2, 3), i8), {**p, "output_shift": 31}, self=a, other=b)
    cs.err(op, "multiplier_beyond_int32", ARGS, ((2, 3), i8), {**p, "output_multiplier": -(2**31) - 1}, self=a, other=b)
    # the backend's hardswish decomposition gives zero points beyond int8: int32 arithmetic, as the reference
    cs.ok(op, "zero_point_beyond_int8", {**p, "other_zero_point": -473, "self_zero_point": 300}, self=a, other=b)


# --- quantized_div -------------------------------------------------------------------------
def div_params(s1: float, zp1: int, s2: float, zp2: int, so: float, zpo: int) -> Args:
    return {
        "self_zero_point": zp1,
        "other_zero_point": zp2,
        "output_zero_point": zpo,
        "output_scale": float(s1 / (s2 * so)),
    }


def quantized_div(cs: CaseList, rng: Rng) -> None:
    op = DIV
    p = div_params(0.05, 3, 0.031, -7, 0.02, 10)
    cs.ok(op, "same_shape", p, self=int8(rng, 4, 33), other=int8(rng, 4, 33))
    # every self value against every 7th other value, zero divisors (other == its zero point) included
    grid = torch.cartesian_prod(all_int8(), torch.arange(-128, 128, 7, dtype=i8)).to(i8)
    cs.ok(
        op,
        "value_grid",
        div_params(0.1, -3, 0.2, 2, 0.05, 4),
        self=grid[:, 0].contiguous(),
        other=grid[:, 1].contiguous(),
    )
    # quotients * scale land on k + 0.5: torch.round rounds half to even
    halves = torch.tensor([1, 3, 5, 7, -1, -3, -5, -7, 9, 11], dtype=i8)
    cs.ok(op, "ties_to_even", div_params(1.0, 0, 1.0, 0, 1.0, 0), self=halves, other=torch.full((10,), 2, dtype=i8))
    cs.ok(
        op,
        "divide_by_zero_point",
        div_params(0.1, 0, 0.1, -5, 0.1, 7),
        self=int8(rng, 20),
        other=torch.full((20,), -5, dtype=i8),
    )
    cs.ok(op, "saturates", div_params(0.5, 0, 0.01, 0, 0.02, 0), self=int8(rng, 64), other=int8(rng, 64))
    cs.ok(op, "zero_points_at_ends", div_params(0.02, -128, 0.03, 127, 1.0, 127), self=all_int8(), other=int8(rng, 256))
    cs.ok(op, "odd_sizes", div_params(0.011, 9, 0.7, -3, 0.005, 1), self=int8(rng, 3, 5, 7), other=int8(rng, 3, 5, 7))
    cs.ok(op, "negative_scale", {**p, "output_scale": -3.75}, self=int8(rng, 25), other=int8(rng, 25))
    cs.ok(op, "rank0", p, self=torch.tensor(-100, dtype=i8), other=torch.tensor(7, dtype=i8))
    cs.ok(op, "empty", p, self=torch.zeros(0, dtype=i8), other=torch.zeros(0, dtype=i8))
    a, b = int8(rng, 2, 3), int8(rng, 2, 3)
    cs.err(op, "broadcast", ARGS, ((2, 3), i8), p, self=a, other=int8(rng, 1, 3))
    cs.err(op, "out_shape", ARGS, ((6,), i8), p, self=a, other=b)
    cs.err(op, "int16_inputs", DTYPE, ((2, 3), i16), p, self=a.to(i16), other=b.to(i16))
    cs.err(op, "int32_other", DTYPE, ((2, 3), i8), p, self=a, other=b.to(i32))
    cs.err(op, "nan_scale", ARGS, ((2, 3), i8), {**p, "output_scale": float("nan")}, self=a, other=b)
    cs.err(op, "inf_scale", ARGS, ((2, 3), i8), {**p, "output_scale": float("inf")}, self=a, other=b)
    cs.err(op, "scale_beyond_float32", ARGS, ((2, 3), i8), {**p, "output_scale": 1e39}, self=a, other=b)
    cs.err(op, "zero_point_beyond_int8", ARGS, ((2, 3), i8), {**p, "output_zero_point": 128}, self=a, other=b)


# --- minimum / maximum ---------------------------------------------------------------------
def minimum_maximum(cs: CaseList, rng: Rng) -> None:
    for op in (MINIMUM, MAXIMUM):
        cs.ok(op, "same_shape", self=int8(rng, 4, 9), other=int8(rng, 4, 9))
        cs.ok(op, "all_pairs", self=all_int8().repeat(256), other=all_int8().repeat_interleave(256))
        cs.ok(op, "scalar_other", self=int8(rng, 3, 7), other=int8(rng, 1))
        cs.ok(op, "broadcast_both", self=int8(rng, 3, 1, 5), other=int8(rng, 4, 1))
        cs.ok(op, "channel_broadcast", self=int8(rng, 2, 3, 4, 4), other=int8(rng, 1, 3, 1, 1))
        cs.ok(op, "lower_rank_self", self=int8(rng, 6), other=int8(rng, 2, 3, 6))
        cs.ok(op, "rank0", self=torch.tensor(-128, dtype=i8), other=torch.tensor(127, dtype=i8))
        cs.ok(op, "empty", self=torch.zeros(0, 5, dtype=i8), other=int8(rng, 1, 5))
        a, b = int8(rng, 2, 3), int8(rng, 2, 3)
        cs.err(op, "no_broadcast", ARGS, ((2, 3), i8), self=a, other=int8(rng, 4))
        cs.err(op, "out_not_broadcast_shape", ARGS, ((2, 1, 3), i8), self=a, other=b)
        cs.err(op, "int32_other", DTYPE, ((2, 3), i8), self=a, other=b.to(i32))
        cs.err(op, "float_out", DTYPE, ((2, 3), f32), self=a, other=b)


# --- quantized_activation ------------------------------------------------------------------
def quantized_activation(cs: CaseList, rng: Rng) -> None:
    op = ACTIVATION
    lut = int8(rng, 256)
    cs.ok(op, "all_values", input=all_int8(), lut=lut)
    cs.ok(op, "random", input=int8(rng, 3, 5, 7), lut=lut)
    sigmoid = torch.round(torch.sigmoid(all_int8().to(f32) * 0.05) * 256 - 128).clamp(-128, 127).to(i8)
    cs.ok(op, "sigmoid_table", input=int8(rng, 2, 33), lut=sigmoid)
    cs.ok(op, "rank0", input=torch.tensor(-128, dtype=i8), lut=lut)
    cs.ok(op, "empty", input=torch.zeros(2, 0, dtype=i8), lut=lut)
    x = int8(rng, 2, 3)
    cs.err(op, "lut_255", ARGS, ((2, 3), i8), input=x, lut=lut[:255].clone())
    cs.err(op, "lut_2d", ARGS, ((2, 3), i8), input=x, lut=lut.reshape(16, 16).clone())
    cs.err(op, "lut_int32", DTYPE, ((2, 3), i8), input=x, lut=lut.to(i32))
    cs.err(op, "int16_input", DTYPE, ((2, 3), i8), input=x.to(i16), lut=lut)
    cs.err(op, "out_shape", ARGS, ((3, 2), i8), input=x, lut=lut)


# --- softmax -------------------------------------------------------------------------------
def softmax_params(input_scale: float, zp: int) -> Args:
    """The backend's _compute_softmax_params for an input scale (diff_min is not used)."""
    real = min(input_scale * (1 << (31 - SOFTMAX_INPUT_INTEGER_BITS)), float((1 << 31) - 1))
    m, sh = quantize_multiplier(real)
    diff_min = -math.floor(
        ((1 << SOFTMAX_INPUT_INTEGER_BITS) - 1) * math.ldexp(1.0, 31 - SOFTMAX_INPUT_INTEGER_BITS) / math.ldexp(1.0, sh)
    )
    return {
        "input_zero_point": zp,
        "output_zero_point": -128,
        "input_multiplier": m,
        "input_shift": sh,
        "diff_min": diff_min,
    }


def softmax(cs: CaseList, rng: Rng) -> None:
    op = SOFTMAX
    p = softmax_params(0.0625, 3)
    cs.ok(op, "last_dim", p, input=int8(rng, 4, 10), dim=-1)
    cs.ok(op, "middle_dim", p, input=int8(rng, 2, 5, 3), dim=1)
    cs.ok(op, "first_dim", softmax_params(0.1, -20), input=int8(rng, 6, 4), dim=0)
    cs.ok(op, "long_rows", softmax_params(0.02, 0), input=int8(rng, 3, 300), dim=1)
    cs.ok(op, "fine_scale", softmax_params(0.001, -128), input=int8(rng, 5, 37), dim=-1)
    cs.ok(op, "coarse_scale", softmax_params(1.7, 127), input=int8(rng, 5, 9), dim=-1)
    cs.ok(op, "constant_rows", p, input=torch.full((3, 8), 42, dtype=i8), dim=1)
    cs.ok(
        op,
        "pairs",
        softmax_params(0.03, 0),
        input=torch.cartesian_prod(all_int8(), torch.arange(-128, 128, 5, dtype=i8)).to(i8),
        dim=1,
    )
    tiny = {**p, "input_multiplier": 2**30, "input_shift": -31}
    cs.ok(op, "tiny_scale_uniform", tiny, input=int8(rng, 4, 3), dim=1)
    huge = {**p, "input_multiplier": 2**31 - 1, "input_shift": 31}
    cs.ok(op, "huge_scale_one_hot", huge, input=int8(rng, 4, 6), dim=1)
    cs.ok(op, "single_element_rows", p, input=int8(rng, 5, 1), dim=1)
    cs.ok(op, "rank0", p, input=torch.tensor(9, dtype=i8), dim=0)
    cs.ok(op, "empty", p, input=torch.zeros(0, 4, dtype=i8), dim=1)
    x = int8(rng, 2, 5)
    cs.err(op, "output_zero_point", ARGS, ((2, 5), i8), {**p, "output_zero_point": 0}, input=x, dim=1)
    cs.err(op, "zero_multiplier", ARGS, ((2, 5), i8), {**p, "input_multiplier": 0}, input=x, dim=1)
    cs.err(op, "negative_multiplier", ARGS, ((2, 5), i8), {**p, "input_multiplier": -(2**30)}, input=x, dim=1)
    cs.err(op, "shift_32", ARGS, ((2, 5), i8), {**p, "input_shift": 32}, input=x, dim=1)
    cs.err(op, "dim_2", ARGS, ((2, 5), i8), p, input=x, dim=2)
    cs.err(op, "dim_minus_3", ARGS, ((2, 5), i8), p, input=x, dim=-3)
    cs.err(op, "zero_point_beyond_int8", ARGS, ((2, 5), i8), {**p, "input_zero_point": -129}, input=x, dim=1)
    cs.err(op, "int32_input", DTYPE, ((2, 5), i8), p, input=x.to(i32), dim=1)
    cs.err(op, "float_out", DTYPE, ((2, 5), f32), p, input=x, dim=1)
    cs.err(op, "out_shape", ARGS, ((5, 2), i8), p, input=x, dim=1)


# --- transpose -----------------------------------------------------------------------------
def transpose(cs: CaseList, rng: Rng) -> None:
    op = TRANSPOSE
    cs.ok(op, "matrix", input=int8(rng, 3, 5), perm=[1, 0])
    cs.ok(op, "nchw_to_nhwc", input=int8(rng, 2, 3, 4, 5), perm=[0, 2, 3, 1])
    cs.ok(op, "nhwc_to_nchw", input=int8(rng, 2, 4, 5, 3), perm=[0, 3, 1, 2])
    cs.ok(op, "negative_dims", input=int8(rng, 3, 1, 7), perm=[-1, 0, -2])
    cs.ok(op, "identity", input=int8(rng, 4, 6), perm=[0, 1])
    cs.ok(op, "reverse_5d", input=int8(rng, 2, 3, 2, 3, 2), perm=[4, 3, 2, 1, 0])
    cs.ok(op, "vector", input=int8(rng, 9), perm=[0])
    cs.ok(op, "empty", input=torch.zeros(0, 3, dtype=i8), perm=[1, 0])
    x = int8(rng, 2, 3, 4)
    cs.err(op, "repeated_dim", ARGS, ((2, 2, 4), i8), input=x, perm=[0, 0, 2])
    cs.err(op, "short_perm", ARGS, ((3, 2), i8), input=x, perm=[1, 0])
    cs.err(op, "dim_out_of_range", ARGS, ((2, 3, 4), i8), input=x, perm=[0, 1, 3])
    cs.err(op, "out_shape", ARGS, ((2, 3, 4), i8), input=x, perm=[2, 1, 0])
    cs.err(op, "int32_input", DTYPE, ((4, 3, 2), i32), input=x.to(i32), perm=[2, 1, 0])
    cs.err(op, "float_out", DTYPE, ((4, 3, 2), f32), input=x, perm=[2, 1, 0])


# --- pad -----------------------------------------------------------------------------------
def pad(cs: CaseList, rng: Rng) -> None:
    op = PAD

    def ok(label: str, x: torch.Tensor, pre: list[int], post: list[int], value: int) -> None:
        cs.ok(op, label, input=x, pre_pad=pre, post_pad=post, pad_value=value)

    def err(
        label: str, status: str, out: OutSpec, x: torch.Tensor, pre: list[int], post: list[int], value: int
    ) -> None:
        cs.err(op, label, status, out, input=x, pre_pad=pre, post_pad=post, pad_value=value)

    ok("nchw", int8(rng, 1, 3, 4, 5), [0, 1, 2, 1], [1, 0, 1, 3], -128)
    ok("rank2", int8(rng, 4, 6), [0, 0, 1, 2], [0, 0, 3, 0], 5)
    ok("rank3", int8(rng, 2, 3, 5), [0, 1, 0, 2], [0, 2, 1, 1], 127)
    ok("rank1", int8(rng, 7), [0, 0, 0, 3], [0, 0, 0, 4], -1)
    # One channel (or 1x1 planes): the reference takes the pads as NHWC-ordered and moves them.
    ok("one_channel_nhwc_order", int8(rng, 1, 1, 4, 5), [0, 1, 2, 3], [1, 0, 2, 1], 7)
    ok("unit_planes_nhwc_order", int8(rng, 2, 4, 1, 1), [1, 2, 0, 1], [0, 1, 2, 3], 0)
    ok("no_padding", int8(rng, 2, 3, 2, 2), [0, 0, 0, 0], [0, 0, 0, 0], 0)
    ok("empty_input", torch.zeros(0, 3, dtype=i8), [0, 0, 1, 1], [0, 0, 1, 0], -7)
    x = int8(rng, 2, 3)
    none = [0, 0, 0, 0]
    err("negative_pad", ARGS, ((2, 2), i8), x, [0, 0, 0, -1], none, 0)
    err("short_pad_list", ARGS, ((2, 4), i8), x, [0, 0, 1], none, 0)
    err("pad_value_128", ARGS, ((2, 3), i8), x, none, none, 128)
    err("out_shape", ARGS, ((2, 4), i8), x, [0, 0, 0, 1], [0, 0, 0, 1], 0)
    err("rank5", ARGS, ((1, 1, 1, 2, 3), i8), x.reshape(1, 1, 1, 2, 3), none, none, 0)
    err("int32_input", DTYPE, ((2, 3), i8), x.to(i32), none, none, 0)
    err("float_out", DTYPE, ((2, 3), f32), x, none, none, 0)
