"""Kernel test cases: the NN kernels (float32 only).

addmm, mm, bmm, linear, convolution, max_pool2d_with_indices, avg_pool2d, _adaptive_avg_pool2d,
native_layer_norm and _native_batch_norm_legit_no_training. Expected values come from PyTorch,
computed in float64 and rounded to float32 (the exact result); inputs have 3 decimals, which are
still not exact binary fractions, so the kernels' sums round and their order matters: the
absolute tolerance is 1e-6 here.
"""

from __future__ import annotations

import torch
from kernel_case import ARGS, ArgValue, Case, CaseList, OutSpec, Rng, collect, f32, i64

A = ARGS
Args = dict[str, ArgValue]

FLOAT64_OPS = (
    "addmm.out",
    "mm.out",
    "bmm.out",
    "linear.out",
    "convolution.out",
    "max_pool2d_with_indices.out",
    "avg_pool2d.out",
    "_adaptive_avg_pool2d.out",
    "native_layer_norm.out",
    "_native_batch_norm_legit_no_training.out",
)


def cases(rng: Rng) -> list[Case]:
    """The cases, drawing their random inputs from `rng` in a fixed order."""
    return collect(
        rng,
        matmuls,
        linears,
        convolutions,
        max_pools,
        avg_pools,
        adaptive_pools,
        layer_norms,
        batch_norms,
        f64_ops=FLOAT64_OPS,
        atol=1e-6,
    )


def addmm_args(
    rng: Rng, self_shape: tuple[int, ...], m: int, n: int, p: int, beta: int | float = 1, alpha: int | float = 1
) -> Args:
    """self + mat1 [m, n] @ mat2 [n, p]."""
    return {
        "self": rng.randn_milli(*self_shape),
        "mat1": rng.randn_milli(m, n),
        "mat2": rng.randn_milli(n, p),
        "beta": beta,
        "alpha": alpha,
    }


def matmuls(cs: CaseList, rng: Rng) -> None:
    """addmm (1-D bias as in linear, 2-D self, broadcast rows/cols/scalar, Int and Double
    alpha/beta), mm and bmm."""
    cs.ok("addmm.out", "linear 1-D bias 3x5 @ 5x4", addmm_args(rng, (4,), 3, 5, 4))
    cs.ok("addmm.out", "sine layer 1x1 @ 1x16 + [16]", addmm_args(rng, (16,), 1, 1, 16))
    cs.ok("addmm.out", "odd 5x11 @ 11x7 + [7]", addmm_args(rng, (7,), 5, 11, 7))
    cs.ok("addmm.out", "2-D self, beta 0.5 alpha 2.0", addmm_args(rng, (3, 4), 3, 5, 4, beta=0.5, alpha=2.0))
    cs.ok("addmm.out", "self [1, 4], int beta 2 alpha 3", addmm_args(rng, (1, 4), 3, 5, 4, beta=2, alpha=3))
    cs.ok("addmm.out", "self [3, 1]", addmm_args(rng, (3, 1), 3, 2, 4))
    cs.ok("addmm.out", "0-d self, beta 0", addmm_args(rng, (), 2, 3, 5, beta=0))
    cs.ok("addmm.out", "self [1]", addmm_args(rng, (1,), 2, 6, 3, alpha=-1.5))
    # m past the 16 bits a call keeps (each run reads the sizes from the tensors); small
    # integer values keep the case's C initializers short.
    wide = {
        "self": torch.tensor([0.5]),
        "mat1": rng.randint(65537, 1, lo=-3, hi=4).to(f32),
        "mat2": torch.tensor([[2.0]]),
    }
    cs.ok("addmm.out", "m 65537 (sizes read each run)", {**wide, "beta": 1, "alpha": 1})
    cs.err("addmm.out", "self rows 2 vs m 3", A, ((3, 4), f32), addmm_args(rng, (2, 4), 3, 5, 4))
    bad = addmm_args(rng, (4,), 3, 5, 4)
    bad["mat2"] = rng.randn_milli(4, 4)
    cs.err("addmm.out", "mat2 rows 4 vs mat1 cols 5", A, ((3, 4), f32), bad)

    for label, (m, n, p) in [("3x5 @ 5x4", (3, 5, 4)), ("1x7 @ 7x1", (1, 7, 1)), ("5x7 @ 7x6", (5, 7, 6))]:
        cs.ok("mm.out", label, self=rng.randn_milli(m, n), mat2=rng.randn_milli(n, p))
    cs.err("mm.out", "inner 5 vs 4", A, ((3, 2), f32), self=rng.randn_milli(3, 5), mat2=rng.randn_milli(4, 2))
    for label, (b, m, n, p) in [
        ("2x3x5 @ 2x5x4", (2, 3, 5, 4)),
        ("3x1x6 @ 3x6x2", (3, 1, 6, 2)),
        ("1x4x4 @ 1x4x4", (1, 4, 4, 4)),
    ]:
        cs.ok("bmm.out", label, self=rng.randn_milli(b, m, n), mat2=rng.randn_milli(b, n, p))
    batches = {"self": rng.randn_milli(2, 3, 5), "mat2": rng.randn_milli(3, 5, 4)}
    cs.err("bmm.out", "batch 2 vs 3", A, ((2, 3, 4), f32), batches)


