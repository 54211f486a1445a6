#!/usr/bin/env python3
"""Generates kernels_a_cases.h: inputs and expected outputs for kernels_a_test.c.

Covers the elementwise, activation, shape/copy, reduction and fill kernels (add, sub, mul, div,
relu, hardtanh, sigmoid, tanh, gelu, clamp, clone, view_copy, permute_copy, expand_copy, cat,
squeeze_copy, unsqueeze_copy, constant_pad_nd, _softmax, _log_softmax, mean, sum, argmax, full,
full_like). A case names the ATen out-variant overload and its arguments by schema name; the
argument list is laid out from the operator schema exactly as an ExecuTorch KernelCall holds it
(every schema argument in order with defaults filled in, the out tensor, then the returned
value, which is the out again), so the C test can build it without Python.

Expected values come from PyTorch eager, calling the same out-variant overload (which also
checks each case's arguments against the real schema). Transcendental ops (sigmoid, tanh, gelu,
softmax, log_softmax, mean of floats) are computed in float64 and rounded to float32: the exact
result, so the test tolerance only absorbs the kernel's own float32 rounding.

    python gen_kernels_a_cases.py            # writes kernels_a_cases.h next to this file
    python gen_kernels_a_cases.py --check-executorch
        # runs every float/int OK case through the ExecuTorch runtime (export -> edge ->
        # portable kernels) and reports how far its results are from the expected values

Needs torch (and executorch for --check-executorch). Keep tensors small: the header is committed.
"""

from __future__ import annotations

import argparse
import math
import os
import struct
import sys
from collections.abc import Sequence
from dataclasses import InitVar, dataclass, field
from typing import Any, TypeAlias, TypeGuard

import torch
from c_initializer import wrap_initializer
from torch._ops import OpOverload

TP_OK, TP_ERR_KERNEL_ARGS, TP_ERR_KERNEL_DTYPE = 0, 11, 12
STATUS_NAME = {TP_OK: "TP_OK", TP_ERR_KERNEL_ARGS: "TP_ERR_KERNEL_ARGS", TP_ERR_KERNEL_DTYPE: "TP_ERR_KERNEL_DTYPE"}
DTYPE = {  # tp_dtype (ExecuTorch ScalarType) numbers
    torch.uint8: 0,
    torch.int8: 1,
    torch.int16: 2,
    torch.int32: 3,
    torch.int64: 4,
    torch.float16: 5,
    torch.float32: 6,
    torch.float64: 7,
    torch.bool: 11,
}
MEMORY_FORMAT = {torch.contiguous_format: 0, torch.preserve_format: 1}

f32, f16, f64 = torch.float32, torch.float16, torch.float64
i32, i64, u8, i8, bool_ = torch.int32, torch.int64, torch.uint8, torch.int8, torch.bool

GEN = torch.Generator().manual_seed(20241123)


def randn(*shape: int, scale: float = 1.0) -> torch.Tensor:
    return (torch.randn(shape, generator=GEN, dtype=torch.float64) * scale).to(f32)


def randint(*shape: int, lo: int = -9, hi: int = 10, dtype: torch.dtype = i32) -> torch.Tensor:
    return torch.randint(lo, hi, shape, generator=GEN, dtype=torch.int64).to(dtype)


def arange(*shape: int, dtype: torch.dtype = f32) -> torch.Tensor:
    n = 1
    for s in shape:
        n *= s
    return torch.arange(n, dtype=torch.float64).reshape(shape).to(dtype)


# Ops whose float references are computed in float64 (then rounded to float32).
EXACT_F64 = {"sigmoid.out", "tanh.out", "gelu.out", "_softmax.out", "_log_softmax.out", "mean.out"}


# A case's argument values, by schema argument name.
ArgValue: TypeAlias = (
    torch.Tensor | list[torch.Tensor] | list[int] | bool | int | float | str | torch.dtype | torch.memory_format | None
)
OutSpec: TypeAlias = tuple[tuple[int, ...], torch.dtype]  # (shape, dtype) of an out tensor


@dataclass
class Case:
    op: str
    label: str
    args: dict[str, ArgValue]
    status: int = TP_OK
    out: OutSpec | None = None  # (shape, dtype) of the out tensor for error cases
    out_dtype: torch.dtype | None = None  # dtype of the out tensor for OK cases (default: first input's)
    f64: InitVar[bool | None] = None  # compute the reference in float64 (default: op in EXACT_F64)
    use_f64: bool = field(init=False)
    expected: torch.Tensor | None = field(default=None, init=False)

    def __post_init__(self, f64: bool | None) -> None:
        self.use_f64 = self.op in EXACT_F64 if f64 is None else f64

    def expected_tensor(self) -> torch.Tensor:
        if self.expected is None:
            raise ValueError(f"{self.op} [{self.label}]: no expected value")
        return self.expected

    def tensor_arg(self, name: str) -> torch.Tensor:
        v = self.args[name]
        if not isinstance(v, torch.Tensor):
            raise TypeError(f"{self.op} [{self.label}]: {name} is not a tensor")
        return v


def overload(op: str) -> OpOverload[..., Any]:
    name, ov = op.split(".")
    fn: OpOverload[..., Any] = getattr(getattr(torch.ops.aten, name), ov)
    return fn


def schema_layout(op: str) -> tuple[torch._C.FunctionSchema, list[tuple[str, bool]]]:
    """[(name, is_out)] of the schema arguments, in order."""
    schema = overload(op)._schema
    return schema, [(a.name, a.alias_info is not None and a.alias_info.is_write) for a in schema.arguments]


def is_tensor_list(v: object) -> TypeGuard[list[torch.Tensor]]:
    """A non-empty list of tensors (a Tensor[] argument)."""
    return isinstance(v, list) and all(isinstance(x, torch.Tensor) for x in v) and bool(v)


def first_tensor(args: dict[str, ArgValue]) -> torch.Tensor | None:
    for v in args.values():
        if isinstance(v, torch.Tensor):
            return v
        if isinstance(v, list) and v and isinstance(v[0], torch.Tensor):
            return v[0]
    return None


def tensor_to64(t: torch.Tensor) -> torch.Tensor:
    return t.to(f64) if t.dtype == f32 else t


def to64(v: ArgValue) -> ArgValue:
    if isinstance(v, torch.Tensor):
        return tensor_to64(v)
    if v is f32:  # a dtype= argument
        return f64
    if is_tensor_list(v):
        return [tensor_to64(x) for x in v]
    return v


