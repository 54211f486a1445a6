#!/usr/bin/env python3
"""Generates kernels_b_cases.h: inputs and expected outputs for kernels_b_test.c.

Covers the NN kernels (addmm, mm, bmm, convolution, max_pool2d_with_indices, avg_pool2d,
_adaptive_avg_pool2d, native_layer_norm, _native_batch_norm_legit_no_training). Each case
lists the kernel's argument values in ExecuTorch KernelCall order (schema arguments, outs,
then the returns: the out itself, or one TensorList for multi-output ops) so the C test can
build them without Python.

Expected values come from PyTorch eager, computed in float64 and rounded to float32 (the exact
result, so the test tolerance only has to absorb the kernel's own float32 rounding). With
`--reference executorch` they come instead from running each case as a .pte through the
ExecuTorch runtime (pybindings), to check agreement with the portable kernels:

    python gen_kernels_b_cases.py                       # writes kernels_b_cases.h next to this file
    python gen_kernels_b_cases.py --reference executorch --out /tmp/cases_et.h
    # then build kernels_b_test.c with -DKB_CASES_HEADER='"/tmp/cases_et.h"'

(The pybindings run the portable kernels for addmm, convolution, the pools and batch norm:
the first four match bit for bit, batch norm within an ulp as ExecuTorch computes invstd in
double. mm, bmm and native_layer_norm run ExecuTorch's optimized kernels there.)

Needs torch (and executorch for --reference executorch). Keep tensors small: the header is
committed.
"""

from __future__ import annotations

import argparse
import math
import os
import struct
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

import torch
from c_initializer import wrap_initializer

# tp_dtype / tp_status numbers (runtime/include/tinypte/value.h, status.h)
DTYPE = {torch.float32: 6, torch.int64: 4, torch.int32: 3}
CTYPE = {torch.float32: "float", torch.int64: "int64_t", torch.int32: "int32_t"}
TP_OK, TP_ERR_KERNEL_ARGS, TP_ERR_KERNEL_DTYPE = 0, 11, 12

GEN = torch.Generator().manual_seed(20240611)


# Inputs are rounded to 3 decimals to keep the header small; they are still not exact binary
# fractions, so products and sums round and the order of accumulation matters.
def randn(*shape: int, scale: float = 1.0, offset: float = 0.0) -> torch.Tensor:
    return torch.round(torch.randn(shape, generator=GEN) * scale + offset, decimals=3).to(torch.float32)


def rand(*shape: int, lo: float = 0.0, hi: float = 1.0) -> torch.Tensor:
    return torch.round(torch.rand(shape, generator=GEN) * (hi - lo) + lo, decimals=3).to(torch.float32)


# --- argument helpers: a case's args are a list of (kind, payload) ---------------------
ArgKind: TypeAlias = Literal["in", "none", "int", "double", "bool", "ilist"]
ArgValue: TypeAlias = torch.Tensor | bool | int | float | list[int] | None
Arg: TypeAlias = tuple[ArgKind, ArgValue]
# A case's reference: its argument values (float tensors as float64) -> output tensor(s).
Ref: TypeAlias = Callable[..., torch.Tensor | tuple[torch.Tensor, ...]]
OutSpec: TypeAlias = tuple[tuple[int, ...], torch.dtype]  # (shape, dtype) of an out tensor


def arg_tensor(t: torch.Tensor) -> Arg:  # input tensor
    return ("in", t)


def arg_none() -> Arg:
    return ("none", None)


def arg_int(v: int) -> Arg:
    return ("int", int(v))


def arg_double(v: float) -> Arg:
    return ("double", float(v))


def arg_bool(v: bool) -> Arg:
    return ("bool", bool(v))


def arg_ints(v: Sequence[int]) -> Arg:
    return ("ilist", [int(x) for x in v])


def arg_optional_tensor(t: torch.Tensor | None) -> Arg:
    return arg_tensor(t) if t is not None else arg_none()


