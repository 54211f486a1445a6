"""Kernel test cases: the int8 operators of ExecuTorch's Cortex-M backend (cortex_m::*).

Expected outs come from the backend's reference implementations (the functional variants in
executorch/backends/cortex_m/ops/operators.py); kernel_test.c compares int8 outs bit for bit
and float32 outs (dequantize) within float32 rounding of the same formula (exactly, in
practice). Each op's function draws its inputs from `rng` in a fixed order; add an op's cases
as one more function called from `cases`.
"""

from __future__ import annotations

from typing import Any

import torch
from kernel_case import ARGS, DTYPE, ArgValue, Case, CaseList, Rng, collect, f32, i8, i32, int8

Args = dict[str, ArgValue]

QUANTIZE = "cortex_m::quantize_per_tensor.out"
DEQUANTIZE = "cortex_m::dequantize_per_tensor.out"


def cases(rng: Rng) -> list[Case]:
    """The cases, drawing their random inputs from `rng` in a fixed order."""
    return collect(rng, quantize, dequantize)


def qparams(scale: float, zero_point: int, lo: int = -128, hi: int = 127) -> dict[str, Any]:
    """The quantization arguments, as keywords (Any: they share **kwargs with CaseList.ok's own)."""
    return {"scale": scale, "zero_point": zero_point, "quant_min": lo, "quant_max": hi, "dtype": i8}


def quantize(cs: CaseList, rng: Rng) -> None:
    op = QUANTIZE
    for label, scale, zp in [("unit", 1.0, 0), ("fine", 0.0039215689, -128), ("coarse", 0.11784447, 5),
                             ("odd_scale", 0.0284811, -48), ("tiny", 1e-6, 3)]:  # fmt: skip
        cs.ok(op, f"{label}_normal", input=rng.randn(4, 33, scale=40 * scale), **qparams(scale, zp), out_dtype=i8)
    # x * (1/scale) lands on .5 exactly: torch.round rounds half to even.
    halves = torch.arange(-12, 12, dtype=f32) + 0.5
    cs.ok(op, "ties_to_even", input=halves * 0.25, **qparams(0.25, 0), out_dtype=i8)
    cs.ok(op, "saturates", input=rng.randn(64, scale=1e3), **qparams(0.5, 10), out_dtype=i8)
    cs.ok(op, "infinities", input=torch.tensor([float("inf"), -float("inf"), 0.0]), **qparams(0.1, 0), out_dtype=i8)
    cs.ok(op, "narrow_range", input=rng.randn(50, scale=30.0), **qparams(0.1, 0, -127, 100), out_dtype=i8)
    cs.ok(op, "rank0", input=torch.tensor(1.26), **qparams(0.1, 0), out_dtype=i8)
    cs.ok(op, "empty", input=torch.zeros(0, 3), **qparams(0.1, 0), out_dtype=i8)
    x = rng.randn(2, 3)
    cs.err(op, "int32_input", DTYPE, ((2, 3), i8), input=x.to(i32), **qparams(0.1, 0))
    cs.err(op, "float_out", DTYPE, ((2, 3), f32), input=x, **qparams(0.1, 0))
    cs.err(op, "uint8_dtype_arg", DTYPE, ((2, 3), i8), input=x, **{**qparams(0.1, 0), "dtype": torch.uint8})
    cs.err(op, "shape_mismatch", ARGS, ((3, 2), i8), input=x, **qparams(0.1, 0))
    cs.err(op, "zero_scale", ARGS, ((2, 3), i8), input=x, **qparams(0.0, 0))
    cs.err(op, "negative_scale", ARGS, ((2, 3), i8), input=x, **qparams(-0.5, 0))
    cs.err(op, "range_beyond_int8", ARGS, ((2, 3), i8), input=x, **qparams(0.1, 0, -129, 127))
    cs.err(op, "inverted_range", ARGS, ((2, 3), i8), input=x, **qparams(0.1, 0, 5, 4))
    cs.err(op, "zero_point_beyond_int8", ARGS, ((2, 3), i8), input=x, **qparams(0.1, 200))


def dequantize(cs: CaseList, rng: Rng) -> None:
    op = DEQUANTIZE
    for label, scale, zp in [("unit", 1.0, 0), ("fine", 0.0039215689, -128), ("coarse", 0.11784447, 5),
                             ("odd_scale", 0.0284811, -48), ("softmax_out", 1 / 256, -128)]:  # fmt: skip
        cs.ok(op, label, input=int8(rng, 3, 37), out_dtype=f32, **qparams(scale, zp))
    cs.ok(op, "all_values", input=torch.arange(-128, 128, dtype=i8), out_dtype=f32, **qparams(0.0173, -7))
    cs.ok(op, "empty", input=torch.zeros(0, dtype=i8), out_dtype=f32, **qparams(0.1, 0))
    q = int8(rng, 2, 3)
    cs.err(op, "float_input", DTYPE, ((2, 3), f32), input=q.to(f32), **qparams(0.1, 0))
    cs.err(op, "int8_out", DTYPE, ((2, 3), i8), input=q, **qparams(0.1, 0))
    cs.err(op, "shape_mismatch", ARGS, ((6,), f32), input=q, **qparams(0.1, 0))
    cs.err(op, "nan_scale", ARGS, ((2, 3), f32), input=q, **qparams(float("nan"), 0))