def torch_reference(c: Case) -> torch.Tensor:
    dtype = c.out_dtype
    if dtype is None:
        first = first_tensor(c.args)
        if first is None:
            raise ValueError(f"{c.op} [{c.label}]: no out_dtype and no input tensor")
        dtype = first.dtype
    use64 = c.use_f64 and dtype == f32
    args = {k: (to64(v) if use64 else v) for k, v in c.args.items()}
    out = torch.empty(0, dtype=f64 if use64 else dtype)
    overload(c.op)(**args, out=out)
    out = out.to(f32) if use64 else out
    if c.op == "gelu.out":  # the portable kernel returns 0 for -inf where ATen computes -inf * 0 = NaN
        out = torch.where(c.tensor_arg("self") == float("-inf"), torch.zeros_like(out), out)
    return out


# --- the cases ----------------------------------------------------------------------------
def cases() -> list[Case]:
    cs: list[Case] = []

    def ok(
        op: str, label: str, out_dtype: torch.dtype | None = None, f64: bool | None = None, **args: ArgValue
    ) -> None:
        cs.append(Case(op, label, args, out_dtype=out_dtype, f64=f64))

    def err(op: str, label: str, status: int, out: OutSpec, **args: ArgValue) -> None:
        cs.append(Case(op, label, args, status=status, out=out))

    A, D = TP_ERR_KERNEL_ARGS, TP_ERR_KERNEL_DTYPE
    INT32_MAX = 2**31 - 1

    # add / sub / mul / div (tensor overloads): broadcasting
    for op in ("add.out", "sub.out"):
        ok(op, "same shape [2,3]", self=randn(2, 3), other=randn(2, 3))
        ok(op, "[2,1,3] op [4,1] alpha 2.5", self=randn(2, 1, 3), other=randn(4, 1), alpha=2.5)
        ok(op, "0-dim op [3,4]", self=randn(), other=randn(3, 4))
        ok(op, "[3,4] op 0-dim alpha -1", self=randn(3, 4), other=randn(), alpha=-1)
        ok(op, "[1] op [2,3] alpha 2 (Int)", self=randn(1), other=randn(2, 3), alpha=2)
        ok(op, "[3,1,5] op [1,4,1]", self=randn(3, 1, 5), other=randn(1, 4, 1))
        ok(
            op,
            "[2,1,2,1,3,1,2,1] op [2,1,3,1,2,2] (8-D)",
            self=randn(2, 1, 2, 1, 3, 1, 2, 1),
            other=randn(2, 1, 3, 1, 2, 2),
        )
        ok(op, "[0,3] op [3] (empty)", self=randn(0, 3), other=randn(3))
        ok(op, "int32 [2,3] op [3] alpha 3", self=randint(2, 3), other=randint(3), alpha=3)
        ok(op, "int64 [4,1] op [1,5] alpha -2", self=randint(4, 1, dtype=i64), other=randint(1, 5, dtype=i64), alpha=-2)
        ok(
            op,
            "int32 wraps around",
            self=torch.tensor([INT32_MAX, -INT32_MAX - 1], dtype=i32),
            other=torch.tensor([1, 1], dtype=i32),
        )
        err(op, "[2,3] op [4]: no broadcast", A, ((2, 3), f32), self=randn(2, 3), other=randn(4))
        err(op, "out [3,3] for [2,3] op [3]", A, ((3, 3), f32), self=randn(2, 3), other=randn(3))
        err(op, "out [4,2,3] for [2,3] op [3]", A, ((4, 2, 3), f32), self=randn(2, 3), other=randn(3))
        err(op, "float32 op int32", D, ((2, 3), f32), self=randn(2, 3), other=randint(2, 3))
        err(op, "int32 with Double alpha", D, ((3,), i32), self=randint(3), other=randint(3), alpha=1.5)
        err(
            op,
            "bool tensors",
            D,
            ((3,), bool_),
            self=torch.tensor([True, False, True]),
            other=torch.tensor([True, True, False]),
        )
    ok(
        "add.out",
        "NaN and inf",
        self=torch.tensor([float("nan"), float("inf"), 1.0]),
        other=torch.tensor([1.0, float("-inf"), float("inf")]),
    )

    for op in ("mul.out", "div.out"):
        ok(op, "same shape [2,3]", self=randn(2, 3), other=randn(2, 3))
        ok(op, "[2,1,3] op [4,1]", self=randn(2, 1, 3), other=randn(4, 1))
        ok(op, "0-dim op [3,4]", self=randn(), other=randn(3, 4))
        ok(op, "[3,1] op [1,4]", self=randn(3, 1), other=randn(1, 4))
        ok(op, "[2,3,4] op [3,1]", self=randn(2, 3, 4), other=randn(3, 1))
        ok(op, "[0] op [1] (empty)", self=randn(0), other=randn(1))
        err(op, "[2,3] op [2]: no broadcast", A, ((2, 3), f32), self=randn(2, 3), other=randn(2))
        err(op, "out [2] for [2,1] op [2]", A, ((2,), f32), self=randn(2, 1), other=randn(2))
        err(op, "float32 op int64", D, ((2,), f32), self=randn(2), other=randint(2, dtype=i64))
    ok("mul.out", "int32 [2,3] * [2,1]", self=randint(2, 3), other=randint(2, 1))
    ok("mul.out", "int64 [4] * [3,1]", self=randint(4, dtype=i64), other=randint(3, 1, dtype=i64))
    ok(
        "mul.out",
        "int32 wraps around",
        self=torch.tensor([65536, -3], dtype=i32),
        other=torch.tensor([65536, 7], dtype=i32),
    )
    ok("div.out", "by zero: inf, -inf, nan", self=torch.tensor([1.0, -2.0, 0.0]), other=torch.zeros(3))
    ok("div.out", "int32 / int32 -> float32", out_dtype=f32, self=randint(2, 3), other=randint(3, lo=1))
    ok(
        "div.out",
        "int64 [3,1] / [2] -> float32",
        out_dtype=f32,
        self=randint(3, 1, dtype=i64),
        other=torch.tensor([3, -7], dtype=i64),
    )
    err("div.out", "int32 out", D, ((3,), i32), self=randint(3), other=randint(3, lo=1))
    err("mul.out", "bool tensors", D, ((2,), bool_), self=torch.tensor([True, False]), other=torch.tensor([True, True]))

    # add / sub / mul / div (Scalar overloads)
    for op in ("add.Scalar_out", "sub.Scalar_out"):
        ok(op, "[2,3] op 2.5 alpha 2", self=randn(2, 3), other=2.5, alpha=2)
        ok(op, "[4] op 3 (Int)", self=randn(4), other=3)
        ok(op, "0-dim op -0.75 alpha 0.5", self=randn(), other=-0.75, alpha=0.5)
        ok(op, "int32 [2,2] op 7 alpha 3", self=randint(2, 2), other=7, alpha=3)
        ok(op, "int64 [3] op -5", self=randint(3, dtype=i64), other=-5)
        ok(op, "[0,2] (empty)", self=randn(0, 2), other=1.0)
        err(op, "int32 op Double", D, ((3,), i32), self=randint(3), other=2.5)
        err(op, "out [3] for [2]", A, ((3,), f32), self=randn(2), other=1.0)
        err(op, "float32 self, int32 out", D, ((2,), i32), self=randn(2), other=1)
    for op in ("mul.Scalar_out", "div.Scalar_out"):
        ok(op, "[2,3] op 2.5", self=randn(2, 3), other=2.5)
        ok(op, "[4] op -3 (Int)", self=randn(4), other=-3)
        ok(op, "0-dim op 0.1", self=randn(), other=0.1)
        ok(op, "[1,1,3] op True", self=randn(1, 1, 3), other=True)
        err(op, "out [2,2] for [4]", A, ((2, 2), f32), self=randn(4), other=2.0)
    ok("mul.Scalar_out", "int32 * 3", self=randint(5), other=3)
    ok("mul.Scalar_out", "int64 * -4", self=randint(2, 2, dtype=i64), other=-4)
    err("mul.Scalar_out", "int64 * 0.5", D, ((2,), i64), self=randint(2, dtype=i64), other=0.5)
    ok("div.Scalar_out", "by 0.0", self=torch.tensor([1.0, -1.0, 0.0]), other=0.0)
    ok("div.Scalar_out", "int32 / 4 -> float32", out_dtype=f32, self=randint(5), other=4)
    ok("div.Scalar_out", "int64 / 2.5 -> float32", out_dtype=f32, self=randint(3, dtype=i64), other=2.5)
    err("div.Scalar_out", "int32 out", D, ((3,), i32), self=randint(3), other=2)

    # unary activations
    special = torch.tensor([float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 1e-30, -1e-30])
    ok("relu.out", "[3,4]", self=randn(3, 4))
    ok("relu.out", "NaN, inf, -0.0", self=special)
    ok("relu.out", "0-dim", self=randn())
    ok("relu.out", "int32", self=randint(2, 5))
    ok("relu.out", "int64", self=randint(7, dtype=i64))
    ok("relu.out", "[0,4] (empty)", self=randn(0, 4))
    err("relu.out", "uint8", D, ((3,), u8), self=torch.tensor([1, 2, 3], dtype=u8))
    err("relu.out", "float32 in, int32 out", D, ((3,), i32), self=randn(3))
    err("relu.out", "out [4] for [2,2]", A, ((4,), f32), self=randn(2, 2))

    ok("hardtanh.out", "default -1..1", self=randn(3, 4, scale=2))
    ok("hardtanh.out", "0..6 (Int bounds)", self=randn(10, scale=5), min_val=0, max_val=6)
    ok("hardtanh.out", "-0.5..0.25, NaN/inf", self=special, min_val=-0.5, max_val=0.25)
    ok("hardtanh.out", "0-dim", self=randn(), min_val=-0.1, max_val=0.1)
    err("hardtanh.out", "int32", D, ((3,), i32), self=randint(3))
    err("hardtanh.out", "out [3,1] for [3]", A, ((3, 1), f32), self=randn(3))

    wide = torch.tensor(
        [-100.0, -20.0, -5.0, -1.0, -1e-4, 0.0, 1e-4, 0.5, 3.0, 20.0, 100.0, float("inf"), float("-inf"), float("nan")]
    )
    for op in ("sigmoid.out", "tanh.out"):
        ok(op, "[2,3,4]", self=randn(2, 3, 4, scale=3))
        ok(op, "wide range, inf, NaN", self=wide)
        ok(op, "0-dim", self=randn())
        err(op, "int32", D, ((3,), i32), self=randint(3))
        err(op, "out [2] for [3]", A, ((2,), f32), self=randn(3))

    gelu_in = torch.tensor(
        [
            -10.0,
            -6.0,
            -4.0,
            -3.0,
            -2.0,
            -1.0,
            -0.5,
            -1e-3,
            0.0,
            1e-3,
            0.5,
            1.0,
            2.0,
            3.0,
            6.0,
            10.0,
            float("inf"),
            float("-inf"),
            float("nan"),
        ]
    )
    ok("gelu.out", "none: default", self=randn(3, 5, scale=2))
    ok("gelu.out", "none: tails, inf, NaN", self=gelu_in, approximate="none")
    ok("gelu.out", "tanh: [3,5]", self=randn(3, 5, scale=2), approximate="tanh")
    ok("gelu.out", "tanh: tails, inf, NaN", self=gelu_in, approximate="tanh")
    ok("gelu.out", "0-dim", self=randn())
    err("gelu.out", "approximate 'fast'", A, ((3,), f32), self=randn(3), approximate="fast")
    err("gelu.out", "int32", D, ((3,), i32), self=randint(3))
    err("gelu.out", "out [1,3] for [3]", A, ((1, 3), f32), self=randn(3))

    ok("clamp.out", "min and max", self=randn(3, 4, scale=2), min=-0.5, max=1.0)
    ok("clamp.out", "min only (Int)", self=randn(6), min=0)
    ok("clamp.out", "max only", self=randn(6), max=0.25)
    ok("clamp.out", "min > max gives max", self=randn(5), min=1.0, max=-1.0)
    ok("clamp.out", "NaN/inf input", self=special, min=-1.0, max=1.0)
    ok("clamp.out", "NaN bound", self=randn(3), min=float("nan"))
    ok("clamp.out", "int32", self=randint(8), min=-3, max=4)
    ok("clamp.out", "int64 max only", self=randint(2, 3, dtype=i64), max=2)
    err("clamp.out", "no bounds", A, ((3,), f32), self=randn(3))
    err("clamp.out", "int32 with Double bound", D, ((3,), i32), self=randint(3), min=0.5)
    err("clamp.out", "int32 bound out of range", A, ((3,), i32), self=randint(3), max=2**40)
    err("clamp.out", "float bound beyond float range", A, ((3,), f32), self=randn(3), min=1e300)
    err("clamp.out", "uint8", D, ((3,), u8), self=torch.tensor([1, 2, 3], dtype=u8), min=1)
    err("clamp.out", "out [2] for [3]", A, ((2,), f32), self=randn(3), min=0.0)

    # shape / copy ops
    ok("clone.out", "[2,3]", self=randn(2, 3))
    ok("clone.out", "int64 0-dim", self=torch.tensor(-5, dtype=i64))
    ok("clone.out", "bool", self=torch.tensor([True, False, True]))
    ok("clone.out", "float16", self=randn(2, 2).to(f16))
    ok("clone.out", "contiguous_format", self=randn(4), memory_format=torch.contiguous_format)
    ok("clone.out", "preserve_format", self=randint(2, 2), memory_format=torch.preserve_format)
    ok("clone.out", "[0,2] (empty)", self=randn(0, 2))
    err("clone.out", "float32 -> int32", D, ((3,), i32), self=randn(3))
    err("clone.out", "out [3] for [1,3]", A, ((3,), f32), self=randn(1, 3))

    ok("view_copy.out", "[2,3,4] -> [4,-1]", self=randn(2, 3, 4), size=[4, -1])
    ok("view_copy.out", "[6] -> [1,2,3]", self=randint(6, dtype=i64), size=[1, 2, 3])
    ok("view_copy.out", "0-dim -> [1,1]", self=randn(), size=[1, 1])
    ok("view_copy.out", "[1,1] -> [] (0-dim)", self=randn(1, 1), size=[])
    ok("view_copy.out", "[0,3] -> [-1,3]", self=randn(0, 3), size=[-1, 3])
    ok("view_copy.out", "uint8 [2,2] -> [-1]", self=torch.tensor([[1, 2], [3, 4]], dtype=u8), size=[-1])
    err("view_copy.out", "numel 6 -> [4,2]", A, ((4, 2), f32), self=randn(6), size=[4, 2])
    err("view_copy.out", "two -1", A, ((2, 3), f32), self=randn(6), size=[-1, -1])
    err("view_copy.out", "[0,3] -> [-1,0]", A, ((0, 0), f32), self=randn(0, 3), size=[-1, 0])
    err("view_copy.out", "6 -> [4,-1]", A, ((4, 1), f32), self=randn(6), size=[4, -1])
    err("view_copy.out", "out [3,2] for [2,3]", A, ((3, 2), f32), self=randn(6), size=[2, 3])
    err("view_copy.out", "int32 -> float32", D, ((6,), f32), self=randint(6), size=[6])

    ok("permute_copy.out", "[2,3,4] dims [2,0,1]", self=randn(2, 3, 4), dims=[2, 0, 1])
    ok("permute_copy.out", "negative dims [-1,-3,-2]", self=randn(2, 3, 4), dims=[-1, -3, -2])
    ok("permute_copy.out", "int64 [3,4] transpose", self=randint(3, 4, dtype=i64), dims=[1, 0])
    ok(
        "permute_copy.out",
        "uint8 [2,1,3,2] dims [3,1,0,2]",
        self=randint(2, 1, 3, 2, lo=0, dtype=u8),
        dims=[3, 1, 0, 2],
    )
    ok("permute_copy.out", "identity [2,2]", self=randn(2, 2), dims=[0, 1])
    ok("permute_copy.out", "0-dim, dims []", self=randn(), dims=[])
    ok(
        "permute_copy.out",
        "bool [2,3] transpose",
        self=torch.tensor([[True, False, False], [False, True, True]]),
        dims=[1, 0],
    )
    err("permute_copy.out", "repeated dim", A, ((2, 2), f32), self=randn(2, 2), dims=[0, 0])
    err("permute_copy.out", "too few dims", A, ((2, 3), f32), self=randn(2, 3, 1), dims=[0, 1])
    err("permute_copy.out", "dim out of range", A, ((3, 2), f32), self=randn(2, 3), dims=[2, 0])
    err("permute_copy.out", "out [2,3] for transpose of [2,3]", A, ((2, 3), f32), self=randn(2, 3), dims=[1, 0])

    ok("expand_copy.out", "[3,1] -> [3,4]", self=randn(3, 1), size=[3, 4])
    ok("expand_copy.out", "[3] -> [2,3]", self=randn(3), size=[2, 3])
    ok("expand_copy.out", "[2,1,1] -> [2,-1,5]", self=randn(2, 1, 1), size=[2, -1, 5])
    ok("expand_copy.out", "[1,3,1] -> [2,2,3,4] int64", self=randint(1, 3, 1, dtype=i64), size=[2, 2, 3, 4])
    ok("expand_copy.out", "0-dim -> [2,3]", self=randn(), size=[2, 3])
    ok("expand_copy.out", "[1,3] -> [0,3]", self=randn(1, 3), size=[0, 3])
    ok("expand_copy.out", "bool [1,2] -> [3,2]", self=torch.tensor([[True, False]]), size=[3, 2])
    ok("expand_copy.out", "same shape with implicit=True", self=randn(2, 2), size=[2, 2], implicit=True)
    err("expand_copy.out", "[3] -> [-1,3] (leading -1)", A, ((3, 3), f32), self=randn(3), size=[-1, 3])
    err("expand_copy.out", "[2] -> [4]", A, ((4,), f32), self=randn(2), size=[4])
    err("expand_copy.out", "[2,3] -> [3]", A, ((3,), f32), self=randn(2, 3), size=[3])
    err("expand_copy.out", "out [3,3] for [3,1] -> [3,4]", A, ((3, 3), f32), self=randn(3, 1), size=[3, 4])

    ok("cat.out", "dim 0 [2,3]+[1,3]", tensors=[randn(2, 3), randn(1, 3)], dim=0)
    ok("cat.out", "dim -1 of three", tensors=[randn(2, 1), randn(2, 3), randn(2, 2)], dim=-1)
    ok("cat.out", "dim 1 of 3-D", tensors=[randn(2, 1, 2), randn(2, 2, 2)], dim=1)
    ok("cat.out", "skips 1-D empty", tensors=[randn(2, 2), torch.empty(0), randn(1, 2)])
    ok(
        "cat.out",
        "int64 dim 0 with an empty [0,2]",
        tensors=[randint(1, 2, dtype=i64), randint(0, 2, dtype=i64), randint(2, 2, dtype=i64)],
        dim=0,
    )
    ok("cat.out", "single tensor", tensors=[randn(3)], dim=0)
    ok("cat.out", "bool dim 1", tensors=[torch.tensor([[True], [False]]), torch.tensor([[False], [True]])], dim=1)
    err("cat.out", "sizes differ off dim", A, ((3, 3), f32), tensors=[randn(2, 3), randn(1, 2)], dim=0)
    err("cat.out", "dims differ", A, ((3, 3), f32), tensors=[randn(2, 3), randn(3)], dim=0)
    err("cat.out", "dtypes differ", D, ((3, 3), f32), tensors=[randn(2, 3), randint(1, 3)], dim=0)
    err("cat.out", "0-dim tensors", A, ((2,), f32), tensors=[randn(), randn()], dim=0)
    err("cat.out", "dim 2 of 2-D", A, ((2, 3), f32), tensors=[randn(1, 3), randn(1, 3)], dim=2)
    err("cat.out", "out [3,2] for [2,2]+[1,2] wrong", A, ((2, 3), f32), tensors=[randn(2, 2), randn(1, 2)], dim=0)

    ok("squeeze_copy.dim_out", "[1,3,1] dim 0", self=randn(1, 3, 1), dim=0)
    ok("squeeze_copy.dim_out", "[1,3,1] dim -1", self=randn(1, 3, 1), dim=-1)
    ok("squeeze_copy.dim_out", "[1,3,1] dim 1 (not 1: kept)", self=randn(1, 3, 1), dim=1)
    ok("squeeze_copy.dim_out", "0-dim dim 0", self=randn(), dim=0)
    ok("squeeze_copy.dim_out", "int64 [2,1] dim 1", self=randint(2, 1, dtype=i64), dim=1)
    err("squeeze_copy.dim_out", "dim 3 of 3-D", A, ((1, 3, 1), f32), self=randn(1, 3, 1), dim=3)
    err("squeeze_copy.dim_out", "out [1,3] for dim 0", A, ((1, 3), f32), self=randn(1, 3, 1), dim=0)
    ok("squeeze_copy.dims_out", "[1,3,1,2] dims [0,2]", self=randn(1, 3, 1, 2), dim=[0, 2])
    ok("squeeze_copy.dims_out", "[1,3,1] dims [-1,1]", self=randn(1, 3, 1), dim=[-1, 1])
    ok("squeeze_copy.dims_out", "dims [] (nothing)", self=randn(1, 2), dim=[])
    ok("squeeze_copy.dims_out", "[1,1] dims [0,1] -> 0-dim", self=randn(1, 1), dim=[0, 1])
    ok("squeeze_copy.dims_out", "0-dim dims [-1]", self=randn(), dim=[-1])
    err("squeeze_copy.dims_out", "duplicate dims", A, ((3,), f32), self=randn(1, 3), dim=[0, -2])
    err("squeeze_copy.dims_out", "dim out of range", A, ((3,), f32), self=randn(1, 3), dim=[2])
    err("squeeze_copy.dims_out", "float32 -> int64", D, ((3,), i64), self=randn(1, 3), dim=[0])

    ok("unsqueeze_copy.out", "[2,3] dim 0", self=randn(2, 3), dim=0)
    ok("unsqueeze_copy.out", "[2,3] dim 2", self=randn(2, 3), dim=2)
    ok("unsqueeze_copy.out", "[2,3] dim -1", self=randn(2, 3), dim=-1)
    ok("unsqueeze_copy.out", "[2,3] dim -3", self=randint(2, 3), dim=-3)
    ok("unsqueeze_copy.out", "0-dim dim 0", self=randn(), dim=0)
    err("unsqueeze_copy.out", "dim 3 of 2-D", A, ((2, 3, 1), f32), self=randn(2, 3), dim=3)
    err("unsqueeze_copy.out", "dim -4 of 2-D", A, ((1, 2, 3), f32), self=randn(2, 3), dim=-4)
    err("unsqueeze_copy.out", "out [2,3] for dim 0", A, ((2, 3), f32), self=randn(2, 3), dim=0)

    ok("constant_pad_nd.out", "[2,3] pad (1,2) 0.5", self=randn(2, 3), pad=[1, 2], value=0.5)
    ok("constant_pad_nd.out", "[1,2,3,4] pad (1,1,2,0) -1", self=randn(1, 2, 3, 4), pad=[1, 1, 2, 0], value=-1)
    ok("constant_pad_nd.out", "[2,2] pad (0,0,1,1) default 0", self=randn(2, 2), pad=[0, 0, 1, 1])
    ok("constant_pad_nd.out", "int32 pad (2,1) value 7", self=randint(2, 3), pad=[2, 1], value=7)
    ok("constant_pad_nd.out", "int32 value 2.7 truncates", self=randint(3), pad=[1, 1], value=2.7)
    ok("constant_pad_nd.out", "negative pads crop (-1,2)", self=arange(2, 3), pad=[-1, 2])
    ok("constant_pad_nd.out", "crop only (0,-1,-1,0)", self=arange(3, 4), pad=[0, -1, -1, 0], value=9.0)
    ok("constant_pad_nd.out", "crop to empty (-3,0)", self=randn(3), pad=[-3, 0])
    ok("constant_pad_nd.out", "pad [] copies", self=randn(2, 2), pad=[])
    ok("constant_pad_nd.out", "bool pad (1,0) True", self=torch.tensor([[True, False]]), pad=[1, 0], value=True)
    ok(
        "constant_pad_nd.out",
        "int64 3-D pad all dims",
        self=randint(1, 2, 2, dtype=i64),
        pad=[1, 0, 0, 1, 2, 1],
        value=-4,
    )
    ok("constant_pad_nd.out", "[0,2] pad (1,1,1,0)", self=randn(0, 2), pad=[1, 1, 1, 0], value=3.0)
    err("constant_pad_nd.out", "odd pad length", A, ((2, 4), f32), self=randn(2, 3), pad=[1])
    err("constant_pad_nd.out", "pad longer than 2*dim", A, ((3,), f32), self=randn(1), pad=[1, 1, 0, 0])
    err("constant_pad_nd.out", "crop more than the size", A, ((3,), f32), self=randn(1), pad=[-2, 4])
    err(
        "constant_pad_nd.out",
        "int8 value 300",
        A,
        ((4,), i8),
        self=torch.tensor([1, 2], dtype=i8),
        pad=[1, 1],
        value=300,
    )
    err("constant_pad_nd.out", "out [2,3] for pad (1,1) of [2,3]", A, ((2, 3), f32), self=randn(2, 3), pad=[1, 1])
    err("constant_pad_nd.out", "float32 -> float64", D, ((2, 5), f64), self=randn(2, 3), pad=[1, 1])

    # softmax / log_softmax
    for op in ("_softmax.out", "_log_softmax.out"):
        ok(op, "[2,5] dim 1", self=randn(2, 5, scale=3), dim=1, half_to_float=False)
        ok(op, "[3,4] dim 0", self=randn(3, 4), dim=0, half_to_float=False)
        ok(op, "[2,3,4] dim -2", self=randn(2, 3, 4), dim=-2, half_to_float=False)
        ok(op, "[2,3,4] dim -1 large values", self=randn(2, 3, 4, scale=40), dim=-1, half_to_float=False)
        ok(op, "[4,1] dim 1 (size 1)", self=randn(4, 1), dim=1, half_to_float=False)
        ok(op, "0-dim", self=randn(), dim=0, half_to_float=False)
        ok(
            op,
            "-inf entries",
            self=torch.tensor([[0.0, float("-inf"), 1.0], [2.0, 2.0, float("-inf")]]),
            dim=1,
            half_to_float=False,
        )
        err(op, "half_to_float", A, ((2, 3), f32), self=randn(2, 3), dim=1, half_to_float=True)
        err(op, "dim 2 of 2-D", A, ((2, 3), f32), self=randn(2, 3), dim=2, half_to_float=False)
        err(op, "int32", D, ((2, 3), i32), self=randint(2, 3), dim=1, half_to_float=False)
        err(op, "out [3,2] for [2,3]", A, ((3, 2), f32), self=randn(2, 3), dim=1, half_to_float=False)

    # reductions
    ok("mean.out", "[2,3,4] dim [1]", self=randn(2, 3, 4), dim=[1])
    ok("mean.out", "[2,3,4] dims [0,2] keepdim", self=randn(2, 3, 4), dim=[0, 2], keepdim=True)
    ok("mean.out", "[2,3,4] dims [-1,-2]", self=randn(2, 3, 4), dim=[-1, -2])
    ok("mean.out", "None: all", self=randn(3, 5), dim=None)
    ok("mean.out", "[]: all, keepdim", self=randn(3, 5), dim=[], keepdim=True)
    ok("mean.out", "[1,4,3,3] dims [2,3] keepdim (global pool)", self=randn(1, 4, 3, 3), dim=[2, 3], keepdim=True)
    ok("mean.out", "dtype float32", self=randn(4, 2), dim=[0], dtype=f32)
    ok("mean.out", "int32 with dtype float32", out_dtype=f32, f64=False, self=randint(3, 4), dim=[1], dtype=f32)
    ok("mean.out", "0-dim dim [0]", self=randn(), dim=[0])
    ok("mean.out", "empty reduction -> NaN", self=randn(0, 3), dim=[0])
    ok("mean.out", "[2,1,3] dim [1]", self=randn(2, 1, 3), dim=[1])
    err("mean.out", "duplicate dims", A, ((2,), f32), self=randn(2, 3), dim=[1, -1])
    err("mean.out", "dim out of range", A, ((2,), f32), self=randn(2, 3), dim=[2])
    err("mean.out", "dtype int64", D, ((2,), f32), self=randn(2, 3), dim=[1], dtype=i64)
    err("mean.out", "int64 out", D, ((2,), i64), self=randn(2, 3), dim=[1])
    err("mean.out", "out [2,1] without keepdim", A, ((2, 1), f32), self=randn(2, 3), dim=[1])

    ok("sum.IntList_out", "[2,3,4] dim [1]", self=randn(2, 3, 4), dim=[1])
    ok("sum.IntList_out", "[2,3,4] dims [0,2] keepdim", self=randn(2, 3, 4), dim=[0, 2], keepdim=True)
    ok("sum.IntList_out", "None: all", self=randn(3, 5), dim=None)
    ok("sum.IntList_out", "int32 -> int64 (default)", out_dtype=i64, self=randint(3, 4), dim=[0])
    ok("sum.IntList_out", "int32 dtype int32", self=randint(3, 4), dim=[-1], dtype=i32)
    ok(
        "sum.IntList_out",
        "bool -> int64",
        out_dtype=i64,
        self=torch.tensor([[True, False, True], [True, True, True]]),
        dim=[1],
    )
    ok("sum.IntList_out", "int64 [2,3,2] dims [0,2]", self=randint(2, 3, 2, dtype=i64), dim=[0, 2])
    ok("sum.IntList_out", "int32 -> float32", out_dtype=f32, self=randint(2, 3), dim=[1], dtype=f32)
    ok("sum.IntList_out", "empty reduction -> 0", self=randn(0, 3), dim=[0])
    ok("sum.IntList_out", "0-dim", self=randn(), dim=None)
    err("sum.IntList_out", "dtype differs from out", D, ((2,), f32), self=randn(2, 3), dim=[1], dtype=i64)
    err("sum.IntList_out", "float32 into int64 out", D, ((2,), i64), self=randn(2, 3), dim=[1], dtype=i64)
    err("sum.IntList_out", "float64", D, ((2,), f64), self=randn(2, 3).to(f64), dim=[1])
    err("sum.IntList_out", "duplicate dims", A, ((), f32), self=randn(2, 3), dim=[0, 1, 0])
    err("sum.IntList_out", "out [3] for dim [1] of [2,3]", A, ((3,), f32), self=randn(2, 3), dim=[1])

    ok("argmax.out", "[3,4] dim 1", out_dtype=i64, self=randn(3, 4), dim=1)
    ok("argmax.out", "[3,4] dim 0 keepdim", out_dtype=i64, self=randn(3, 4), dim=0, keepdim=True)
    ok("argmax.out", "[2,3,4] dim -2", out_dtype=i64, self=randn(2, 3, 4), dim=-2)
    ok("argmax.out", "None: flat index", out_dtype=i64, self=randn(3, 4))
    ok("argmax.out", "None keepdim", out_dtype=i64, self=randn(2, 3), keepdim=True)
    ok("argmax.out", "ties: first index", out_dtype=i64, self=torch.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]]), dim=1)
    ok(
        "argmax.out",
        "NaN wins (first NaN)",
        out_dtype=i64,
        self=torch.tensor([[1.0, float("nan"), 5.0, float("nan")], [float("inf"), 0.0, 1.0, 2.0]]),
        dim=1,
    )
    ok("argmax.out", "int32", out_dtype=i64, self=randint(4, 5), dim=1)
    ok("argmax.out", "int64 None", out_dtype=i64, self=randint(6, dtype=i64))
    ok("argmax.out", "0-dim", out_dtype=i64, self=randn(), dim=0)
    ok("argmax.out", "[0,3] dim 1 (empty out)", out_dtype=i64, self=randn(0, 3), dim=1)
    err("argmax.out", "empty reduction", A, ((3,), i64), self=randn(0, 3), dim=0)
    err("argmax.out", "float32 out", D, ((3,), f32), self=randn(3, 4), dim=1)
    err("argmax.out", "uint8", D, ((3,), i64), self=torch.zeros(3, 4, dtype=u8), dim=1)
    err("argmax.out", "out [3,1] without keepdim", A, ((3, 1), i64), self=randn(3, 4), dim=1)

    # fills
    ok("full.out", "[2,3] 1.5", out_dtype=f32, size=[2, 3], fill_value=1.5)
    ok("full.out", "int32 [4] 7", out_dtype=i32, size=[4], fill_value=7)
    ok("full.out", "int64 [2,2] -3", out_dtype=i64, size=[2, 2], fill_value=-3)
    ok("full.out", "bool [3] True", out_dtype=bool_, size=[3], fill_value=True)
    ok("full.out", "float32 from Int", out_dtype=f32, size=[1, 2], fill_value=-2)
    ok("full.out", "0-dim", out_dtype=f32, size=[], fill_value=0.25)
    ok("full.out", "[0,4] (empty)", out_dtype=f32, size=[0, 4], fill_value=1.0)
    ok("full.out", "-inf", out_dtype=f32, size=[2], fill_value=float("-inf"))
    ok("full.out", "int64 large", out_dtype=i64, size=[1], fill_value=2**62 + 1)
    ok("full.out", "uint8 255", out_dtype=u8, size=[3], fill_value=255)
    err("full.out", "int8 300", A, ((2,), i8), size=[2], fill_value=300)
    err("full.out", "float16", D, ((2,), f16), size=[2], fill_value=1.0)
    err("full.out", "out [3] for [2]", A, ((3,), f32), size=[2], fill_value=1.0)
    err("full.out", "negative size", A, ((2,), f32), size=[-2], fill_value=1.0)

    ok("full_like.out", "[2,3] 2.0", self=randn(2, 3), fill_value=2.0)
    ok("full_like.out", "int64 -7", self=randint(2, 2, dtype=i64), fill_value=-7)
    ok("full_like.out", "float32 self, int32 out", out_dtype=i32, self=randn(3), fill_value=5)
    ok("full_like.out", "bool False", self=torch.tensor([True, True]), fill_value=False)
    ok("full_like.out", "preserve_format", self=randn(1, 2), fill_value=0.5, memory_format=torch.preserve_format)
    ok("full_like.out", "0-dim", self=randn(), fill_value=3.0)
    err("full_like.out", "out [3] for [2]", A, ((3,), f32), self=randn(2), fill_value=1.0)
    err("full_like.out", "int32 out 1e10", A, ((2,), i32), self=randn(2), fill_value=1e10)
    return cs


