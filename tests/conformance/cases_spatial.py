"""Conformance cases of the spatial and normalization operators (portable-kernel parity):
reflection and replication padding in 1, 2 and 3 dimensions, elu, glu, group norm, batch norm
with batch statistics, bilinear upsampling, grid sampling, pairwise distances. See cases.py for
how a case is written."""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from cases import ELEMENTWISE, EXACT, REDUCTION, Case, Fn, Input, Tolerance, case, f32, i32, ulps
from torch import nn

aten = torch.ops.aten


def op(name: str) -> str:
    return f"aten::{name}"


def pad_case(name: str, pad: tuple[int, ...], operand: Input) -> Case:
    """Padding by `name` (reflection_pad<N>d or replication_pad<N>d, its own operator, kept whole
    by export) of `operand`, `pad` as F.pad takes it."""
    mode = "reflect" if name.startswith("reflection") else "replicate"
    return case(
        name,
        Fn(lambda x: F.pad(x, pad, mode=mode)),
        [operand],
        [op(f"{name}.out")],
        EXACT,
        keep=(getattr(aten, name).default,),
    )


# grid_sampler_2d's tolerance by interpolation: nearest copies, bilinear rounds once per
# element, bicubic sums sixteen terms.
GRID_SAMPLE_TOLERANCE = {"nearest": EXACT, "bilinear": ELEMENTWISE, "bicubic": REDUCTION}


def grid_sample_case(mode: str, padding_mode: str, align_corners: bool) -> Case:
    """grid_sample_<mode>_<padding_mode>[_align] of a 1x2x4x5 input on a grid reaching 30 % past
    the input's edges (padding_mode decides what is read there)."""
    return case(
        f"grid_sample_{mode}_{padding_mode}" + ("_align" if align_corners else ""),
        Fn(lambda x, g: F.grid_sample(x, g * 1.3, mode=mode, padding_mode=padding_mode, align_corners=align_corners)),
        [f32(1, 2, 4, 5), f32(1, 3, 6, 2, kind="unit")],
        [op("mul.out"), op("grid_sampler_2d.out")],
        GRID_SAMPLE_TOLERANCE[mode],
    )


def bilinear_case(name: str, operand: Input, antialias: bool = False, **size: Any) -> Case:
    """Bilinear interpolation of `operand` to `size` (F.interpolate's size or scale_factor, and
    align_corners); antialiased: its own operator, kept whole by export, summing more terms."""
    keep: tuple[torch._ops.OpOverload, ...] = ()
    if antialias:
        operator, tolerance, keep = "_upsample_bilinear2d_aa.out", REDUCTION, (aten._upsample_bilinear2d_aa.default,)
    else:
        operator, tolerance = "upsample_bilinear2d.vec_out", ELEMENTWISE
    return case(
        name,
        Fn(lambda x: F.interpolate(x, mode="bilinear", antialias=antialias, **size)),
        [operand],
        [op(operator)],
        tolerance,
        keep=keep,
    )


def cdist_case(name: str, p: float, a: Input, b: Input, tolerance: Tolerance) -> Case:
    """torch.cdist(a, b, p): the p-norm distance of every row of `a` to every row of `b`."""
    return case(name, Fn(lambda x, y: torch.cdist(x, y, p=p)), [a, b], [op("_cdist_forward.out")], tolerance)