def conv_args(
    x: torch.Tensor,
    w: torch.Tensor,
    bias: torch.Tensor | None,
    stride: list[int],
    padding: list[int],
    dilation: list[int],
    groups: int,
) -> Args:
    """A convolution (not transposed)."""
    return {
        "input": x,
        "weight": w,
        "bias": bias,
        "stride": stride,
        "padding": padding,
        "dilation": dilation,
        "transposed": False,
        "output_padding": [0] * len(stride),
        "groups": groups,
    }


def convolutions(cs: CaseList, rng: Rng) -> None:
    """1-D and 2-D convolutions: stride, padding, dilation, groups, depthwise, no bias."""
    r = rng.randn_milli
    op = "convolution.out"
    cs.ok(op, "3x3 bias", conv_args(r(1, 3, 5, 6), r(3, 3, 3, 3), r(3), [1, 1], [0, 0], [1, 1], 1))
    cs.ok(op, "batch 2 stride 2 pad 1", conv_args(r(2, 2, 7, 6), r(3, 2, 3, 3), r(3), [2, 2], [1, 1], [1, 1], 1))
    cs.ok(op, "dilation 2 pad 2 no bias", conv_args(r(1, 2, 7, 6), r(2, 2, 3, 3), None, [1, 1], [2, 2], [2, 2], 1))
    cs.ok(op, "groups 2", conv_args(r(1, 4, 4, 5), r(4, 2, 3, 3), r(4), [1, 1], [1, 1], [1, 1], 2))
    cs.ok(op, "depthwise stride 2 batch 2", conv_args(r(2, 3, 5, 6), r(3, 1, 3, 3), r(3), [2, 2], [1, 1], [1, 1], 3))
    # wide enough for interior rows of four-output blocks plus a tail (convolution.c interior3x3_s2)
    cs.ok(op, "stride 2 pad 1 wide", conv_args(r(1, 2, 9, 23), r(5, 2, 3, 3), r(5), [2, 2], [1, 1], [1, 1], 1))
    cs.ok(op, "depthwise stride 2 wide", conv_args(r(1, 3, 8, 20), r(3, 1, 3, 3), None, [2, 2], [0, 0], [1, 1], 3))
    cs.ok(op, "depthwise multiplier 2", conv_args(r(1, 3, 5, 4), r(6, 1, 3, 3), r(6), [1, 1], [1, 1], [1, 1], 3))
    cs.ok(
        op,
        "asymmetric k2x3 s1x2 p1x0 d2x1",
        conv_args(r(1, 2, 7, 9), r(3, 2, 2, 3), r(3), [1, 2], [1, 0], [2, 1], 1),
    )
    cs.ok(op, "single-item lists", conv_args(r(1, 2, 6, 6), r(2, 2, 3, 3), r(2), [2], [1], [1], 1))
    cs.ok(op, "1x1", conv_args(r(1, 8, 3, 3), r(5, 8, 1, 1), r(5), [1, 1], [0, 0], [1, 1], 1))
    cs.ok(op, "padding beyond kernel", conv_args(r(1, 1, 3, 3), r(2, 1, 2, 2), r(2), [1, 1], [2, 2], [1, 1], 1))
    cs.ok(op, "1-D stride 2 pad 1", conv_args(r(2, 3, 10), r(4, 3, 3), r(4), [2], [1], [1], 1))
    cs.ok(op, "1-D depthwise dilation 2", conv_args(r(1, 4, 9), r(4, 1, 3), None, [1], [2], [2], 4))
    transposed = conv_args(r(1, 2, 4, 4), r(2, 3, 3, 3), None, [1, 1], [0, 0], [1, 1], 1)
    transposed["transposed"] = True
    cs.ok(op, "transposed", transposed)
    grouped = conv_args(r(2, 4, 3, 5), r(4, 3, 2, 3), r(6), [2, 3], [1, 0], [1, 2], 2)
    grouped.update(transposed=True, output_padding=[1, 0])
    cs.ok(op, "transposed groups 2 stride 2x3 output_padding", grouped)
    cs.ok(
        op,
        "3-D stride 2 pad 1",
        conv_args(r(1, 2, 4, 5, 3), r(3, 2, 3, 3, 2), r(3), [2, 2, 1], [1, 1, 0], [1, 1, 1], 1),
    )
    groups = conv_args(r(1, 4, 5, 5), r(3, 1, 3, 3), None, [1, 1], [0, 0], [1, 1], 3)
    cs.err(op, "groups 3 vs 4 channels", A, ((1, 3, 3, 3), f32), groups)
    bias = conv_args(r(1, 2, 5, 5), r(4, 2, 3, 3), r(3), [1, 1], [0, 0], [1, 1], 1)
    cs.err(op, "bias length 3 vs 4", A, ((1, 4, 3, 3), f32), bias)
    large = conv_args(r(1, 1, 2, 2), r(1, 1, 3, 3), None, [1, 1], [0, 0], [1, 1], 1)
    cs.err(op, "kernel larger than input", A, ((1, 1, 1, 1), f32), large)