def arg_scalar(arg: Arg) -> int | float:
    """The number an Int or Double argument holds."""
    kind, v = arg
    if kind not in ("int", "double") or not isinstance(v, int | float):
        raise TypeError(f"not a scalar argument: {arg!r}")
    return v


INT_ONE = arg_int(1)  # the default alpha / beta


@dataclass
class Case:
    op: str
    name: str
    args: list[Arg]
    n_out: int
    ref: Ref | None = None  # callable(args with float64 tensors) -> tuple of outputs
    status: int = TP_OK
    out_specs: list[OutSpec] | None = None  # [(shape, dtype)] for error cases without a reference
    separate_returns: bool = False
    expected: list[torch.Tensor] | None = field(default=None, init=False)


def to_call(args: list[Arg], dtype: torch.dtype) -> list[ArgValue]:
    vals: list[ArgValue] = []
    for kind, v in args:
        if kind == "in" and isinstance(v, torch.Tensor):
            vals.append(v.to(dtype) if v.is_floating_point() else v)
        elif kind == "none":
            vals.append(None)
        else:
            vals.append(v)
    return vals


def torch_reference(case: Case) -> list[torch.Tensor]:
    if case.ref is None:
        raise ValueError(f"{case.op} {case.name}: no reference")
    outs = case.ref(*to_call(case.args, torch.float64))
    if isinstance(outs, torch.Tensor):
        outs = (outs,)
    return [o.to(torch.float32) if o.is_floating_point() else o for o in outs]


def executorch_reference(case: Case) -> list[torch.Tensor]:
    from executorch.exir import to_edge
    from executorch.extension.pybindings.portable_lib import _load_for_executorch_from_buffer

    inputs = [v for kind, v in case.args if kind == "in" and isinstance(v, torch.Tensor)]
    template = to_call(case.args, torch.float32)
    slots = [i for i, (kind, _) in enumerate(case.args) if kind == "in"]
    if case.ref is None:
        raise ValueError(f"{case.op} {case.name}: no reference")
    ref: Ref = case.ref

    class M(torch.nn.Module):
        def forward(self, *xs: torch.Tensor) -> torch.Tensor | tuple[torch.Tensor, ...]:
            vals = list(template)
            for i, x in zip(slots, xs, strict=True):
                vals[i] = x
            return ref(*vals)

    ep = torch.export.export(M(), tuple(inputs))
    buffer = to_edge(ep).to_executorch().buffer  # keep alive while the module runs
    module = _load_for_executorch_from_buffer(buffer)
    outs: list[torch.Tensor] = [o.clone() for o in module.forward(tuple(inputs))]
    del module
    return outs


# --- the cases --------------------------------------------------------------------------
def addmm_ref(beta: int | float, alpha: int | float) -> Ref:
    return lambda s, a, b, *_: torch.addmm(s, a, b, beta=beta, alpha=alpha)


def addmm_case(
    name: str, self_shape: tuple[int, ...], m: int, n: int, p: int, beta: Arg = INT_ONE, alpha: Arg = INT_ONE
) -> Case:
    args = [arg_tensor(randn(*self_shape)), arg_tensor(randn(m, n)), arg_tensor(randn(n, p)), beta, alpha]
    return Case("addmm", name, args, 1, ref=addmm_ref(arg_scalar(beta), arg_scalar(alpha)))


def conv_case(
    name: str,
    x: torch.Tensor,
    w: torch.Tensor,
    bias: torch.Tensor | None,
    stride: list[int],
    padding: list[int],
    dilation: list[int],
    groups: int,
) -> Case:
    args = [
        arg_tensor(x),
        arg_tensor(w),
        arg_optional_tensor(bias),
        arg_ints(stride),
        arg_ints(padding),
        arg_ints(dilation),
        arg_bool(False),
        arg_ints([0] * len(stride)),
        arg_int(groups),
    ]
    return Case("convolution", name, args, 1, ref=lambda *a: torch.ops.aten.convolution.default(*a))


