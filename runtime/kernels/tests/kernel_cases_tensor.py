"""Kernel test cases: copies and shape changes, padding, softmax, reductions and fills.

clone, view_copy, permute_copy, expand_copy, cat, squeeze_copy, unsqueeze_copy,
constant_pad_nd, _softmax, _log_softmax, mean, sum, argmax, full and full_like. Expected values
come from PyTorch; softmax, log_softmax and mean of floats are computed in float64 and rounded
to float32.
"""

from __future__ import annotations

import torch
from kernel_case import ARGS, DTYPE, Case, CaseList, Rng, arange, bool_, collect, f16, f32, f64, i8, i32, i64, u8

A, D = ARGS, DTYPE
INF, NAN = float("inf"), float("nan")
FLOAT64_OPS = ("_softmax.out", "_log_softmax.out", "mean.out")


def cases(rng: Rng) -> list[Case]:
    """The cases, drawing their random inputs from `rng` in a fixed order."""
    return collect(rng, copies, joins, pads, softmaxes, means, sums, argmaxes, fills, f64_ops=FLOAT64_OPS)


def copies(cs: CaseList, rng: Rng) -> None:
    """clone, view_copy, permute_copy and expand_copy, over dtypes, 0-dim and empty tensors."""
    cs.ok("clone.out", "[2,3]", self=rng.randn(2, 3))
    cs.ok("clone.out", "int64 0-dim", self=torch.tensor(-5, dtype=i64))
    cs.ok("clone.out", "bool", self=torch.tensor([True, False, True]))
    cs.ok("clone.out", "float16", self=rng.randn(2, 2).to(f16))
    cs.ok("clone.out", "contiguous_format", self=rng.randn(4), memory_format=torch.contiguous_format)
    cs.ok("clone.out", "preserve_format", self=rng.randint(2, 2), memory_format=torch.preserve_format)
    cs.ok("clone.out", "[0,2] (empty)", self=rng.randn(0, 2))
    cs.err("clone.out", "float32 -> int32", D, ((3,), i32), self=rng.randn(3))
    cs.err("clone.out", "out [3] for [1,3]", A, ((3,), f32), self=rng.randn(1, 3))

    cs.ok("view_copy.out", "[2,3,4] -> [4,-1]", self=rng.randn(2, 3, 4), size=[4, -1])
    cs.ok("view_copy.out", "[6] -> [1,2,3]", self=rng.randint(6, dtype=i64), size=[1, 2, 3])
    cs.ok("view_copy.out", "0-dim -> [1,1]", self=rng.randn(), size=[1, 1])
    cs.ok("view_copy.out", "[1,1] -> [] (0-dim)", self=rng.randn(1, 1), size=[])
    cs.ok("view_copy.out", "[0,3] -> [-1,3]", self=rng.randn(0, 3), size=[-1, 3])
    cs.ok("view_copy.out", "uint8 [2,2] -> [-1]", self=torch.tensor([[1, 2], [3, 4]], dtype=u8), size=[-1])
    cs.err("view_copy.out", "numel 6 -> [4,2]", A, ((4, 2), f32), self=rng.randn(6), size=[4, 2])
    cs.err("view_copy.out", "two -1", A, ((2, 3), f32), self=rng.randn(6), size=[-1, -1])
    cs.err("view_copy.out", "[0,3] -> [-1,0]", A, ((0, 0), f32), self=rng.randn(0, 3), size=[-1, 0])
    cs.err("view_copy.out", "6 -> [4,-1]", A, ((4, 1), f32), self=rng.randn(6), size=[4, -1])
    cs.err("view_copy.out", "out [3,2] for [2,3]", A, ((3, 2), f32), self=rng.randn(6), size=[2, 3])
    cs.err("view_copy.out", "int32 -> float32", D, ((6,), f32), self=rng.randint(6), size=[6])

    cs.ok("permute_copy.out", "[2,3,4] dims [2,0,1]", self=rng.randn(2, 3, 4), dims=[2, 0, 1])
    cs.ok("permute_copy.out", "negative dims [-1,-3,-2]", self=rng.randn(2, 3, 4), dims=[-1, -3, -2])
    cs.ok("permute_copy.out", "int64 [3,4] transpose", self=rng.randint(3, 4, dtype=i64), dims=[1, 0])
    cs.ok(
        "permute_copy.out",
        "uint8 [2,1,3,2] dims [3,1,0,2]",
        self=rng.randint(2, 1, 3, 2, lo=0, dtype=u8),
        dims=[3, 1, 0, 2],
    )
    cs.ok("permute_copy.out", "identity [2,2]", self=rng.randn(2, 2), dims=[0, 1])
    cs.ok("permute_copy.out", "0-dim, dims []", self=rng.randn(), dims=[])
    cs.ok(
        "permute_copy.out",
        "bool [2,3] transpose",
        self=torch.tensor([[True, False, False], [False, True, True]]),
        dims=[1, 0],
    )
    cs.err("permute_copy.out", "repeated dim", A, ((2, 2), f32), self=rng.randn(2, 2), dims=[0, 0])
    cs.err("permute_copy.out", "too few dims", A, ((2, 3), f32), self=rng.randn(2, 3, 1), dims=[0, 1])
    cs.err("permute_copy.out", "dim out of range", A, ((3, 2), f32), self=rng.randn(2, 3), dims=[2, 0])
    cs.err("permute_copy.out", "out [2,3] for transpose of [2,3]", A, ((2, 3), f32), self=rng.randn(2, 3), dims=[1, 0])

    cs.ok("expand_copy.out", "[3,1] -> [3,4]", self=rng.randn(3, 1), size=[3, 4])
    cs.ok("expand_copy.out", "[3] -> [2,3]", self=rng.randn(3), size=[2, 3])
    cs.ok("expand_copy.out", "[2,1,1] -> [2,-1,5]", self=rng.randn(2, 1, 1), size=[2, -1, 5])
    cs.ok("expand_copy.out", "[1,3,1] -> [2,2,3,4] int64", self=rng.randint(1, 3, 1, dtype=i64), size=[2, 2, 3, 4])
    cs.ok("expand_copy.out", "0-dim -> [2,3]", self=rng.randn(), size=[2, 3])
    cs.ok("expand_copy.out", "[1,3] -> [0,3]", self=rng.randn(1, 3), size=[0, 3])
    cs.ok("expand_copy.out", "bool [1,2] -> [3,2]", self=torch.tensor([[True, False]]), size=[3, 2])
    cs.ok("expand_copy.out", "same shape with implicit=True", self=rng.randn(2, 2), size=[2, 2], implicit=True)
    cs.err("expand_copy.out", "[3] -> [-1,3] (leading -1)", A, ((3, 3), f32), self=rng.randn(3), size=[-1, 3])
    cs.err("expand_copy.out", "[2] -> [4]", A, ((4,), f32), self=rng.randn(2), size=[4])
    cs.err("expand_copy.out", "[2,3] -> [3]", A, ((3,), f32), self=rng.randn(2, 3), size=[3])
    cs.err("expand_copy.out", "out [3,3] for [3,1] -> [3,4]", A, ((3, 3), f32), self=rng.randn(3, 1), size=[3, 4])


