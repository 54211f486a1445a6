"""Conformance cases of the two- and three-operand arithmetic operators (portable-kernel parity):
maximum/minimum, atan2, fmod, remainder, floor division, div's rounding modes, pow's
overloads, rsub, where, masked_fill and clamp with tensor bounds, over float32 and the integer
dtypes, with broadcasting and type promotion. See cases.py for how a case is written."""

from __future__ import annotations

import torch
from cases import ELEMENTWISE, EXACT, Case, Fn, Input, Tolerance, b8, case, f32, i8, i16, i32, i64, u8, ulps

LIBM = ulps(4)


def op(name: str) -> str:
    return f"aten::{name}"


MAXIMUM, MINIMUM, ATAN2 = op("maximum.out"), op("minimum.out"), op("atan2.out")
FMOD, FMOD_SCALAR = op("fmod.Tensor_out"), op("fmod.Scalar_out")
REMAINDER, REMAINDER_SCALAR = op("remainder.Tensor_out"), op("remainder.Scalar_out")
FLOOR_DIVIDE = op("floor_divide.out")
DIV_MODE, DIV_SCALAR_MODE = op("div.out_mode"), op("div.Scalar_mode_out")
POW_TT, POW_SCALAR = op("pow.Tensor_Tensor_out"), op("pow.Scalar_out")
RSUB = op("rsub.Scalar_out")
WHERE = op("where.self_out")
MASKED_FILL = op("masked_fill.Scalar_out")
CLAMP_TENSOR = op("clamp.Tensor_out")
GT_SCALAR = op("gt.Scalar_out")

# Operators export decomposes unless they are kept whole.
aten = torch.ops.aten
KEEP_FLOOR_DIVIDE = (aten.floor_divide.default,)
KEEP_DIV_SCALAR_MODE = (aten.div.Scalar_mode,)
KEEP_RSUB = (aten.rsub.Scalar,)
KEEP_MASKED_FILL = (aten.masked_fill.Scalar,)


def div_mode_case(name: str, rounding_mode: str, x: Input, y: Input, tolerance: Tolerance) -> Case:
    """torch.div(x, y, rounding_mode) of two tensors (div.out_mode)."""
    return case(name, Fn(lambda a, b: torch.div(a, b, rounding_mode=rounding_mode)), [x, y], [DIV_MODE], tolerance)