def maxpool_case(
    name: str,
    x: torch.Tensor,
    k: list[int],
    s: list[int],
    p: list[int],
    d: list[int],
    ceil: bool,
    separate_returns: bool = False,
) -> Case:
    args = [arg_tensor(x), arg_ints(k), arg_ints(s), arg_ints(p), arg_ints(d), arg_bool(ceil)]
    return Case(
        "max_pool2d_with_indices",
        name,
        args,
        2,
        separate_returns=separate_returns,
        ref=lambda *a: torch.ops.aten.max_pool2d_with_indices.default(*a),
    )


def avgpool_case(
    name: str,
    x: torch.Tensor,
    k: list[int],
    s: list[int],
    p: list[int],
    ceil: bool,
    include_pad: bool,
    divisor: int | None = None,
) -> Case:
    args = [
        arg_tensor(x),
        arg_ints(k),
        arg_ints(s),
        arg_ints(p),
        arg_bool(ceil),
        arg_bool(include_pad),
        arg_none() if divisor is None else arg_int(divisor),
    ]
    return Case("avg_pool2d", name, args, 1, ref=lambda *a: torch.ops.aten.avg_pool2d.default(*a))


def adaptive_case(name: str, x: torch.Tensor, size: list[int]) -> Case:
    return Case(
        "_adaptive_avg_pool2d",
        name,
        [arg_tensor(x), arg_ints(size)],
        1,
        ref=lambda *a: torch.ops.aten._adaptive_avg_pool2d.default(*a),
    )


def layernorm_case(
    name: str,
    x: torch.Tensor,
    shape: list[int],
    weight: torch.Tensor | None,
    bias: torch.Tensor | None,
    eps: float,
    separate_returns: bool = False,
) -> Case:
    args = [arg_tensor(x), arg_ints(shape), arg_optional_tensor(weight), arg_optional_tensor(bias), arg_double(eps)]
    return Case(
        "native_layer_norm",
        name,
        args,
        3,
        separate_returns=separate_returns,
        ref=lambda *a: torch.ops.aten.native_layer_norm.default(*a),
    )


def batchnorm_case(
    name: str,
    x: torch.Tensor,
    weight: torch.Tensor | None,
    bias: torch.Tensor | None,
    mean: torch.Tensor,
    var: torch.Tensor,
    eps: float,
    separate_returns: bool = False,
) -> Case:
    args = [
        arg_tensor(x),
        arg_optional_tensor(weight),
        arg_optional_tensor(bias),
        arg_tensor(mean),
        arg_tensor(var),
        arg_double(0.1),
        arg_double(eps),
    ]
    return Case(
        "_native_batch_norm_legit_no_training",
        name,
        args,
        3,
        separate_returns=separate_returns,
        ref=lambda *a: torch.ops.aten._native_batch_norm_legit_no_training.default(*a),
    )


def error(case: Case, status: int, out_specs: list[OutSpec]) -> Case:
    """An error case: the kernel must return `status` (out shapes/dtypes given explicitly)."""
    case.status, case.out_specs, case.ref = status, out_specs, None
    return case