def joins(cs: CaseList, rng: Rng) -> None:
    """cat, squeeze_copy (both overloads) and unsqueeze_copy."""
    cs.ok("cat.out", "dim 0 [2,3]+[1,3]", tensors=[rng.randn(2, 3), rng.randn(1, 3)], dim=0)
    cs.ok("cat.out", "dim -1 of three", tensors=[rng.randn(2, 1), rng.randn(2, 3), rng.randn(2, 2)], dim=-1)
    cs.ok("cat.out", "dim 1 of 3-D", tensors=[rng.randn(2, 1, 2), rng.randn(2, 2, 2)], dim=1)
    cs.ok("cat.out", "skips 1-D empty", tensors=[rng.randn(2, 2), torch.empty(0), rng.randn(1, 2)])
    cs.ok(
        "cat.out",
        "int64 dim 0 with an empty [0,2]",
        tensors=[rng.randint(1, 2, dtype=i64), rng.randint(0, 2, dtype=i64), rng.randint(2, 2, dtype=i64)],
        dim=0,
    )
    cs.ok("cat.out", "single tensor", tensors=[rng.randn(3)], dim=0)
    cs.ok("cat.out", "bool dim 1", tensors=[torch.tensor([[True], [False]]), torch.tensor([[False], [True]])], dim=1)
    cs.err("cat.out", "sizes differ off dim", A, ((3, 3), f32), tensors=[rng.randn(2, 3), rng.randn(1, 2)], dim=0)
    cs.err("cat.out", "dims differ", A, ((3, 3), f32), tensors=[rng.randn(2, 3), rng.randn(3)], dim=0)
    cs.err("cat.out", "dtypes differ", D, ((3, 3), f32), tensors=[rng.randn(2, 3), rng.randint(1, 3)], dim=0)
    cs.err("cat.out", "0-dim tensors", A, ((2,), f32), tensors=[rng.randn(), rng.randn()], dim=0)
    cs.err("cat.out", "dim 2 of 2-D", A, ((2, 3), f32), tensors=[rng.randn(1, 3), rng.randn(1, 3)], dim=2)
    cs.err(
        "cat.out",
        "out [3,2] for [2,2]+[1,2] wrong",
        A,
        ((2, 3), f32),
        tensors=[rng.randn(2, 2), rng.randn(1, 2)],
        dim=0,
    )

    cs.ok("squeeze_copy.dim_out", "[1,3,1] dim 0", self=rng.randn(1, 3, 1), dim=0)
    cs.ok("squeeze_copy.dim_out", "[1,3,1] dim -1", self=rng.randn(1, 3, 1), dim=-1)
    cs.ok("squeeze_copy.dim_out", "[1,3,1] dim 1 (not 1: kept)", self=rng.randn(1, 3, 1), dim=1)
    cs.ok("squeeze_copy.dim_out", "0-dim dim 0", self=rng.randn(), dim=0)
    cs.ok("squeeze_copy.dim_out", "int64 [2,1] dim 1", self=rng.randint(2, 1, dtype=i64), dim=1)
    cs.err("squeeze_copy.dim_out", "dim 3 of 3-D", A, ((1, 3, 1), f32), self=rng.randn(1, 3, 1), dim=3)
    cs.err("squeeze_copy.dim_out", "out [1,3] for dim 0", A, ((1, 3), f32), self=rng.randn(1, 3, 1), dim=0)
    cs.ok("squeeze_copy.dims_out", "[1,3,1,2] dims [0,2]", self=rng.randn(1, 3, 1, 2), dim=[0, 2])
    cs.ok("squeeze_copy.dims_out", "[1,3,1] dims [-1,1]", self=rng.randn(1, 3, 1), dim=[-1, 1])
    cs.ok("squeeze_copy.dims_out", "dims [] (nothing)", self=rng.randn(1, 2), dim=[])
    cs.ok("squeeze_copy.dims_out", "[1,1] dims [0,1] -> 0-dim", self=rng.randn(1, 1), dim=[0, 1])
    cs.ok("squeeze_copy.dims_out", "0-dim dims [-1]", self=rng.randn(), dim=[-1])
    cs.err("squeeze_copy.dims_out", "duplicate dims", A, ((3,), f32), self=rng.randn(1, 3), dim=[0, -2])
    cs.err("squeeze_copy.dims_out", "dim out of range", A, ((3,), f32), self=rng.randn(1, 3), dim=[2])
    cs.err("squeeze_copy.dims_out", "float32 -> int64", D, ((3,), i64), self=rng.randn(1, 3), dim=[0])

    cs.ok("unsqueeze_copy.out", "[2,3] dim 0", self=rng.randn(2, 3), dim=0)
    cs.ok("unsqueeze_copy.out", "[2,3] dim 2", self=rng.randn(2, 3), dim=2)
    cs.ok("unsqueeze_copy.out", "[2,3] dim -1", self=rng.randn(2, 3), dim=-1)
    cs.ok("unsqueeze_copy.out", "[2,3] dim -3", self=rng.randint(2, 3), dim=-3)
    cs.ok("unsqueeze_copy.out", "0-dim dim 0", self=rng.randn(), dim=0)
    cs.err("unsqueeze_copy.out", "dim 3 of 2-D", A, ((2, 3, 1), f32), self=rng.randn(2, 3), dim=3)
    cs.err("unsqueeze_copy.out", "dim -4 of 2-D", A, ((1, 2, 3), f32), self=rng.randn(2, 3), dim=-4)
    cs.err("unsqueeze_copy.out", "out [2,3] for dim 0", A, ((2, 3), f32), self=rng.randn(2, 3), dim=0)