def linears(cs: CaseList, rng: Rng) -> None:
    """linear (ExecuTorch's optimized kernel; the Cortex-M backend's float fallbacks emit it)."""
    r = rng.randn_milli
    op = "linear.out"
    cs.ok(op, "bias", input=r(4, 5), weight=r(3, 5), bias=r(3))
    cs.ok(op, "no bias 3-D input", input=r(2, 3, 7), weight=r(6, 7), bias=None)
    cs.ok(op, "1-D input", input=r(9), weight=r(2, 9), bias=r(2))
    cs.err(op, "in features 5 vs 4", A, ((4, 3), f32), input=r(4, 5), weight=r(3, 4), bias=r(3))
    cs.err(op, "bias length 2 vs 3", A, ((4, 3), f32), input=r(4, 5), weight=r(3, 5), bias=r(2))


def pool_args(x: torch.Tensor, k: list[int], s: list[int], p: list[int], d: list[int], ceil: bool) -> Args:
    """max_pool2d_with_indices' arguments."""
    return {"self": x, "kernel_size": k, "stride": s, "padding": p, "dilation": d, "ceil_mode": ceil}


def max_pools(cs: CaseList, rng: Rng) -> None:
    """max_pool2d_with_indices: padding, ceil_mode, dilation, 3-D input, ties, separate returns."""
    r = rng.randn_milli

    def ok(label: str, args: Args, separate_returns: bool = False) -> None:
        cs.ok(op, label, args, out_dtype=(f32, i64), separate_returns=separate_returns)

    op = "max_pool2d_with_indices.out"
    ok("k2 s2", pool_args(r(1, 2, 6, 6), [2, 2], [2, 2], [0, 0], [1, 1], False))
    ok("k3 s2 p1 batch 2", pool_args(r(2, 2, 5, 5), [3, 3], [2, 2], [1, 1], [1, 1], False))
    ok("k3 s2 ceil_mode", pool_args(r(1, 1, 8, 8), [3, 3], [2, 2], [0, 0], [1, 1], True))
    ok("k3 s2 p1 ceil_mode odd", pool_args(r(1, 2, 6, 9), [3, 3], [2, 2], [1, 1], [1, 1], True))
    ok("k2 s2 p1 ceil_mode drops last window", pool_args(r(1, 1, 5, 5), [2, 2], [2, 2], [1, 1], [1, 1], True))
    ok("dilation 2 pad 1", pool_args(r(1, 1, 8, 7), [3, 3], [1, 1], [1, 1], [2, 2], False))
    ok("3-D input, empty stride", pool_args(r(3, 5, 5), [2], [], [0], [1], False))
    ok("k2x3 s1x2 p1x1 d1x2 ceil", pool_args(r(1, 2, 5, 7), [2, 3], [1, 2], [1, 1], [1, 2], True))
    ties = rng.randint(1, 2, 5, 6, lo=0, hi=3, dtype=f32)
    ok("ties keep the first index", pool_args(ties, [3, 3], [2, 2], [1, 1], [1, 1], True))
    ok("all negative, padding", pool_args(r(1, 1, 4, 4, offset=-5.0), [3, 3], [1, 1], [1, 1], [1, 1], False))
    ok("separate returns", pool_args(r(1, 2, 4, 4), [2, 2], [2, 2], [0, 0], [1, 1], False), separate_returns=True)
    for dtype in (torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64):
        ints = rng.randint(1, 2, 5, 6, lo=-100 if dtype != torch.uint8 else 0, hi=100, dtype=dtype)
        cs.ok(
            op, f"{dtype} k3 s2 p1 ceil", pool_args(ints, [3, 3], [2, 2], [1, 1], [1, 1], True), out_dtype=(dtype, i64)
        )
    wide_pad = pool_args(r(1, 1, 6, 6), [3, 3], [1, 1], [2, 2], [1, 1], False)
    cs.err(op, "padding 2 > k/2", A, [((1, 1, 8, 8), f32), ((1, 1, 8, 8), i64)], wide_pad)


