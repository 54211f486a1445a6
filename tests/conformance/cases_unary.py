"""Conformance cases of the one-input elementwise family (portable-kernel parity): libm
functions (per-op ulp tolerances: glibc on the host, picolibc on the boards), rounding,
sign and predicates, over float32 and the integer dtypes each kernel accepts. See cases.py
for how a case is written."""

from __future__ import annotations

import torch
from cases import EXACT, Case, Fn, case, f32, i8, i16, i32, i64, u8, ulps

# libm's float functions: picolibc's and glibc's agree within a few ulps.
LIBM = ulps(4)
# logit decomposes into core ATen unless kept.
LOGIT = (torch.ops.aten.logit.default,)
# Functions whose results are correctly rounded in both (sqrt, division).
ROUNDED = ulps(1)


def op(name: str) -> str:
    return f"aten::{name}.out"


def _math_cases() -> list[Case]:
    # (operator, function, input kind): the kind keeps the inputs inside the function's domain.
    functions = [
        ("acos", torch.acos, "unit"),
        ("acosh", torch.acosh, "ge1"),
        ("asin", torch.asin, "unit"),
        ("asinh", torch.asinh, "wide"),
        ("atan", torch.atan, "wide"),
        ("atanh", torch.atanh, "unit"),
        ("cos", torch.cos, "wide"),
        ("cosh", torch.cosh, "normal"),
        ("erf", torch.erf, "normal"),
        ("exp", torch.exp, "normal"),
        ("expm1", torch.expm1, "normal"),
        ("log", torch.log, "positive"),
        ("log10", torch.log10, "positive"),
        ("log1p", torch.log1p, "positive"),
        ("log2", torch.log2, "positive"),
        ("sin", torch.sin, "wide"),
        ("sinh", torch.sinh, "normal"),
        ("sqrt", torch.sqrt, "positive"),
        ("tan", torch.tan, "unit"),
        ("reciprocal", torch.reciprocal, "nonzero"),
        ("rsqrt", torch.rsqrt, "positive"),
    ]
    cases = []
    for name, fn, kind in functions:
        tolerance = ROUNDED if name in ("sqrt", "reciprocal", "rsqrt") else LIBM
        cases.append(case(f"{name}_f32", Fn(fn), [f32(4, 9, kind=kind)], [op(name)], tolerance))
    # Integer inputs convert to float first (out is float32).
    cases += [
        case("exp_int32", Fn(torch.exp), [i32(12, kind="small")], [op("exp")], LIBM),
        case("sqrt_int64", Fn(lambda x: torch.sqrt(x.abs())), [i64(10)], [op("abs"), op("sqrt")], ROUNDED),
        case("sin_uint8", Fn(torch.sin), [u8(3, 5)], [op("sin")], LIBM),
        case("log1p_int8", Fn(lambda x: torch.log1p(x.abs())), [i8(7)], [op("abs"), op("log1p")], LIBM),
        case("cos_0d", Fn(torch.cos), [f32()], [op("cos")], LIBM),
        case("logit_no_eps", Fn(torch.logit), [f32(3, 6, kind="prob")], [op("logit")], ulps(8), keep=LOGIT),
        case("logit_eps", Fn(lambda x: torch.logit(x, eps=0.05)), [f32(20)], [op("logit")], ulps(8), keep=LOGIT),
        case(
            "logit_int32",
            Fn(lambda x: torch.logit(x, eps=0.2)),
            [i32(8, kind="small")],
            [op("logit")],
            ulps(8),
            keep=LOGIT,
        ),
    ]
    return cases


def _same_dtype_cases() -> list[Case]:
    cases = []
    for name, fn in [("ceil", torch.ceil), ("floor", torch.floor), ("trunc", torch.trunc), ("round", torch.round)]:
        cases.append(case(f"{name}_f32", Fn(lambda x, fn=fn: fn(x * 2.5)), [f32(5, 8)], [MUL, op(name)], EXACT))
        cases.append(case(f"{name}_int32", Fn(fn), [i32(6)], [op(name)], EXACT))
    cases += [
        # Halves round to even: 0.5 -> 0, 1.5 -> 2, -2.5 -> -2.
        case("round_ties", Fn(lambda x: torch.round(x - 0.5)), [f32(16, kind="ties")], [SUB, op("round")], EXACT),
        case("abs_f32", Fn(torch.abs), [f32(3, 7)], [op("abs")], EXACT),
        case("abs_int8", Fn(torch.abs), [i8(9)], [op("abs")], EXACT),
        case("abs_int64", Fn(torch.abs), [i64(2, 5)], [op("abs")], EXACT),
        case("neg_f32", Fn(torch.neg), [f32(4, 4)], [op("neg")], EXACT),
        case("neg_int16", Fn(torch.neg), [i16(11)], [op("neg")], EXACT),
        case("neg_int32", Fn(torch.neg), [i32(2, 3)], [op("neg")], EXACT),
        case("sign_f32", Fn(torch.sign), [f32(12, kind="ties")], [op("sign")], EXACT),
        case("sign_int64", Fn(torch.sign), [i64(9)], [op("sign")], EXACT),
        case("sign_uint8", Fn(torch.sign), [u8(6, kind="small")], [op("sign")], EXACT),
        case("bitwise_not_int32", Fn(torch.bitwise_not), [i32(3, 4)], [op("bitwise_not")], EXACT),
        case("bitwise_not_uint8", Fn(torch.bitwise_not), [u8(10)], [op("bitwise_not")], EXACT),
        case(
            "bitwise_not_bool", Fn(lambda x: torch.bitwise_not(x > 0)), [f32(8)], [GT_SCALAR, op("bitwise_not")], EXACT
        ),
    ]
    return cases


def _predicate_cases() -> list[Case]:
    return [
        # log of a negative number is NaN: isnan finds them.
        case("isnan_f32", Fn(lambda x: torch.isnan(torch.log(x))), [f32(4, 5)], [op("log"), op("isnan")], EXACT),
        case("isnan_int32", Fn(torch.isnan), [i32(7)], [op("isnan")], EXACT),
        # exp of 12 * N(0, 1) overflows to inf for about a third of the elements.
        case(
            "isinf_f32",
            Fn(lambda x: torch.isinf(torch.exp(x))),
            [f32(3, 8, kind="wide")],
            [op("exp"), op("isinf")],
            EXACT,
        ),
        case("isinf_int64", Fn(torch.isinf), [i64(5)], [op("isinf")], EXACT),
        case("logical_not_f32", Fn(torch.logical_not), [f32(10, kind="ties")], [op("logical_not")], EXACT),
        case("logical_not_int8", Fn(torch.logical_not), [i8(9, kind="small")], [op("logical_not")], EXACT),
        case(
            "logical_not_bool", Fn(lambda x: torch.logical_not(x > 0)), [f32(6)], [GT_SCALAR, op("logical_not")], EXACT
        ),
    ]


MUL = "aten::mul.out"
SUB = "aten::sub.out"
GT_SCALAR = "aten::gt.Scalar_out"

CASES: list[Case] = _math_cases() + _same_dtype_cases() + _predicate_cases()