CASES: list[Case] = [
    pad_case("reflection_pad1d", (2, 1), f32(2, 3, 5)),
    pad_case("reflection_pad2d", (1, 2, 2, 0), f32(1, 2, 4, 5)),
    pad_case("reflection_pad3d", (1, 1, 0, 2, 1, 0), f32(1, 1, 3, 3, 4)),
    pad_case("replication_pad1d", (3, 0), f32(1, 2, 4)),
    pad_case("replication_pad2d", (0, 2, 1, 3), f32(2, 1, 3, 3)),
    pad_case("replication_pad3d", (1, 0, 1, 1, 2, 2), f32(1, 2, 2, 3, 2)),
    case(
        "reflection_pad2d_int32",
        Fn(lambda x: aten.reflection_pad2d(x, [1, 1, 1, 1])),
        [i32(1, 3, 3)],
        [op("reflection_pad2d.out")],
        EXACT,
        keep=(aten.reflection_pad2d.default,),
    ),
    case("elu_default", Fn(F.elu), [f32(4, 6, kind="wide")], [op("elu.out")], ulps(4)),
    case("elu_alpha", Fn(lambda x: F.elu(x, alpha=0.5)), [f32(3, 5)], [op("elu.out")], ulps(4)),
    case("selu", Fn(F.selu), [f32(10)], [op("elu.out")], ulps(4)),
    case("glu_last", Fn(F.glu), [f32(3, 8)], [op("glu.out")], ELEMENTWISE, keep=(aten.glu.default,)),
    case(
        "glu_dim1",
        Fn(lambda x: F.glu(x, dim=1)),
        [f32(2, 6, 3)],
        [op("glu.out")],
        ELEMENTWISE,
        keep=(aten.glu.default,),
    ),
    case("group_norm_affine", nn.GroupNorm(2, 6), [f32(2, 6, 3, 2)], [op("native_group_norm.out")], REDUCTION),
    case(
        "group_norm_plain", nn.GroupNorm(3, 3, affine=False), [f32(1, 3, 5)], [op("native_group_norm.out")], REDUCTION
    ),
    case(
        "batch_norm_batch_stats",
        nn.BatchNorm2d(3, track_running_stats=False),
        [f32(2, 3, 4, 4)],
        [op("_native_batch_norm_legit.no_stats_out")],
        REDUCTION,
    ),
    case(
        "batch_norm_legit_eval",
        Fn(lambda x, w, b, m, v: aten._native_batch_norm_legit(x, w, b, m, v, False, 0.1, 1e-5)[0]),
        [f32(2, 3, 2, 2), f32(3), f32(3), f32(3), f32(3, kind="positive")],
        [op("_native_batch_norm_legit.out")],
        REDUCTION,
        keep=(aten._native_batch_norm_legit.default,),
        unsupported="export cannot keep an operator that mutates its inputs (running_mean, running_var)",
    ),
    bilinear_case("upsample_bilinear_size", f32(1, 2, 3, 4), size=(5, 7)),
    bilinear_case("upsample_bilinear_align", f32(2, 1, 4, 5), size=(6, 3), align_corners=True),
    bilinear_case("upsample_bilinear_scale", f32(1, 3, 3, 3), scale_factor=2.0),
    cdist_case("cdist_p2", 2.0, f32(4, 3), f32(5, 3), ulps(4)),
    cdist_case("cdist_p1_batch", 1.0, f32(2, 3, 4), f32(1, 2, 4), REDUCTION),
    cdist_case("cdist_p3", 3.0, f32(3, 2), f32(2, 2), ulps(16)),
    cdist_case("cdist_inf", float("inf"), f32(3, 5), f32(4, 5), EXACT),
    case("pdist_p2", Fn(lambda x: F.pdist(x)), [f32(5, 3)], [op("_pdist_forward.out")], ulps(4)),
    case(
        "pdist_p0",
        Fn(lambda x: F.pdist(torch.round(x), p=0.0)),
        [f32(4, 6)],
        [op("round.out"), op("_pdist_forward.out")],
        EXACT,
    ),
    *(
        grid_sample_case(mode, padding_mode, align_corners)
        for mode, padding_mode, align_corners in [
            ("bilinear", "zeros", False),
            ("bilinear", "border", True),
            ("bilinear", "reflection", False),
            ("nearest", "zeros", True),
            ("nearest", "border", False),
            ("nearest", "reflection", True),
            ("bicubic", "zeros", False),
            ("bicubic", "border", True),
            ("bicubic", "reflection", False),
        ]
    ),
    bilinear_case("upsample_aa_shrink", f32(1, 2, 7, 9), size=(3, 4), antialias=True),
    bilinear_case("upsample_aa_grow", f32(1, 1, 3, 4), size=(5, 6), antialias=True),
]