def cases() -> list[Case]:
    f32, i64 = torch.float32, torch.int64
    cs: list[Case] = []
    # addmm: 1-D bias (linear), 2-D self, broadcast rows/cols/scalar, Int and Double alpha/beta
    cs += [
        addmm_case("linear 1-D bias 3x5 @ 5x4", (4,), 3, 5, 4),
        addmm_case("sine layer 1x1 @ 1x16 + [16]", (16,), 1, 1, 16),
        addmm_case("odd 5x11 @ 11x7 + [7]", (7,), 5, 11, 7),
        addmm_case("2-D self, beta 0.5 alpha 2.0", (3, 4), 3, 5, 4, beta=arg_double(0.5), alpha=arg_double(2.0)),
        addmm_case("self [1, 4], int beta 2 alpha 3", (1, 4), 3, 5, 4, beta=arg_int(2), alpha=arg_int(3)),
        addmm_case("self [3, 1]", (3, 1), 3, 2, 4),
        addmm_case("0-d self, beta 0", (), 2, 3, 5, beta=arg_int(0)),
        addmm_case("self [1]", (1,), 2, 6, 3, alpha=arg_double(-1.5)),
    ]
    cs.append(error(addmm_case("self rows 2 vs m 3", (2, 4), 3, 5, 4), TP_ERR_KERNEL_ARGS, [((3, 4), f32)]))
    bad = addmm_case("mat2 rows 4 vs mat1 cols 5", (4,), 3, 5, 4)
    bad.args[2] = arg_tensor(randn(4, 4))
    cs.append(error(bad, TP_ERR_KERNEL_ARGS, [((3, 4), f32)]))

    # mm, bmm
    for name, (m, n, p) in [("3x5 @ 5x4", (3, 5, 4)), ("1x7 @ 7x1", (1, 7, 1)), ("5x7 @ 7x6", (5, 7, 6))]:
        cs.append(Case("mm", name, [arg_tensor(randn(m, n)), arg_tensor(randn(n, p))], 1, ref=torch.mm))
    cs.append(
        error(
            Case("mm", "inner 5 vs 4", [arg_tensor(randn(3, 5)), arg_tensor(randn(4, 2))], 1),
            TP_ERR_KERNEL_ARGS,
            [((3, 2), f32)],
        )
    )
    for name, (b, m, n, p) in [
        ("2x3x5 @ 2x5x4", (2, 3, 5, 4)),
        ("3x1x6 @ 3x6x2", (3, 1, 6, 2)),
        ("1x4x4 @ 1x4x4", (1, 4, 4, 4)),
    ]:
        cs.append(Case("bmm", name, [arg_tensor(randn(b, m, n)), arg_tensor(randn(b, n, p))], 1, ref=torch.bmm))
    cs.append(
        error(
            Case("bmm", "batch 2 vs 3", [arg_tensor(randn(2, 3, 5)), arg_tensor(randn(3, 5, 4))], 1),
            TP_ERR_KERNEL_ARGS,
            [((2, 3, 4), f32)],
        )
    )

    # convolution
    cs += [
        conv_case("3x3 bias", randn(1, 3, 5, 6), randn(3, 3, 3, 3), randn(3), [1, 1], [0, 0], [1, 1], 1),
        conv_case("batch 2 stride 2 pad 1", randn(2, 2, 7, 6), randn(3, 2, 3, 3), randn(3), [2, 2], [1, 1], [1, 1], 1),
        conv_case("dilation 2 pad 2 no bias", randn(1, 2, 7, 6), randn(2, 2, 3, 3), None, [1, 1], [2, 2], [2, 2], 1),
        conv_case("groups 2", randn(1, 4, 4, 5), randn(4, 2, 3, 3), randn(4), [1, 1], [1, 1], [1, 1], 2),
        conv_case(
            "depthwise stride 2 batch 2", randn(2, 3, 5, 6), randn(3, 1, 3, 3), randn(3), [2, 2], [1, 1], [1, 1], 3
        ),
        conv_case("depthwise multiplier 2", randn(1, 3, 5, 4), randn(6, 1, 3, 3), randn(6), [1, 1], [1, 1], [1, 1], 3),
        conv_case(
            "asymmetric k2x3 s1x2 p1x0 d2x1", randn(1, 2, 7, 9), randn(3, 2, 2, 3), randn(3), [1, 2], [1, 0], [2, 1], 1
        ),
        conv_case("single-item lists", randn(1, 2, 6, 6), randn(2, 2, 3, 3), randn(2), [2], [1], [1], 1),
        conv_case("1x1", randn(1, 8, 3, 3), randn(5, 8, 1, 1), randn(5), [1, 1], [0, 0], [1, 1], 1),
        conv_case("padding beyond kernel", randn(1, 1, 3, 3), randn(2, 1, 2, 2), randn(2), [1, 1], [2, 2], [1, 1], 1),
        conv_case("1-D stride 2 pad 1", randn(2, 3, 10), randn(4, 3, 3), randn(4), [2], [1], [1], 1),
        conv_case("1-D depthwise dilation 2", randn(1, 4, 9), randn(4, 1, 3), None, [1], [2], [2], 4),
    ]
    bad = conv_case("transposed", randn(1, 2, 4, 4), randn(2, 3, 3, 3), None, [1, 1], [0, 0], [1, 1], 1)
    bad.args[6] = arg_bool(True)
    cs.append(error(bad, TP_ERR_KERNEL_ARGS, [((1, 3, 6, 6), f32)]))
    cs.append(
        error(
            conv_case("groups 3 vs 4 channels", randn(1, 4, 5, 5), randn(3, 1, 3, 3), None, [1, 1], [0, 0], [1, 1], 3),
            TP_ERR_KERNEL_ARGS,
            [((1, 3, 3, 3), f32)],
        )
    )
    cs.append(
        error(
            conv_case("bias length 3 vs 4", randn(1, 2, 5, 5), randn(4, 2, 3, 3), randn(3), [1, 1], [0, 0], [1, 1], 1),
            TP_ERR_KERNEL_ARGS,
            [((1, 4, 3, 3), f32)],
        )
    )
    cs.append(
        error(
            conv_case(
                "kernel larger than input", randn(1, 1, 2, 2), randn(1, 1, 3, 3), None, [1, 1], [0, 0], [1, 1], 1
            ),
            TP_ERR_KERNEL_ARGS,
            [((1, 1, 1, 1), f32)],
        )
    )

    # max_pool2d_with_indices
    cs += [
        maxpool_case("k2 s2", randn(1, 2, 6, 6), [2, 2], [2, 2], [0, 0], [1, 1], False),
        maxpool_case("k3 s2 p1 batch 2", randn(2, 2, 5, 5), [3, 3], [2, 2], [1, 1], [1, 1], False),
        maxpool_case("k3 s2 ceil_mode", randn(1, 1, 8, 8), [3, 3], [2, 2], [0, 0], [1, 1], True),
        maxpool_case("k3 s2 p1 ceil_mode odd", randn(1, 2, 6, 9), [3, 3], [2, 2], [1, 1], [1, 1], True),
        maxpool_case("k2 s2 p1 ceil_mode drops last window", randn(1, 1, 5, 5), [2, 2], [2, 2], [1, 1], [1, 1], True),
        maxpool_case("dilation 2 pad 1", randn(1, 1, 8, 7), [3, 3], [1, 1], [1, 1], [2, 2], False),
        maxpool_case("3-D input, empty stride", randn(3, 5, 5), [2], [], [0], [1], False),
        maxpool_case("k2x3 s1x2 p1x1 d1x2 ceil", randn(1, 2, 5, 7), [2, 3], [1, 2], [1, 1], [1, 2], True),
        maxpool_case(
            "ties keep the first index",
            torch.randint(0, 3, (1, 2, 5, 6), generator=GEN).to(torch.float32),
            [3, 3],
            [2, 2],
            [1, 1],
            [1, 1],
            True,
        ),
        maxpool_case("all negative, padding", randn(1, 1, 4, 4, offset=-5.0), [3, 3], [1, 1], [1, 1], [1, 1], False),
        maxpool_case(
            "separate returns", randn(1, 2, 4, 4), [2, 2], [2, 2], [0, 0], [1, 1], False, separate_returns=True
        ),
    ]
    cs.append(
        error(
            maxpool_case("padding 2 > k/2", randn(1, 1, 6, 6), [3, 3], [1, 1], [2, 2], [1, 1], False),
            TP_ERR_KERNEL_ARGS,
            [((1, 1, 8, 8), f32), ((1, 1, 8, 8), i64)],
        )
    )

    # avg_pool2d
    cs += [
        avgpool_case("k2 s2", randn(1, 2, 6, 6), [2, 2], [2, 2], [0, 0], False, True),
        avgpool_case("k3 s2 p1 include pad batch 2", randn(2, 2, 5, 5), [3, 3], [2, 2], [1, 1], False, True),
        avgpool_case("k3 s2 p1 exclude pad", randn(2, 2, 5, 5), [3, 3], [2, 2], [1, 1], False, False),
        avgpool_case("ceil_mode include pad", randn(1, 1, 8, 8), [3, 3], [2, 2], [1, 1], True, True),
        avgpool_case("ceil_mode exclude pad", randn(1, 1, 8, 8), [3, 3], [2, 2], [1, 1], True, False),
        avgpool_case("k2 s2 p1 ceil_mode drops last window", randn(1, 1, 5, 5), [2, 2], [2, 2], [1, 1], True, True),
        avgpool_case("ceil_mode no pad", randn(1, 1, 6, 7), [2, 2], [2, 2], [0, 0], True, True),
        avgpool_case("divisor_override 3", randn(1, 1, 5, 5), [2, 2], [1, 1], [1, 1], False, True, divisor=3),
        avgpool_case("3-D input, empty stride", randn(3, 6, 4), [2], [], [0], False, True),
        avgpool_case("k3x2 s2x1 p1x0", randn(1, 2, 7, 5), [3, 2], [2, 1], [1, 0], False, False),
    ]
    cs.append(
        error(
            avgpool_case("divisor_override 0", randn(1, 1, 4, 4), [2, 2], [2, 2], [0, 0], False, True, divisor=0),
            TP_ERR_KERNEL_ARGS,
            [((1, 1, 2, 2), f32)],
        )
    )
    cs.append(
        error(
            avgpool_case("padding 2 > k/2", randn(1, 1, 4, 4), [2, 2], [2, 2], [2, 2], False, True),
            TP_ERR_KERNEL_ARGS,
            [((1, 1, 4, 4), f32)],
        )
    )

    # _adaptive_avg_pool2d
    cs += [
        adaptive_case("8x8 -> 2x3", randn(1, 1, 8, 8), [2, 3]),
        adaptive_case("7x5 -> 3x4 batch 2", randn(2, 1, 7, 5), [3, 4]),
        adaptive_case("3-D global 5x5 -> 1x1", randn(3, 5, 5), [1, 1]),
        adaptive_case("upsample 2x3 -> 4x5", randn(1, 1, 2, 3), [4, 5]),
    ]
    cs.append(
        error(adaptive_case("output_size of 1 item", randn(1, 1, 4, 4), [2]), TP_ERR_KERNEL_ARGS, [((1, 1, 2, 2), f32)])
    )

    # native_layer_norm
    cs += [
        layernorm_case("[4, 5] over [5]", randn(4, 5), [5], randn(5), randn(5), 1e-5),
        layernorm_case("[2, 3, 4] over [3, 4]", randn(2, 3, 4, offset=0.5), [3, 4], randn(3, 4), randn(3, 4), 1e-5),
        layernorm_case("no weight no bias", randn(3, 6), [6], None, None, 1e-5),
        layernorm_case("weight only eps 1e-3", randn(2, 2, 7, scale=2.0), [7], randn(7), None, 1e-3),
        layernorm_case("bias only, whole tensor", randn(3, 5), [3, 5], None, randn(3, 5), 1e-5),
        layernorm_case("separate returns", randn(2, 8), [8], randn(8), randn(8), 1e-5, separate_returns=True),
    ]
    cs.append(
        error(
            layernorm_case("normalized_shape [4] vs [5]", randn(3, 5), [4], None, None, 1e-5),
            TP_ERR_KERNEL_ARGS,
            [((3, 5), f32), ((3, 1), f32), ((3, 1), f32)],
        )
    )
    cs.append(
        error(
            layernorm_case("weight [4] vs [5]", randn(3, 5), [5], randn(4), None, 1e-5),
            TP_ERR_KERNEL_ARGS,
            [((3, 5), f32), ((3, 1), f32), ((3, 1), f32)],
        )
    )

    # _native_batch_norm_legit_no_training
    def bn_stats(c: int) -> tuple[torch.Tensor, torch.Tensor]:
        return randn(c, scale=0.5), rand(c, lo=0.5, hi=2.0)

    mean, var = bn_stats(3)
    cs.append(batchnorm_case("[2, 3, 4, 3]", randn(2, 3, 4, 3), randn(3), randn(3), mean, var, 1e-5))
    mean, var = bn_stats(4)
    cs.append(batchnorm_case("no weight no bias", randn(1, 4, 3, 3), None, None, mean, var, 1e-5))
    mean, var = bn_stats(5)
    cs.append(batchnorm_case("2-D [3, 5] eps 1e-3", randn(3, 5), randn(5), randn(5), mean, var, 1e-3))
    mean, var = bn_stats(3)
    cs.append(batchnorm_case("3-D [2, 3, 7]", randn(2, 3, 7), randn(3), None, mean, var, 1e-5))
    mean, var = bn_stats(2)
    cs.append(
        batchnorm_case(
            "separate returns", randn(1, 2, 2, 2), randn(2), randn(2), mean, var, 1e-5, separate_returns=True
        )
    )
    mean, var = bn_stats(3)
    cs.append(
        error(
            batchnorm_case("running_mean length 3 vs 4", randn(1, 4, 2, 2), None, None, mean, var, 1e-5),
            TP_ERR_KERNEL_ARGS,
            [((1, 4, 2, 2), f32), ((0,), f32), ((0,), f32)],
        )
    )
    return cs