def avg_pool_args(
    x: torch.Tensor,
    k: list[int],
    s: list[int],
    p: list[int],
    ceil: bool,
    include_pad: bool,
    divisor: int | None = None,
) -> Args:
    """avg_pool2d's arguments."""
    return {
        "self": x,
        "kernel_size": k,
        "stride": s,
        "padding": p,
        "ceil_mode": ceil,
        "count_include_pad": include_pad,
        "divisor_override": divisor,
    }


def avg_pools(cs: CaseList, rng: Rng) -> None:
    """avg_pool2d: padding counted or not, ceil_mode, divisor_override, 3-D input."""
    r = rng.randn_milli
    op = "avg_pool2d.out"
    cs.ok(op, "k2 s2", avg_pool_args(r(1, 2, 6, 6), [2, 2], [2, 2], [0, 0], False, True))
    cs.ok(op, "k3 s2 p1 include pad batch 2", avg_pool_args(r(2, 2, 5, 5), [3, 3], [2, 2], [1, 1], False, True))
    cs.ok(op, "k3 s2 p1 exclude pad", avg_pool_args(r(2, 2, 5, 5), [3, 3], [2, 2], [1, 1], False, False))
    cs.ok(op, "ceil_mode include pad", avg_pool_args(r(1, 1, 8, 8), [3, 3], [2, 2], [1, 1], True, True))
    cs.ok(op, "ceil_mode exclude pad", avg_pool_args(r(1, 1, 8, 8), [3, 3], [2, 2], [1, 1], True, False))
    cs.ok(
        op,
        "k2 s2 p1 ceil_mode drops last window",
        avg_pool_args(r(1, 1, 5, 5), [2, 2], [2, 2], [1, 1], True, True),
    )
    cs.ok(op, "ceil_mode no pad", avg_pool_args(r(1, 1, 6, 7), [2, 2], [2, 2], [0, 0], True, True))
    cs.ok(op, "divisor_override 3", avg_pool_args(r(1, 1, 5, 5), [2, 2], [1, 1], [1, 1], False, True, divisor=3))
    cs.ok(op, "3-D input, empty stride", avg_pool_args(r(3, 6, 4), [2], [], [0], False, True))
    cs.ok(op, "k3x2 s2x1 p1x0", avg_pool_args(r(1, 2, 7, 5), [3, 2], [2, 1], [1, 0], False, False))
    zero = avg_pool_args(r(1, 1, 4, 4), [2, 2], [2, 2], [0, 0], False, True, divisor=0)
    cs.err(op, "divisor_override 0", A, ((1, 1, 2, 2), f32), zero)
    wide_pad = avg_pool_args(r(1, 1, 4, 4), [2, 2], [2, 2], [2, 2], False, True)
    cs.err(op, "padding 2 > k/2", A, ((1, 1, 4, 4), f32), wide_pad)


