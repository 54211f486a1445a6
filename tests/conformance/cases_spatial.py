"""Conformance cases of the spatial and normalization operators (portable-kernel parity):
reflection and replication padding in 1, 2 and 3 dimensions, elu, glu, group norm, batch norm
with batch statistics, bilinear upsampling, grid sampling, pairwise distances. See cases.py for
how a case is written."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from cases import ELEMENTWISE, EXACT, REDUCTION, Case, Fn, case, f32, i32, ulps
from torch import nn

aten = torch.ops.aten


def op(name: str) -> str:
    return f"aten::{name}"


CASES: list[Case] = [
    case(
        "reflection_pad1d",
        Fn(lambda x: F.pad(x, (2, 1), mode="reflect")),
        [f32(2, 3, 5)],
        [op("reflection_pad1d.out")],
        EXACT,
        keep=(aten.reflection_pad1d.default,),
    ),
    case(
        "reflection_pad2d",
        Fn(lambda x: F.pad(x, (1, 2, 2, 0), mode="reflect")),
        [f32(1, 2, 4, 5)],
        [op("reflection_pad2d.out")],
        EXACT,
        keep=(aten.reflection_pad2d.default,),
    ),
    case(
        "reflection_pad3d",
        Fn(lambda x: F.pad(x, (1, 1, 0, 2, 1, 0), mode="reflect")),
        [f32(1, 1, 3, 3, 4)],
        [op("reflection_pad3d.out")],
        EXACT,
        keep=(aten.reflection_pad3d.default,),
    ),
    case(
        "replication_pad1d",
        Fn(lambda x: F.pad(x, (3, 0), mode="replicate")),
        [f32(1, 2, 4)],
        [op("replication_pad1d.out")],
        EXACT,
        keep=(aten.replication_pad1d.default,),
    ),
    case(
        "replication_pad2d",
        Fn(lambda x: F.pad(x, (0, 2, 1, 3), mode="replicate")),
        [f32(2, 1, 3, 3)],
        [op("replication_pad2d.out")],
        EXACT,
        keep=(aten.replication_pad2d.default,),
    ),
    case(
        "replication_pad3d",
        Fn(lambda x: F.pad(x, (1, 0, 1, 1, 2, 2), mode="replicate")),
        [f32(1, 2, 2, 3, 2)],
        [op("replication_pad3d.out")],
        EXACT,
        keep=(aten.replication_pad3d.default,),
    ),
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
    case(
        "upsample_bilinear_size",
        Fn(lambda x: F.interpolate(x, size=(5, 7), mode="bilinear")),
        [f32(1, 2, 3, 4)],
        [op("upsample_bilinear2d.vec_out")],
        ELEMENTWISE,
    ),
    case(
        "upsample_bilinear_align",
        Fn(lambda x: F.interpolate(x, size=(6, 3), mode="bilinear", align_corners=True)),
        [f32(2, 1, 4, 5)],
        [op("upsample_bilinear2d.vec_out")],
        ELEMENTWISE,
    ),
    case(
        "upsample_bilinear_scale",
        Fn(lambda x: F.interpolate(x, scale_factor=2.0, mode="bilinear")),
        [f32(1, 3, 3, 3)],
        [op("upsample_bilinear2d.vec_out")],
        ELEMENTWISE,
    ),
    case("cdist_p2", Fn(lambda a, b: torch.cdist(a, b)), [f32(4, 3), f32(5, 3)], [op("_cdist_forward.out")], ulps(4)),
    case(
        "cdist_p1_batch",
        Fn(lambda a, b: torch.cdist(a, b, p=1.0)),
        [f32(2, 3, 4), f32(1, 2, 4)],
        [op("_cdist_forward.out")],
        REDUCTION,
    ),
    case(
        "cdist_p3",
        Fn(lambda a, b: torch.cdist(a, b, p=3.0)),
        [f32(3, 2), f32(2, 2)],
        [op("_cdist_forward.out")],
        ulps(16),
    ),
    case(
        "cdist_inf",
        Fn(lambda a, b: torch.cdist(a, b, p=float("inf"))),
        [f32(3, 5), f32(4, 5)],
        [op("_cdist_forward.out")],
        EXACT,
    ),
    case("pdist_p2", Fn(lambda x: F.pdist(x)), [f32(5, 3)], [op("_pdist_forward.out")], ulps(4)),
    case(
        "pdist_p0",
        Fn(lambda x: F.pdist(torch.round(x), p=0.0)),
        [f32(4, 6)],
        [op("round.out"), op("_pdist_forward.out")],
        EXACT,
    ),
    case(
        "grid_sample_bilinear_zeros",
        Fn(lambda x, g: F.grid_sample(x, g * 1.3, mode="bilinear", padding_mode="zeros", align_corners=False)),
        [f32(1, 2, 4, 5), f32(1, 3, 6, 2, kind="unit")],
        [op("mul.out"), op("grid_sampler_2d.out")],
        ELEMENTWISE,
    ),
    case(
        "grid_sample_bilinear_border_align",
        Fn(lambda x, g: F.grid_sample(x, g * 1.3, mode="bilinear", padding_mode="border", align_corners=True)),
        [f32(1, 2, 4, 5), f32(1, 3, 6, 2, kind="unit")],
        [op("mul.out"), op("grid_sampler_2d.out")],
        ELEMENTWISE,
    ),
    case(
        "grid_sample_bilinear_reflection",
        Fn(lambda x, g: F.grid_sample(x, g * 1.3, mode="bilinear", padding_mode="reflection", align_corners=False)),
        [f32(1, 2, 4, 5), f32(1, 3, 6, 2, kind="unit")],
        [op("mul.out"), op("grid_sampler_2d.out")],
        ELEMENTWISE,
    ),
    case(
        "grid_sample_nearest_zeros_align",
        Fn(lambda x, g: F.grid_sample(x, g * 1.3, mode="nearest", padding_mode="zeros", align_corners=True)),
        [f32(1, 2, 4, 5), f32(1, 3, 6, 2, kind="unit")],
        [op("mul.out"), op("grid_sampler_2d.out")],
        EXACT,
    ),
    case(
        "grid_sample_nearest_border",
        Fn(lambda x, g: F.grid_sample(x, g * 1.3, mode="nearest", padding_mode="border", align_corners=False)),
        [f32(1, 2, 4, 5), f32(1, 3, 6, 2, kind="unit")],
        [op("mul.out"), op("grid_sampler_2d.out")],
        EXACT,
    ),
    case(
        "grid_sample_nearest_reflection_align",
        Fn(lambda x, g: F.grid_sample(x, g * 1.3, mode="nearest", padding_mode="reflection", align_corners=True)),
        [f32(1, 2, 4, 5), f32(1, 3, 6, 2, kind="unit")],
        [op("mul.out"), op("grid_sampler_2d.out")],
        EXACT,
    ),
    case(
        "grid_sample_bicubic_zeros",
        Fn(lambda x, g: F.grid_sample(x, g * 1.3, mode="bicubic", padding_mode="zeros", align_corners=False)),
        [f32(1, 2, 4, 5), f32(1, 3, 6, 2, kind="unit")],
        [op("mul.out"), op("grid_sampler_2d.out")],
        REDUCTION,
    ),
    case(
        "grid_sample_bicubic_border_align",
        Fn(lambda x, g: F.grid_sample(x, g * 1.3, mode="bicubic", padding_mode="border", align_corners=True)),
        [f32(1, 2, 4, 5), f32(1, 3, 6, 2, kind="unit")],
        [op("mul.out"), op("grid_sampler_2d.out")],
        REDUCTION,
    ),
    case(
        "grid_sample_bicubic_reflection",
        Fn(lambda x, g: F.grid_sample(x, g * 1.3, mode="bicubic", padding_mode="reflection", align_corners=False)),
        [f32(1, 2, 4, 5), f32(1, 3, 6, 2, kind="unit")],
        [op("mul.out"), op("grid_sampler_2d.out")],
        REDUCTION,
    ),
    case(
        "upsample_aa_shrink",
        Fn(lambda x: F.interpolate(x, size=(3, 4), mode="bilinear", antialias=True)),
        [f32(1, 2, 7, 9)],
        [op("_upsample_bilinear2d_aa.out")],
        REDUCTION,
        keep=(aten._upsample_bilinear2d_aa.default,),
    ),
    case(
        "upsample_aa_grow",
        Fn(lambda x: F.interpolate(x, size=(5, 6), mode="bilinear", antialias=True)),
        [f32(1, 1, 3, 4)],
        [op("_upsample_bilinear2d_aa.out")],
        REDUCTION,
        keep=(aten._upsample_bilinear2d_aa.default,),
    ),
]