def pads(cs: CaseList, rng: Rng) -> None:
    """constant_pad_nd: padding, cropping (negative pads), value conversion."""
    cs.ok("constant_pad_nd.out", "[2,3] pad (1,2) 0.5", self=rng.randn(2, 3), pad=[1, 2], value=0.5)
    cs.ok("constant_pad_nd.out", "[1,2,3,4] pad (1,1,2,0) -1", self=rng.randn(1, 2, 3, 4), pad=[1, 1, 2, 0], value=-1)
    cs.ok("constant_pad_nd.out", "[2,2] pad (0,0,1,1) default 0", self=rng.randn(2, 2), pad=[0, 0, 1, 1])
    cs.ok("constant_pad_nd.out", "int32 pad (2,1) value 7", self=rng.randint(2, 3), pad=[2, 1], value=7)
    cs.ok("constant_pad_nd.out", "int32 value 2.7 truncates", self=rng.randint(3), pad=[1, 1], value=2.7)
    cs.ok("constant_pad_nd.out", "negative pads crop (-1,2)", self=arange(2, 3), pad=[-1, 2])
    cs.ok("constant_pad_nd.out", "crop only (0,-1,-1,0)", self=arange(3, 4), pad=[0, -1, -1, 0], value=9.0)
    cs.ok("constant_pad_nd.out", "crop to empty (-3,0)", self=rng.randn(3), pad=[-3, 0])
    cs.ok("constant_pad_nd.out", "pad [] copies", self=rng.randn(2, 2), pad=[])
    cs.ok("constant_pad_nd.out", "bool pad (1,0) True", self=torch.tensor([[True, False]]), pad=[1, 0], value=True)
    cs.ok(
        "constant_pad_nd.out",
        "int64 3-D pad all dims",
        self=rng.randint(1, 2, 2, dtype=i64),
        pad=[1, 0, 0, 1, 2, 1],
        value=-4,
    )
    cs.ok("constant_pad_nd.out", "[0,2] pad (1,1,1,0)", self=rng.randn(0, 2), pad=[1, 1, 1, 0], value=3.0)
    cs.err("constant_pad_nd.out", "odd pad length", A, ((2, 4), f32), self=rng.randn(2, 3), pad=[1])
    cs.err("constant_pad_nd.out", "pad longer than 2*dim", A, ((3,), f32), self=rng.randn(1), pad=[1, 1, 0, 0])
    cs.err("constant_pad_nd.out", "crop more than the size", A, ((3,), f32), self=rng.randn(1), pad=[-2, 4])
    cs.err(
        "constant_pad_nd.out",
        "int8 value 300",
        A,
        ((4,), i8),
        self=torch.tensor([1, 2], dtype=i8),
        pad=[1, 1],
        value=300,
    )
    cs.err(
        "constant_pad_nd.out", "out [2,3] for pad (1,1) of [2,3]", A, ((2, 3), f32), self=rng.randn(2, 3), pad=[1, 1]
    )
    cs.err("constant_pad_nd.out", "float32 -> float64", D, ((2, 5), f64), self=rng.randn(2, 3), pad=[1, 1])