# --- C emission ---------------------------------------------------------------------------
def c_double(x: float) -> str:
    if math.isnan(x):
        return "NAN"
    if math.isinf(x):
        return "INFINITY" if x > 0 else "-INFINITY"
    return repr(float(x))


CTYPE = {i32: "int32_t", i64: "int64_t", u8: "uint8_t", i8: "int8_t", torch.int16: "int16_t", bool_: "uint8_t"}


def c_float(x: float) -> str:
    """The shortest decimal literal that reads back as the same float32."""
    if math.isnan(x):
        return "NAN"
    if math.isinf(x):
        return "INFINITY" if x > 0 else "-INFINITY"
    if x == 0:
        return "-0.0f" if math.copysign(1.0, x) < 0 else "0.0f"
    for digits in range(1, 10):
        t = f"{x:.{digits}g}"
        if struct.unpack("f", struct.pack("f", float(t)))[0] == x:
            break
    if "e" not in t and "." not in t:
        t += ".0"
    return t + "f"


def c_int(x: float, dtype: torch.dtype) -> str:
    n = int(x)
    if dtype == i64:
        return "INT64_MIN" if n == -(2**63) else f"INT64_C({n:d})"
    if dtype == i32 and n == -(2**31):
        return "INT32_MIN"
    return str(n)