def adaptive_pools(cs: CaseList, rng: Rng) -> None:
    """_adaptive_avg_pool2d: down, global and up."""
    r = rng.randn_milli
    op = "_adaptive_avg_pool2d.out"
    cs.ok(op, "8x8 -> 2x3", self=r(1, 1, 8, 8), output_size=[2, 3])
    cs.ok(op, "7x5 -> 3x4 batch 2", self=r(2, 1, 7, 5), output_size=[3, 4])
    cs.ok(op, "3-D global 5x5 -> 1x1", self=r(3, 5, 5), output_size=[1, 1])
    cs.ok(op, "upsample 2x3 -> 4x5", self=r(1, 1, 2, 3), output_size=[4, 5])
    cs.err(op, "output_size of 1 item", A, ((1, 1, 2, 2), f32), self=r(1, 1, 4, 4), output_size=[2])


def layer_norm_args(
    x: torch.Tensor, shape: list[int], weight: torch.Tensor | None, bias: torch.Tensor | None, eps: float
) -> Args:
    """native_layer_norm's arguments."""
    return {"input": x, "normalized_shape": shape, "weight": weight, "bias": bias, "eps": eps}


def layer_norms(cs: CaseList, rng: Rng) -> None:
    """native_layer_norm over the last dims, with and without weight and bias."""
    r = rng.randn_milli
    op = "native_layer_norm.out"
    cs.ok(op, "[4, 5] over [5]", layer_norm_args(r(4, 5), [5], r(5), r(5), 1e-5))
    cs.ok(op, "[2, 3, 4] over [3, 4]", layer_norm_args(r(2, 3, 4, offset=0.5), [3, 4], r(3, 4), r(3, 4), 1e-5))
    cs.ok(op, "no weight no bias", layer_norm_args(r(3, 6), [6], None, None, 1e-5))
    cs.ok(op, "weight only eps 1e-3", layer_norm_args(r(2, 2, 7, scale=2.0), [7], r(7), None, 1e-3))
    cs.ok(op, "bias only, whole tensor", layer_norm_args(r(3, 5), [3, 5], None, r(3, 5), 1e-5))
    cs.ok(op, "separate returns", layer_norm_args(r(2, 8), [8], r(8), r(8), 1e-5), separate_returns=True)
    outs: list[OutSpec] = [((3, 5), f32), ((3, 1), f32), ((3, 1), f32)]
    cs.err(op, "normalized_shape [4] vs [5]", A, outs, layer_norm_args(r(3, 5), [4], None, None, 1e-5))
    cs.err(op, "weight [4] vs [5]", A, outs, layer_norm_args(r(3, 5), [5], r(4), None, 1e-5))


def batch_norm_args(
    x: torch.Tensor,
    weight: torch.Tensor | None,
    bias: torch.Tensor | None,
    stats: tuple[torch.Tensor, torch.Tensor],
    eps: float,
) -> Args:
    """_native_batch_norm_legit_no_training's arguments; stats: running mean and variance."""
    mean, var = stats
    return {
        "input": x,
        "weight": weight,
        "bias": bias,
        "running_mean": mean,
        "running_var": var,
        "momentum": 0.1,
        "eps": eps,
    }


def batch_norms(cs: CaseList, rng: Rng) -> None:
    """_native_batch_norm_legit_no_training on 2-D, 3-D and 4-D inputs."""
    r = rng.randn_milli

    def stats(channels: int) -> tuple[torch.Tensor, torch.Tensor]:
        return r(channels, scale=0.5), rng.rand_milli(channels, lo=0.5, hi=2.0)

    op = "_native_batch_norm_legit_no_training.out"
    s = stats(3)
    cs.ok(op, "[2, 3, 4, 3]", batch_norm_args(r(2, 3, 4, 3), r(3), r(3), s, 1e-5))
    s = stats(4)
    cs.ok(op, "no weight no bias", batch_norm_args(r(1, 4, 3, 3), None, None, s, 1e-5))
    s = stats(5)
    cs.ok(op, "2-D [3, 5] eps 1e-3", batch_norm_args(r(3, 5), r(5), r(5), s, 1e-3))
    s = stats(3)
    cs.ok(op, "3-D [2, 3, 7]", batch_norm_args(r(2, 3, 7), r(3), None, s, 1e-5))
    s = stats(2)
    cs.ok(op, "separate returns", batch_norm_args(r(1, 2, 2, 2), r(2), r(2), s, 1e-5), separate_returns=True)
    s = stats(3)
    outs: list[OutSpec] = [((1, 4, 2, 2), f32), ((0,), f32), ((0,), f32)]
    cs.err(op, "running_mean length 3 vs 4", A, outs, batch_norm_args(r(1, 4, 2, 2), None, None, s, 1e-5))