def softmaxes(cs: CaseList, rng: Rng) -> None:
    """_softmax and _log_softmax along each dim, with large values and -inf."""
    for op in ("_softmax.out", "_log_softmax.out"):
        cs.ok(op, "[2,5] dim 1", self=rng.randn(2, 5, scale=3), dim=1, half_to_float=False)
        cs.ok(op, "[3,4] dim 0", self=rng.randn(3, 4), dim=0, half_to_float=False)
        cs.ok(op, "[2,3,4] dim -2", self=rng.randn(2, 3, 4), dim=-2, half_to_float=False)
        cs.ok(op, "[2,3,4] dim -1 large values", self=rng.randn(2, 3, 4, scale=40), dim=-1, half_to_float=False)
        cs.ok(op, "[4,1] dim 1 (size 1)", self=rng.randn(4, 1), dim=1, half_to_float=False)
        cs.ok(op, "0-dim", self=rng.randn(), dim=0, half_to_float=False)
        cs.ok(
            op,
            "-inf entries",
            self=torch.tensor([[0.0, -INF, 1.0], [2.0, 2.0, -INF]]),
            dim=1,
            half_to_float=False,
        )
        cs.err(op, "half_to_float", A, ((2, 3), f32), self=rng.randn(2, 3), dim=1, half_to_float=True)
        cs.err(op, "dim 2 of 2-D", A, ((2, 3), f32), self=rng.randn(2, 3), dim=2, half_to_float=False)
        cs.err(op, "int32", D, ((2, 3), i32), self=rng.randint(2, 3), dim=1, half_to_float=False)
        cs.err(op, "out [3,2] for [2,3]", A, ((3, 2), f32), self=rng.randn(2, 3), dim=1, half_to_float=False)