def c_string(s: str) -> str:
    escaped = s.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


class Emitter:
    def __init__(self) -> None:
        self.decls: list[str] = []
        self.tensors: list[str] = []
        self.args: list[str] = []
        self.case_rows: list[str] = []
        self.n = 0

    def array(self, ctype: str, values: list[str]) -> str:
        name = f"ka_a{self.n:d}"
        self.n += 1
        body = ", ".join(values) if values else "0"
        initializer = wrap_initializer(body)
        self.decls.append(f"static const {ctype} {name}[] = {{{initializer}}};")
        return name

    def tensor(self, shape_in: Sequence[int], dtype: torch.dtype, data: torch.Tensor | None) -> int:
        """data: a tensor (its bytes, little-endian) or None (an out for an error case)."""
        shape = list(shape_in)
        sizes = self.array("int32_t", [str(s) for s in shape]) if shape else "NULL"
        numel = 1
        for s in shape:
            numel *= s
        if data is None or numel == 0:
            ptr = "NULL"
        else:
            flat = data.contiguous().reshape(-1)
            if dtype == f32:
                ptr = self.array("float", [c_float(x) for x in flat.tolist()])
            elif dtype in CTYPE:
                ptr = self.array(CTYPE[dtype], [c_int(x, dtype) for x in flat.tolist()])
            else:  # float16 / float64: the raw little-endian bytes
                ptr = self.array("uint8_t", [f"0x{b:02x}" for b in flat.view(torch.uint8).tolist()])
        self.tensors.append(f"  {{{DTYPE[dtype]:d}, {len(shape):d}, {sizes}, {numel:d}, {ptr}}},")
        return len(self.tensors) - 1

    def arg(
        self, kind: str, tensor: int = -1, i: int = 0, d: str = "0.0", lst: str = "NULL", n: int = 0, s: str = "NULL"
    ) -> None:
        iv = f"INT64_C({i:d})" if abs(i) >= 2**31 - 1 else str(i)
        self.args.append(f"{{{kind}, {tensor:d}, {iv}, {d}, {lst}, {n:d}, {s}}}")

    def value(self, v: object) -> None:
        """Emit one argument value (a case's, or a schema default, which torch types as Any)."""
        if v is None:
            self.arg("KA_NONE")
        elif isinstance(v, torch.Tensor):
            self.arg("KA_IN", tensor=self.tensor(v.shape, v.dtype, v))
        elif isinstance(v, bool):
            self.arg("KA_BOOL", i=int(v))
        elif isinstance(v, int):
            self.arg("KA_INT", i=v)
        elif isinstance(v, float):
            self.arg("KA_DOUBLE", d=c_double(v))
        elif isinstance(v, str):
            self.arg("KA_STRING", s=c_string(v))
        elif isinstance(v, torch.dtype):
            self.arg("KA_INT", i=DTYPE[v])
        elif isinstance(v, torch.memory_format):
            self.arg("KA_INT", i=MEMORY_FORMAT[v])
        elif is_tensor_list(v):
            ids = [self.tensor(x.shape, x.dtype, x) for x in v]
            self.arg("KA_TENSOR_LIST", lst=self.array("int64_t", [str(i) for i in ids]), n=len(ids))
        elif isinstance(v, list):
            self.arg(
                "KA_INT_LIST", lst=self.array("int64_t", [f"INT64_C({x:d})" for x in v]) if v else "NULL", n=len(v)
            )
        else:
            raise TypeError(v)

    def case(self, c: Case) -> None:
        schema, layout = schema_layout(c.op)
        first = len(self.args)
        out_pos = None
        for a, (name, is_out) in zip(schema.arguments, layout, strict=True):
            if is_out:
                out_pos = len(self.args) - first
                if c.status == TP_OK:
                    expected = c.expected_tensor()
                    self.arg("KA_OUT", tensor=self.tensor(expected.shape, expected.dtype, expected))
                else:
                    if c.out is None:
                        raise ValueError(f"{c.op} [{c.label}]: an error case needs out=(shape, dtype)")
                    shape, dtype = c.out
                    self.arg("KA_OUT", tensor=self.tensor(shape, dtype, None))
            elif name in c.args:
                self.value(c.args[name])
            elif a.has_default_value():
                self.value(a.default_value)
            else:
                raise ValueError(f"{c.op}: no value for {name}")
        unknown = set(c.args) - {name for name, _ in layout}
        if unknown:
            raise ValueError(f"{c.op}: unknown arguments {unknown}")
        if out_pos is None:
            raise ValueError(f"{c.op}: the schema has no out argument")
        self.arg("KA_RET", i=out_pos)
        self.case_rows.append(
            f"  {{{c_string(c.op)}, {c_string(c.label)}, {first:d}, {len(self.args) - first:d}, "
            f"{STATUS_NAME[c.status]}}},"
        )