# --- C emission ---------------------------------------------------------------------------
def c_float(x: float) -> str:
    if math.isnan(x):
        return "NAN"
    if math.isinf(x):
        return "INFINITY" if x > 0 else "-INFINITY"
    s = f"{x:.9g}"
    for digits in range(1, 10):  # the shortest decimal that reads back as the same float32
        t = f"{x:.{digits}g}"
        if struct.unpack("f", struct.pack("f", float(t)))[0] == x:
            s = t
            break
    if "e" not in s and "." not in s:
        s += ".0"
    return s + "f"


class Emitter:
    def __init__(self) -> None:
        self.decls: list[str] = []
        self.tensors: list[str] = []
        self.args: list[str] = []
        self.case_rows: list[str] = []
        self.n = 0
        self.cache: dict[tuple[str, str], str] = {}

    def array(self, ctype: str, values: Sequence[float], fmt: Callable[[float], str]) -> str:
        body = ", ".join(fmt(v) for v in values) if values else "0"
        key = (ctype, body)
        if key in self.cache:  # identical sizes, lists and values share one array
            return self.cache[key]
        name = f"kb_a{self.n:d}"
        self.n += 1
        self.cache[key] = name
        initializer = wrap_initializer(body)
        self.decls.append(f"static const {ctype} {name}[] = {{{initializer}}};")
        return name

    def tensor(self, shape_in: Sequence[int], dtype: torch.dtype, data: torch.Tensor | None) -> int:
        shape = list(shape_in)
        sizes = self.array("int32_t", shape, str) if shape else "NULL"
        numel = 1
        for s in shape:
            numel *= s
        if data is None:
            ptr = "NULL"
        elif dtype == torch.float32:
            ptr = self.array("float", data.reshape(-1).tolist(), c_float)
        else:
            ptr = self.array(CTYPE[dtype], data.reshape(-1).tolist(), str)
        self.tensors.append(f"  {{{DTYPE[dtype]:d}, {len(shape):d}, {sizes}, {numel:d}, {ptr}}},")
        return len(self.tensors) - 1

    def arg(self, kind: str, tensor: int = -1, i: int = 0, d: float = 0.0, lst: str = "NULL", n: int = 0) -> None:
        self.args.append(f"{{{kind},{tensor:d},{i:d},{d!r},{lst},{n:d}}}")

    def case(self, c: Case) -> None:
        first = len(self.args)
        for arg in c.args:
            match arg:
                case ("in", torch.Tensor() as t):
                    self.arg("KB_IN", tensor=self.tensor(t.shape, t.dtype, t))
                case ("none", _):
                    self.arg("KB_NONE")
                case ("int", int(i)):
                    self.arg("KB_INT", i=i)
                case ("double", float(d)):
                    self.arg("KB_DOUBLE", d=d)
                case ("bool", bool(b)):
                    self.arg("KB_BOOL", i=int(b))
                case ("ilist", list(ints)):
                    self.arg("KB_INT_LIST", lst=self.array("int64_t", ints, str) if ints else "NULL", n=len(ints))
                case _:
                    raise TypeError(f"{c.op} {c.name}: bad argument {arg!r}")
        out_pos: list[int] = []
        if c.status == TP_OK:
            if c.expected is None:
                raise ValueError(f"{c.op} {c.name}: no expected values")
            for o in c.expected:
                out_pos.append(len(self.args) - first)
                self.arg("KB_OUT", tensor=self.tensor(o.shape, o.dtype, o))
        else:
            if c.out_specs is None:
                raise ValueError(f"{c.op} {c.name}: an error case needs out_specs")
            for shape, dtype in c.out_specs:
                out_pos.append(len(self.args) - first)
                self.arg("KB_OUT", tensor=self.tensor(shape, dtype, None))
        if len(out_pos) == 1:
            self.arg("KB_RET", i=out_pos[0])
        elif c.separate_returns:
            for p in out_pos:
                self.arg("KB_RET", i=p)
        else:
            self.arg("KB_RET_LIST", lst=self.array("int64_t", out_pos, str), n=len(out_pos))
        name = c.name.replace("\\", "\\\\").replace('"', '\\"')
        self.case_rows.append(f'  {{"{c.op}", "{name}", {first:d}, {len(self.args) - first:d}, {c.status:d}}},')


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference", choices=["torch", "executorch"], default="torch")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels_b_cases.h"))
    opts = ap.parse_args()

    em = Emitter()
    for c in cases():
        if c.status == TP_OK:
            c.expected = torch_reference(c) if opts.reference == "torch" else executorch_reference(c)
            if len(c.expected) != c.n_out:
                sys.exit(f"{c.op} {c.name}: {len(c.expected):d} outputs, expected {c.n_out:d}")
        em.case(c)

    with open(opts.out, "w") as f:
        f.write(f"/* Generated by gen_kernels_b_cases.py (reference: {opts.reference}); do not edit.\n")
        f.write(" * Test cases for kernels_b_test.c; the types are defined there. */\n")
        f.write("/* clang-format off */\n\n")
        f.write("\n".join(em.decls) + "\n\n")
        tensor_rows = "\n".join(em.tensors)
        arg_rows = ",\n  ".join(",".join(em.args[i : i + 4]) for i in range(0, len(em.args), 4))
        case_rows = "\n".join(em.case_rows)
        f.write(f"static const kb_tensor kb_tensors[] = {{\n{tensor_rows}\n}};\n\n")
        f.write(f"static const kb_arg kb_args[] = {{\n  {arg_rows}\n}};\n\n")
        f.write(f"static const kb_case kb_cases[] = {{\n{case_rows}\n}};\n")
    print(f"wrote {opts.out}: {len(em.case_rows):d} cases")


if __name__ == "__main__":
    main()