def means(cs: CaseList, rng: Rng) -> None:
    """mean over dims, None and [], keepdim, dtype, an empty reduction."""
    cs.ok("mean.out", "[2,3,4] dim [1]", self=rng.randn(2, 3, 4), dim=[1])
    cs.ok("mean.out", "[2,3,4] dims [0,2] keepdim", self=rng.randn(2, 3, 4), dim=[0, 2], keepdim=True)
    cs.ok("mean.out", "[2,3,4] dims [-1,-2]", self=rng.randn(2, 3, 4), dim=[-1, -2])
    cs.ok("mean.out", "None: all", self=rng.randn(3, 5), dim=None)
    cs.ok("mean.out", "[]: all, keepdim", self=rng.randn(3, 5), dim=[], keepdim=True)
    cs.ok(
        "mean.out", "[1,4,3,3] dims [2,3] keepdim (global pool)", self=rng.randn(1, 4, 3, 3), dim=[2, 3], keepdim=True
    )
    cs.ok("mean.out", "dtype float32", self=rng.randn(4, 2), dim=[0], dtype=f32)
    cs.ok("mean.out", "int32 with dtype float32", out_dtype=f32, f64=False, self=rng.randint(3, 4), dim=[1], dtype=f32)
    cs.ok("mean.out", "0-dim dim [0]", self=rng.randn(), dim=[0])
    cs.ok("mean.out", "empty reduction -> NaN", self=rng.randn(0, 3), dim=[0])
    cs.ok("mean.out", "[2,1,3] dim [1]", self=rng.randn(2, 1, 3), dim=[1])
    cs.err("mean.out", "duplicate dims", A, ((2,), f32), self=rng.randn(2, 3), dim=[1, -1])
    cs.err("mean.out", "dim out of range", A, ((2,), f32), self=rng.randn(2, 3), dim=[2])
    cs.err("mean.out", "dtype int64", D, ((2,), f32), self=rng.randn(2, 3), dim=[1], dtype=i64)
    cs.err("mean.out", "int64 out", D, ((2,), i64), self=rng.randn(2, 3), dim=[1])
    cs.err("mean.out", "out [2,1] without keepdim", A, ((2, 1), f32), self=rng.randn(2, 3), dim=[1])


