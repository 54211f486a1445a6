"""Conformance cases of the reductions (portable-kernel parity): amax/amin, argmin, any, max/min
with and without indices, prod, mean over everything, var, cumsum; NaN handling and ties.
See cases.py for how a case is written."""

from __future__ import annotations

import torch
from cases import EXACT, REDUCTION, Case, Fn, b8, case, f32, i8, i32, i64, u8

aten = torch.ops.aten


def op(name: str) -> str:
    return f"aten::{name}"


CASES: list[Case] = [
    case("amax_dims", Fn(lambda x: torch.amax(x, dim=(0, 2))), [f32(3, 4, 5)], [op("amax.out")], EXACT),
    case("amax_keepdim_int32", Fn(lambda x: torch.amax(x, dim=-1, keepdim=True)), [i32(4, 6)], [op("amax.out")], EXACT),
    case(
        "amax_nan",
        Fn(lambda x: torch.amax(torch.sqrt(x), dim=1) > 0.5),
        [f32(3, 2)],
        [op("sqrt.out"), op("amax.out"), op("gt.Scalar_out")],
        EXACT,
    ),
    case("amin_all", Fn(lambda x: torch.amin(x)), [f32(4, 3)], [op("amin.out")], EXACT),
    case("amin_uint8", Fn(lambda x: torch.amin(x, dim=0)), [u8(5, 3)], [op("amin.out")], EXACT),
    case("argmin_dim", Fn(lambda x: torch.argmin(x, dim=1)), [f32(3, 7, kind="ties")], [op("argmin.out")], EXACT),
    case("argmin_flat_int64", Fn(lambda x: torch.argmin(x)), [i64(4, 5)], [op("argmin.out")], EXACT),
    case("any_all", Fn(lambda x: torch.any(x)), [b8(3, 4)], [op("any.all_out")], EXACT),
    case("any_dim_f32", Fn(lambda x: torch.any(x, dim=1)), [f32(3, 4, kind="ties")], [op("any.out")], EXACT),
    case(
        "any_dims_int8",
        Fn(lambda x: torch.any(x, dim=(0, 2), keepdim=True)),
        [i8(2, 3, 4, kind="small")],
        [op("any.dims_out")],
        EXACT,
    ),
    case("max_dim", Fn(lambda x: tuple(torch.max(x, dim=1))), [f32(3, 6, kind="ties")], [op("max.dim_max")], EXACT),
    case(
        "max_dim_keepdim_int32",
        Fn(lambda x: tuple(torch.max(x, dim=0, keepdim=True))),
        [i32(4, 3)],
        [op("max.dim_max")],
        EXACT,
    ),
    case("min_dim", Fn(lambda x: tuple(torch.min(x, dim=-1))), [f32(2, 3, 5, kind="ties")], [op("min.dim_min")], EXACT),
    case("max_all", Fn(lambda x: torch.max(x)), [f32(5, 4)], [op("max.unary_out")], EXACT),
    case("min_all_int64", Fn(lambda x: torch.min(x)), [i64(7)], [op("min.unary_out")], EXACT),
    case("prod_all", Fn(lambda x: torch.prod(x)), [f32(6, kind="ge1")], [op("prod.out")], REDUCTION),
    case("prod_dim", Fn(lambda x: torch.prod(x, dim=1)), [f32(3, 4)], [op("prod.int_out")], REDUCTION),
    case(
        "prod_int32",
        Fn(lambda x: torch.prod(x, dim=0, keepdim=True)),
        [i32(3, 4, kind="small")],
        [op("prod.int_out")],
        EXACT,
    ),
    case(
        "mean_all_dtype",
        Fn(lambda x: aten.mean.default(x)),
        [f32(4, 6)],
        [op("mean.dtype_out")],
        REDUCTION,
        keep=(aten.mean.default,),
    ),
    case("var_unbiased", Fn(lambda x: torch.var(x, dim=1)), [f32(3, 8)], [op("var.correction_out")], REDUCTION),
    case(
        "var_all_biased",
        Fn(lambda x: aten.var.dim(x, None, False)),
        [f32(4, 5)],
        [op("var.out")],
        REDUCTION,
        keep=(aten.var.dim,),
    ),
    case(
        "var_correction",
        Fn(lambda x: torch.var(x, dim=(0, 2), correction=2, keepdim=True)),
        [f32(3, 2, 4)],
        [op("var.correction_out")],
        REDUCTION,
    ),
    case("cumsum_f32", Fn(lambda x: torch.cumsum(x, 1)), [f32(3, 6)], [op("cumsum.out")], REDUCTION),
    case("cumsum_int32", Fn(lambda x: torch.cumsum(x, 0)), [i32(4, 3)], [op("cumsum.out")], EXACT),
    case("topk_largest", Fn(lambda x: tuple(torch.topk(x, 3))), [f32(4, 9)], [op("topk.values")], EXACT),
    case(
        "topk_smallest_dim0",
        Fn(lambda x: tuple(torch.topk(x, 2, dim=0, largest=False))),
        [f32(6, 3)],
        [op("topk.values")],
        EXACT,
    ),
    case(
        "topk_int32",
        Fn(lambda x: tuple(torch.topk(x, 4))),
        [i32(2, 3, 40, kind="distinct")],
        [op("topk.values")],
        EXACT,
    ),
    case(
        "var_mean_all",
        Fn(lambda x: tuple(torch.var_mean(x))),
        [f32(3, 7)],
        [op("var_mean.correction_out")],
        REDUCTION,
        keep=(aten.var_mean.correction,),
    ),
    case(
        "var_mean_dim",
        Fn(lambda x: tuple(torch.var_mean(x, dim=1, correction=0, keepdim=True))),
        [f32(2, 5, 3)],
        [op("var_mean.correction_out")],
        REDUCTION,
        keep=(aten.var_mean.correction,),
    ),
]