CASES: list[Case] = [
    case("maximum_f32", Fn(torch.maximum), [f32(3, 4), f32(4)], [MAXIMUM], EXACT),
    case("maximum_int32", Fn(torch.maximum), [i32(2, 5), i32(2, 1)], [MAXIMUM], EXACT),
    case("maximum_mixed", Fn(torch.maximum), [i16(6), f32(6)], [MAXIMUM], EXACT),
    case("minimum_f32", Fn(torch.minimum), [f32(3, 1, 2), f32(4, 1)], [MINIMUM], EXACT),
    case("minimum_uint8", Fn(torch.minimum), [u8(9), u8(9)], [MINIMUM], EXACT),
    case("minimum_int64", Fn(torch.minimum), [i64(4, 2), i64(4, 2)], [MINIMUM], EXACT),
    case("atan2_f32", Fn(torch.atan2), [f32(4, 6), f32(4, 6)], [ATAN2], LIBM),
    case("atan2_bcast", Fn(torch.atan2), [f32(2, 3, 1), f32(5)], [ATAN2], LIBM),
    case("atan2_int32", Fn(torch.atan2), [i32(7), i32(7)], [ATAN2], LIBM),
    case("fmod_f32", Fn(torch.fmod), [f32(3, 5, kind="wide"), f32(3, 5, kind="nonzero")], [FMOD], EXACT),
    case("fmod_int32", Fn(torch.fmod), [i32(12), i32(12, kind="nonzero_int")], [FMOD], EXACT),
    case("fmod_scalar_f32", Fn(lambda x: torch.fmod(x, 1.5)), [f32(10, kind="wide")], [FMOD_SCALAR], EXACT),
    case("fmod_scalar_int8", Fn(lambda x: torch.fmod(x, -3)), [i8(11)], [FMOD_SCALAR], EXACT),
    case("remainder_f32", Fn(torch.remainder), [f32(4, 4, kind="wide"), f32(4, kind="nonzero")], [REMAINDER], EXACT),
    case(
        "remainder_int64", Fn(torch.remainder), [i64(3, 3, kind="natural"), i64(3, 3, kind="count")], [REMAINDER], EXACT
    ),
    case(
        "remainder_scalar_f32", Fn(lambda x: torch.remainder(x, -2.0)), [f32(9, kind="wide")], [REMAINDER_SCALAR], EXACT
    ),
    case(
        "remainder_scalar_int32",
        Fn(lambda x: torch.remainder(x, 7)),
        [i32(10, kind="natural")],
        [REMAINDER_SCALAR],
        EXACT,
    ),
    case(
        "floor_divide_f32",
        Fn(torch.floor_divide),
        [f32(4, 5, kind="wide"), f32(5, kind="nonzero")],
        [FLOOR_DIVIDE],
        ELEMENTWISE,
        keep=KEEP_FLOOR_DIVIDE,
    ),
    case(
        "floor_divide_int32",
        Fn(torch.floor_divide),
        [i32(12), i32(12, kind="nonzero_int")],
        [FLOOR_DIVIDE],
        EXACT,
        keep=KEEP_FLOOR_DIVIDE,
    ),
    div_mode_case("div_trunc_f32", "trunc", f32(3, 4, kind="wide"), f32(3, 4, kind="nonzero"), EXACT),
    div_mode_case("div_floor_f32", "floor", f32(2, 6, kind="wide"), f32(6, kind="nonzero"), ELEMENTWISE),
    div_mode_case("div_trunc_int32", "trunc", i32(10), i32(10, kind="nonzero_int"), EXACT),
    div_mode_case("div_floor_int64", "floor", i64(10), i64(10, kind="nonzero_int"), EXACT),
    case(
        "div_scalar_trunc",
        Fn(lambda x: aten.div.Scalar_mode(x, 0.75, rounding_mode="trunc")),
        [f32(8, kind="wide")],
        [DIV_SCALAR_MODE],
        EXACT,
        keep=KEEP_DIV_SCALAR_MODE,
    ),
    case(
        "div_scalar_floor_int16",
        Fn(lambda x: aten.div.Scalar_mode(x, 4, rounding_mode="floor")),
        [i16(9)],
        [DIV_SCALAR_MODE],
        EXACT,
        keep=KEEP_DIV_SCALAR_MODE,
    ),
    case("pow_tensor_tensor_f32", Fn(torch.pow), [f32(3, 4, kind="positive"), f32(4)], [POW_TT], LIBM),
    case("pow_tensor_tensor_int32", Fn(torch.pow), [i32(8, kind="small"), i32(8, kind="small_index")], [POW_TT], EXACT),
    case("pow_scalar_base", Fn(lambda x: torch.pow(2.0, x)), [f32(3, 5)], [POW_SCALAR], LIBM),
    case("pow_scalar_base_int64", Fn(lambda x: torch.pow(3, x)), [i64(6, kind="small_index")], [POW_SCALAR], EXACT),
    case("rsub_f32", Fn(lambda x: aten.rsub.Scalar(x, 2.0)), [f32(3, 4)], [RSUB], EXACT, keep=KEEP_RSUB),
    case("rsub_alpha", Fn(lambda x: aten.rsub.Scalar(x, 1.5, alpha=0.5)), [f32(7)], [RSUB], keep=KEEP_RSUB),
    case("rsub_int32", Fn(lambda x: aten.rsub.Scalar(x, 10)), [i32(2, 6)], [RSUB], EXACT, keep=KEEP_RSUB),
    case("where_f32", Fn(lambda c, x, y: torch.where(c, x, y)), [b8(3, 4), f32(3, 4), f32(4)], [WHERE], EXACT),
    case(
        "where_from_compare",
        Fn(lambda x: torch.where(x > 0, x, x * 0.1)),
        [f32(2, 3, 4)],
        [GT_SCALAR, op("mul.out"), WHERE],
        EXACT,
    ),
    case(
        "where_int64_bcast", Fn(lambda c, x, y: torch.where(c, x, y)), [b8(2, 1, 3), i64(4, 1), i64(3)], [WHERE], EXACT
    ),
    case("where_mixed", Fn(lambda c, x, y: torch.where(c, x, y)), [b8(6), i32(6), f32(6)], [WHERE], EXACT),
    case(
        "masked_fill_f32",
        Fn(lambda x, m: x.masked_fill(m, -1.5)),
        [f32(3, 5), b8(3, 5)],
        [MASKED_FILL],
        EXACT,
        keep=KEEP_MASKED_FILL,
    ),
    case(
        "masked_fill_bcast",
        Fn(lambda x, m: x.masked_fill(m, float("-inf")).softmax(-1)),
        [f32(2, 4, 4), b8(4, 4)],
        [MASKED_FILL, op("_softmax.out")],
        keep=KEEP_MASKED_FILL,
    ),
    case(
        "masked_fill_int8",
        Fn(lambda x, m: x.masked_fill(m, 7)),
        [i8(10), b8(10)],
        [MASKED_FILL],
        EXACT,
        keep=KEEP_MASKED_FILL,
    ),
    case(
        "clamp_tensor_both",
        Fn(lambda x, lo, hi: torch.clamp(x, lo, hi)),
        [f32(3, 4), f32(4), f32(3, 1)],
        [CLAMP_TENSOR],
        EXACT,
    ),
    case("clamp_tensor_min", Fn(lambda x, lo: torch.clamp(x, min=lo)), [f32(5, 2), f32(5, 1)], [CLAMP_TENSOR], EXACT),
    case(
        "clamp_tensor_max_int32", Fn(lambda x, hi: torch.clamp(x, max=hi)), [i32(4, 3), i32(3)], [CLAMP_TENSOR], EXACT
    ),
]