def sums(cs: CaseList, rng: Rng) -> None:
    """sum over dims, None, keepdim, dtype and the integer promotion to int64."""
    cs.ok("sum.IntList_out", "[2,3,4] dim [1]", self=rng.randn(2, 3, 4), dim=[1])
    cs.ok("sum.IntList_out", "[2,3,4] dims [0,2] keepdim", self=rng.randn(2, 3, 4), dim=[0, 2], keepdim=True)
    cs.ok("sum.IntList_out", "None: all", self=rng.randn(3, 5), dim=None)
    cs.ok("sum.IntList_out", "int32 -> int64 (default)", out_dtype=i64, self=rng.randint(3, 4), dim=[0])
    cs.ok("sum.IntList_out", "int32 dtype int32", self=rng.randint(3, 4), dim=[-1], dtype=i32)
    cs.ok(
        "sum.IntList_out",
        "bool -> int64",
        out_dtype=i64,
        self=torch.tensor([[True, False, True], [True, True, True]]),
        dim=[1],
    )
    cs.ok("sum.IntList_out", "int64 [2,3,2] dims [0,2]", self=rng.randint(2, 3, 2, dtype=i64), dim=[0, 2])
    cs.ok("sum.IntList_out", "int32 -> float32", out_dtype=f32, self=rng.randint(2, 3), dim=[1], dtype=f32)
    cs.ok("sum.IntList_out", "empty reduction -> 0", self=rng.randn(0, 3), dim=[0])
    cs.ok("sum.IntList_out", "0-dim", self=rng.randn(), dim=None)
    cs.err("sum.IntList_out", "dtype differs from out", D, ((2,), f32), self=rng.randn(2, 3), dim=[1], dtype=i64)
    cs.err("sum.IntList_out", "float32 into int64 out", D, ((2,), i64), self=rng.randn(2, 3), dim=[1], dtype=i64)
    cs.err("sum.IntList_out", "float64", D, ((2,), f64), self=rng.randn(2, 3).to(f64), dim=[1])
    cs.err("sum.IntList_out", "duplicate dims", A, ((), f32), self=rng.randn(2, 3), dim=[0, 1, 0])
    cs.err("sum.IntList_out", "out [3] for dim [1] of [2,3]", A, ((3,), f32), self=rng.randn(2, 3), dim=[1])