# ExecuTorch's pybindings link libexecutorch_kernels_optimized, whose opt_* kernels replace the
# portable ones for these operators: their results are the optimized kernels', not the portable.
OPTIMIZED = {
    "add.out",
    "add.Scalar_out",
    "sub.out",
    "sub.Scalar_out",
    "mul.out",
    "mul.Scalar_out",
    "div.out",
    "div.Scalar_out",
    "gelu.out",
    "_log_softmax.out",
    "sum.IntList_out",
}
FUNCTIONAL = {
    "add.out": "add.Tensor",
    "sub.out": "sub.Tensor",
    "mul.out": "mul.Tensor",
    "div.out": "div.Tensor",
    "add.Scalar_out": "add.Scalar",
    "sub.Scalar_out": "sub.Scalar",
    "mul.Scalar_out": "mul.Scalar",
    "div.Scalar_out": "div.Scalar",
    "mean.out": "mean.dim",
    "sum.IntList_out": "sum.dim_IntList",
    "squeeze_copy.dim_out": "squeeze_copy.dim",
    "squeeze_copy.dims_out": "squeeze_copy.dims",
}


def executorch_reference(c: Case) -> torch.Tensor:
    """Run the case's functional op as a one-operator program through the ExecuTorch runtime."""
    from executorch.exir import to_edge
    from executorch.extension.pybindings.portable_lib import _load_for_executorch_from_buffer

    fn = overload(FUNCTIONAL.get(c.op, c.op.split(".")[0] + ".default"))
    inputs: list[torch.Tensor] = []
    template: dict[str, int | list[int]] = {}
    for k, v in c.args.items():  # tensors (also inside lists) become program inputs
        if isinstance(v, torch.Tensor):
            template[k] = len(inputs)
            inputs.append(v)
        elif isinstance(v, list) and v and isinstance(v[0], torch.Tensor):
            template[k] = list(range(len(inputs), len(inputs) + len(v)))
            inputs.extend(v)
    consts = {k: v for k, v in c.args.items() if k not in template}
    if c.op in ("full.out", "full_like.out"):
        consts["dtype"] = c.expected_tensor().dtype

    class M(torch.nn.Module):
        def forward(self, *xs: torch.Tensor) -> Any:
            vals = {k: ([xs[j] for j in idx] if isinstance(idx, list) else xs[idx]) for k, idx in template.items()}
            return fn(**consts, **vals)

    ep = torch.export.export(M(), tuple(inputs))
    buffer = to_edge(ep).to_executorch().buffer
    module = _load_for_executorch_from_buffer(buffer)
    _KEEP.append((buffer, module, inputs))  # the runtime may still point into these
    result: torch.Tensor = module.forward(tuple(inputs))[0].clone()
    return result