def argmaxes(cs: CaseList, rng: Rng) -> None:
    """argmax over a dim or all of the tensor: ties, NaN, integer inputs, empty tensors."""
    cs.ok("argmax.out", "[3,4] dim 1", out_dtype=i64, self=rng.randn(3, 4), dim=1)
    cs.ok("argmax.out", "[3,4] dim 0 keepdim", out_dtype=i64, self=rng.randn(3, 4), dim=0, keepdim=True)
    cs.ok("argmax.out", "[2,3,4] dim -2", out_dtype=i64, self=rng.randn(2, 3, 4), dim=-2)
    cs.ok("argmax.out", "None: flat index", out_dtype=i64, self=rng.randn(3, 4))
    cs.ok("argmax.out", "None keepdim", out_dtype=i64, self=rng.randn(2, 3), keepdim=True)
    cs.ok(
        "argmax.out", "ties: first index", out_dtype=i64, self=torch.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]]), dim=1
    )
    cs.ok(
        "argmax.out",
        "NaN wins (first NaN)",
        out_dtype=i64,
        self=torch.tensor([[1.0, NAN, 5.0, NAN], [INF, 0.0, 1.0, 2.0]]),
        dim=1,
    )
    cs.ok("argmax.out", "int32", out_dtype=i64, self=rng.randint(4, 5), dim=1)
    cs.ok("argmax.out", "int64 None", out_dtype=i64, self=rng.randint(6, dtype=i64))
    cs.ok("argmax.out", "0-dim", out_dtype=i64, self=rng.randn(), dim=0)
    cs.ok("argmax.out", "[0,3] dim 1 (empty out)", out_dtype=i64, self=rng.randn(0, 3), dim=1)
    cs.err("argmax.out", "empty reduction", A, ((3,), i64), self=rng.randn(0, 3), dim=0)
    cs.err("argmax.out", "float32 out", D, ((3,), f32), self=rng.randn(3, 4), dim=1)
    cs.ok("argmax.out", "uint8 with ties (first wins)", out_dtype=i64,
          self=torch.tensor([[1, 7, 7, 0], [9, 2, 9, 9], [0, 0, 0, 0]], dtype=u8), dim=1)  # fmt: skip
    cs.err("argmax.out", "out [3,1] without keepdim", A, ((3, 1), i64), self=rng.randn(3, 4), dim=1)


def fills(cs: CaseList, rng: Rng) -> None:
    """full and full_like: dtypes, conversion of the fill value, sizes."""
    cs.ok("full.out", "[2,3] 1.5", out_dtype=f32, size=[2, 3], fill_value=1.5)
    cs.ok("full.out", "int32 [4] 7", out_dtype=i32, size=[4], fill_value=7)
    cs.ok("full.out", "int64 [2,2] -3", out_dtype=i64, size=[2, 2], fill_value=-3)
    cs.ok("full.out", "bool [3] True", out_dtype=bool_, size=[3], fill_value=True)
    cs.ok("full.out", "float32 from Int", out_dtype=f32, size=[1, 2], fill_value=-2)
    cs.ok("full.out", "0-dim", out_dtype=f32, size=[], fill_value=0.25)
    cs.ok("full.out", "[0,4] (empty)", out_dtype=f32, size=[0, 4], fill_value=1.0)
    cs.ok("full.out", "-inf", out_dtype=f32, size=[2], fill_value=-INF)
    cs.ok("full.out", "int64 large", out_dtype=i64, size=[1], fill_value=2**62 + 1)
    cs.ok("full.out", "uint8 255", out_dtype=u8, size=[3], fill_value=255)
    cs.err("full.out", "int8 300", A, ((2,), i8), size=[2], fill_value=300)
    cs.err("full.out", "float16", D, ((2,), f16), size=[2], fill_value=1.0)
    cs.err("full.out", "out [3] for [2]", A, ((3,), f32), size=[2], fill_value=1.0)
    cs.err("full.out", "negative size", A, ((2,), f32), size=[-2], fill_value=1.0)

    cs.ok("full_like.out", "[2,3] 2.0", self=rng.randn(2, 3), fill_value=2.0)
    cs.ok("full_like.out", "int64 -7", self=rng.randint(2, 2, dtype=i64), fill_value=-7)
    cs.ok("full_like.out", "float32 self, int32 out", out_dtype=i32, self=rng.randn(3), fill_value=5)
    cs.ok("full_like.out", "bool False", self=torch.tensor([True, True]), fill_value=False)
    cs.ok("full_like.out", "preserve_format", self=rng.randn(1, 2), fill_value=0.5, memory_format=torch.preserve_format)
    cs.ok("full_like.out", "0-dim", self=rng.randn(), fill_value=3.0)
    cs.err("full_like.out", "out [3] for [2]", A, ((3,), f32), self=rng.randn(2), fill_value=1.0)
    cs.err("full_like.out", "int32 out 1e10", A, ((2,), i32), self=rng.randn(2), fill_value=1e10)