_KEEP: list[tuple[object, object, list[torch.Tensor]]] = []


def deviation(got: torch.Tensor, exp: torch.Tensor) -> float:
    if got.shape != exp.shape or got.dtype != exp.dtype:
        return float("inf")
    if not exp.is_floating_point():
        return 0.0 if torch.equal(got, exp) else float("inf")
    g, e = got.double(), exp.double()
    same = (g == e) | (torch.isnan(g) & torch.isnan(e))
    rel = (g - e).abs() / e.abs().clamp_min(1e-30)
    return torch.where(same, torch.zeros_like(rel), rel).max().item() if rel.numel() else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels_a_cases.h"))
    ap.add_argument("--reference", choices=["torch", "executorch"], default="torch")
    ap.add_argument("--check-executorch", action="store_true")
    opts = ap.parse_args()

    all_cases = cases()
    for c in all_cases:
        if c.status == TP_OK:
            c.expected = torch_reference(c)
    if opts.check_executorch or opts.reference == "executorch":
        worst: dict[str, tuple[float, str]] = {}
        for c in all_cases:
            if c.status != TP_OK:
                continue
            tag = " (optimized kernel)" if c.op in OPTIMIZED else ""
            tensors = [v for v in c.args.values() if isinstance(v, torch.Tensor)]
            if c.expected_tensor().numel() == 0 or any(t.numel() == 0 for t in tensors):
                continue  # the ExecuTorch runtime may crash on empty tensors; keep the PyTorch value
            if os.environ.get("KA_TRACE"):
                print(f"  running {c.op} [{c.label}]", flush=True)
            try:
                got = executorch_reference(c)
            except Exception as e:  # noqa: BLE001 - report, keep the PyTorch value
                first_line = str(e).splitlines()[0][:70]
                print(f"  {c.op:<22} {c.label:<42} executorch failed{tag}: {first_line}", flush=True)
                continue
            dev = deviation(got, c.expected_tensor())
            if dev > worst.get(c.op, (-1.0, ""))[0]:
                worst[c.op] = (dev, c.label)
            if dev > 1e-6:
                print(f"  {c.op:<22} {c.label:<42} deviates {dev:.3g} from PyTorch{tag}", flush=True)
            if opts.reference == "executorch" and dev != float("inf"):
                c.expected = got
        print("largest relative deviation of ExecuTorch from the PyTorch reference, per op:")
        for op, (dev, label) in sorted(worst.items()):
            note = " optimized kernel" if op in OPTIMIZED else ""
            print(f"  {op:<24} {dev:.3g}  ({label}){note}")
        if opts.check_executorch:
            return 0

    em = Emitter()
    for c in all_cases:
        em.case(c)
    with open(opts.out, "w") as f:
        f.write(f"/* Generated by gen_kernels_a_cases.py (reference: {opts.reference}); do not edit.\n")
        f.write(" * Test cases for kernels_a_test.c; the types are defined there. */\n")
        f.write("/* clang-format off */\n\n")
        f.write("\n".join(em.decls) + "\n\n")
        tensor_rows = "\n".join(em.tensors)
        arg_rows = ",\n  ".join(em.args)
        case_rows = "\n".join(em.case_rows)
        f.write(f"static const ka_tensor ka_tensors[] = {{\n{tensor_rows}\n}};\n\n")
        f.write(f"static const ka_arg ka_args[] = {{\n  {arg_rows}\n}};\n\n")
        f.write(f"static const ka_case ka_cases[] = {{\n{case_rows}\n}};\n")
    print(f"wrote {opts.out}: {len(em.case_rows):d} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
