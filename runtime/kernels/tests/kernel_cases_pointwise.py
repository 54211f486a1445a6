"""Kernel test cases: elementwise arithmetic and activations.

add, sub, mul, div (Tensor and Scalar overloads, with broadcasting), relu, hardtanh, sigmoid,
tanh, gelu and clamp. Expected values come from PyTorch; sigmoid, tanh and gelu are computed in
float64 and rounded to float32 (the exact result, so the test tolerance only absorbs the
kernel's own float32 rounding).
"""

from __future__ import annotations

import torch
from kernel_case import ARGS, DTYPE, Case, CaseList, Rng, bool_, collect, f32, i32, i64, u8

A, D = ARGS, DTYPE
INT32_MAX = 2**31 - 1
FLOAT64_OPS = ("sigmoid.out", "tanh.out", "gelu.out")

INF, NAN = float("inf"), float("nan")
SPECIAL = torch.tensor([NAN, INF, -INF, -0.0, 0.0, 1e-30, -1e-30])
WIDE = torch.tensor([-100.0, -20.0, -5.0, -1.0, -1e-4, 0.0, 1e-4, 0.5, 3.0, 20.0, 100.0, INF, -INF, NAN])
GELU_IN = torch.tensor(
    [-10.0, -6.0, -4.0, -3.0, -2.0, -1.0, -0.5, -1e-3, 0.0, 1e-3, 0.5, 1.0, 2.0, 3.0, 6.0, 10.0, INF, -INF, NAN]
)


def cases(rng: Rng) -> list[Case]:
    """The cases, drawing their random inputs from `rng` in a fixed order."""
    return collect(rng, tensor_arithmetic, scalar_arithmetic, rectifiers, transcendentals, clamp, f64_ops=FLOAT64_OPS)


def tensor_arithmetic(cs: CaseList, rng: Rng) -> None:
    """add, sub, mul, div with two tensors: broadcasting, alpha, integer wrap-around, errors."""
    for op in ("add.out", "sub.out"):
        cs.ok(op, "same shape [2,3]", self=rng.randn(2, 3), other=rng.randn(2, 3))
        cs.ok(op, "[2,1,3] op [4,1] alpha 2.5", self=rng.randn(2, 1, 3), other=rng.randn(4, 1), alpha=2.5)
        cs.ok(op, "0-dim op [3,4]", self=rng.randn(), other=rng.randn(3, 4))
        cs.ok(op, "[3,4] op 0-dim alpha -1", self=rng.randn(3, 4), other=rng.randn(), alpha=-1)
        cs.ok(op, "[1] op [2,3] alpha 2 (Int)", self=rng.randn(1), other=rng.randn(2, 3), alpha=2)
        cs.ok(op, "[3,1,5] op [1,4,1]", self=rng.randn(3, 1, 5), other=rng.randn(1, 4, 1))
        cs.ok(
            op,
            "[2,1,2,1,3,1,2,1] op [2,1,3,1,2,2] (8-D)",
            self=rng.randn(2, 1, 2, 1, 3, 1, 2, 1),
            other=rng.randn(2, 1, 3, 1, 2, 2),
        )
        cs.ok(op, "[0,3] op [3] (empty)", self=rng.randn(0, 3), other=rng.randn(3))
        cs.ok(op, "int32 [2,3] op [3] alpha 3", self=rng.randint(2, 3), other=rng.randint(3), alpha=3)
        cs.ok(
            op,
            "int64 [4,1] op [1,5] alpha -2",
            self=rng.randint(4, 1, dtype=i64),
            other=rng.randint(1, 5, dtype=i64),
            alpha=-2,
        )
        cs.ok(
            op,
            "int32 wraps around",
            self=torch.tensor([INT32_MAX, -INT32_MAX - 1], dtype=i32),
            other=torch.tensor([1, 1], dtype=i32),
        )
        cs.err(op, "[2,3] op [4]: no broadcast", A, ((2, 3), f32), self=rng.randn(2, 3), other=rng.randn(4))
        cs.err(op, "out [3,3] for [2,3] op [3]", A, ((3, 3), f32), self=rng.randn(2, 3), other=rng.randn(3))
        cs.err(op, "out [4,2,3] for [2,3] op [3]", A, ((4, 2, 3), f32), self=rng.randn(2, 3), other=rng.randn(3))
        cs.err(op, "float32 op int32", D, ((2, 3), f32), self=rng.randn(2, 3), other=rng.randint(2, 3))
        cs.err(op, "int32 with Double alpha", D, ((3,), i32), self=rng.randint(3), other=rng.randint(3), alpha=1.5)
        narrow = {
            "self": torch.tensor([100, -7, 90], dtype=torch.int8),
            "other": torch.tensor([100, 9, -90], dtype=torch.int8),
        }
        cs.ok(op, "int8, wrapping (the dtype extension)", narrow)
        cs.ok(op, "uint8 with alpha 3", self=torch.tensor([250, 1, 7], dtype=u8), other=torch.tensor([3, 2, 9], dtype=u8),
              alpha=3)  # fmt: skip
        bools = {"self": torch.tensor([True, False, True]), "other": torch.tensor([True, True, False])}
        if op == "add.out":
            cs.ok(op, "bool tensors (a logical or)", bools)
        else:
            cs.err(op, "bool tensors (ATen has no bool subtraction)", D, ((3,), bool_), bools)
    cs.ok(
        "add.out",
        "NaN and inf",
        self=torch.tensor([float("nan"), float("inf"), 1.0]),
        other=torch.tensor([1.0, float("-inf"), float("inf")]),
    )

    for op in ("mul.out", "div.out"):
        cs.ok(op, "same shape [2,3]", self=rng.randn(2, 3), other=rng.randn(2, 3))
        cs.ok(op, "[2,1,3] op [4,1]", self=rng.randn(2, 1, 3), other=rng.randn(4, 1))
        cs.ok(op, "0-dim op [3,4]", self=rng.randn(), other=rng.randn(3, 4))
        cs.ok(op, "[3,1] op [1,4]", self=rng.randn(3, 1), other=rng.randn(1, 4))
        cs.ok(op, "[2,3,4] op [3,1]", self=rng.randn(2, 3, 4), other=rng.randn(3, 1))
        cs.ok(op, "[0] op [1] (empty)", self=rng.randn(0), other=rng.randn(1))
        cs.err(op, "[2,3] op [2]: no broadcast", A, ((2, 3), f32), self=rng.randn(2, 3), other=rng.randn(2))
        cs.err(op, "out [2] for [2,1] op [2]", A, ((2,), f32), self=rng.randn(2, 1), other=rng.randn(2))
        cs.err(op, "float32 op int64", D, ((2,), f32), self=rng.randn(2), other=rng.randint(2, dtype=i64))
    cs.ok("mul.out", "int32 [2,3] * [2,1]", self=rng.randint(2, 3), other=rng.randint(2, 1))
    cs.ok("mul.out", "int64 [4] * [3,1]", self=rng.randint(4, dtype=i64), other=rng.randint(3, 1, dtype=i64))
    cs.ok(
        "mul.out",
        "int32 wraps around",
        self=torch.tensor([65536, -3], dtype=i32),
        other=torch.tensor([65536, 7], dtype=i32),
    )
    cs.ok("div.out", "by zero: inf, -inf, nan", self=torch.tensor([1.0, -2.0, 0.0]), other=torch.zeros(3))
    cs.ok("div.out", "int32 / int32 -> float32", out_dtype=f32, self=rng.randint(2, 3), other=rng.randint(3, lo=1))
    cs.ok(
        "div.out",
        "int64 [3,1] / [2] -> float32",
        out_dtype=f32,
        self=rng.randint(3, 1, dtype=i64),
        other=torch.tensor([3, -7], dtype=i64),
    )
    cs.err("div.out", "int32 out", D, ((3,), i32), self=rng.randint(3), other=rng.randint(3, lo=1))
    cs.ok("mul.out", "bool tensors (a logical and)", self=torch.tensor([True, False]), other=torch.tensor([True, True]))
    cs.ok("mul.out", "int16 broadcast, wrapping", self=torch.tensor([[300], [-2]], dtype=torch.int16),
          other=torch.tensor([200, 3, -7], dtype=torch.int16))  # fmt: skip


def scalar_arithmetic(cs: CaseList, rng: Rng) -> None:
    """add, sub, mul, div with a Scalar other."""
    for op in ("add.Scalar_out", "sub.Scalar_out"):
        cs.ok(op, "[2,3] op 2.5 alpha 2", self=rng.randn(2, 3), other=2.5, alpha=2)
        cs.ok(op, "[4] op 3 (Int)", self=rng.randn(4), other=3)
        cs.ok(op, "0-dim op -0.75 alpha 0.5", self=rng.randn(), other=-0.75, alpha=0.5)
        cs.ok(op, "int32 [2,2] op 7 alpha 3", self=rng.randint(2, 2), other=7, alpha=3)
        cs.ok(op, "int64 [3] op -5", self=rng.randint(3, dtype=i64), other=-5)
        cs.ok(op, "[0,2] (empty)", self=rng.randn(0, 2), other=1.0)
        cs.err(op, "int32 op Double", D, ((3,), i32), self=rng.randint(3), other=2.5)
        cs.err(op, "out [3] for [2]", A, ((3,), f32), self=rng.randn(2), other=1.0)
        cs.err(op, "float32 self, int32 out", D, ((2,), i32), self=rng.randn(2), other=1)
    for op in ("mul.Scalar_out", "div.Scalar_out"):
        cs.ok(op, "[2,3] op 2.5", self=rng.randn(2, 3), other=2.5)
        cs.ok(op, "[4] op -3 (Int)", self=rng.randn(4), other=-3)
        cs.ok(op, "0-dim op 0.1", self=rng.randn(), other=0.1)
        cs.ok(op, "[1,1,3] op True", self=rng.randn(1, 1, 3), other=True)
        cs.err(op, "out [2,2] for [4]", A, ((2, 2), f32), self=rng.randn(4), other=2.0)
    cs.ok("mul.Scalar_out", "int32 * 3", self=rng.randint(5), other=3)
    cs.ok("mul.Scalar_out", "int64 * -4", self=rng.randint(2, 2, dtype=i64), other=-4)
    cs.err("mul.Scalar_out", "int64 * 0.5", D, ((2,), i64), self=rng.randint(2, dtype=i64), other=0.5)
    cs.ok("div.Scalar_out", "by 0.0", self=torch.tensor([1.0, -1.0, 0.0]), other=0.0)
    cs.ok("div.Scalar_out", "int32 / 4 -> float32", out_dtype=f32, self=rng.randint(5), other=4)
    cs.ok("div.Scalar_out", "int64 / 2.5 -> float32", out_dtype=f32, self=rng.randint(3, dtype=i64), other=2.5)
    cs.err("div.Scalar_out", "int32 out", D, ((3,), i32), self=rng.randint(3), other=2)


def rectifiers(cs: CaseList, rng: Rng) -> None:
    """relu and hardtanh, with NaN, inf and -0.0."""
    cs.ok("relu.out", "[3,4]", self=rng.randn(3, 4))
    cs.ok("relu.out", "NaN, inf, -0.0", self=SPECIAL)
    cs.ok("relu.out", "0-dim", self=rng.randn())
    cs.ok("relu.out", "int32", self=rng.randint(2, 5))
    cs.ok("relu.out", "int64", self=rng.randint(7, dtype=i64))
    cs.ok("relu.out", "[0,4] (empty)", self=rng.randn(0, 4))
    cs.ok("relu.out", "uint8", self=torch.tensor([1, 2, 3], dtype=u8))
    cs.ok("relu.out", "int8", self=torch.tensor([-128, -1, 0, 5, 127], dtype=torch.int8))
    cs.err("relu.out", "float32 in, int32 out", D, ((3,), i32), self=rng.randn(3))
    cs.err("relu.out", "out [4] for [2,2]", A, ((4,), f32), self=rng.randn(2, 2))

    cs.ok("hardtanh.out", "default -1..1", self=rng.randn(3, 4, scale=2))
    cs.ok("hardtanh.out", "0..6 (Int bounds)", self=rng.randn(10, scale=5), min_val=0, max_val=6)
    cs.ok("hardtanh.out", "-0.5..0.25, NaN/inf", self=SPECIAL, min_val=-0.5, max_val=0.25)
    cs.ok("hardtanh.out", "0-dim", self=rng.randn(), min_val=-0.1, max_val=0.1)
    cs.ok("hardtanh.out", "int32 (bounds as integers)", self=rng.randint(5))
    cs.ok("hardtanh.out", "int16 -2.5..3.9 (truncated)", self=torch.tensor([-9, -2, 0, 3, 9], dtype=torch.int16),
          min_val=-2.5, max_val=3.9)  # fmt: skip
    cs.err("hardtanh.out", "out [3,1] for [3]", A, ((3, 1), f32), self=rng.randn(3))


def transcendentals(cs: CaseList, rng: Rng) -> None:
    """sigmoid, tanh and gelu, over wide ranges and the special values."""
    for op in ("sigmoid.out", "tanh.out"):
        cs.ok(op, "[2,3,4]", self=rng.randn(2, 3, 4, scale=3))
        cs.ok(op, "wide range, inf, NaN", self=WIDE)
        cs.ok(op, "0-dim", self=rng.randn())
        cs.err(op, "int32", D, ((3,), i32), self=rng.randint(3))
        cs.err(op, "out [2] for [3]", A, ((2,), f32), self=rng.randn(3))

    cs.ok("gelu.out", "none: default", self=rng.randn(3, 5, scale=2))
    cs.ok("gelu.out", "none: tails, inf, NaN", self=GELU_IN, approximate="none")
    cs.ok("gelu.out", "tanh: [3,5]", self=rng.randn(3, 5, scale=2), approximate="tanh")
    cs.ok("gelu.out", "tanh: tails, inf, NaN", self=GELU_IN, approximate="tanh")
    cs.ok("gelu.out", "0-dim", self=rng.randn())
    cs.err("gelu.out", "approximate 'fast'", A, ((3,), f32), self=rng.randn(3), approximate="fast")
    cs.err("gelu.out", "int32", D, ((3,), i32), self=rng.randint(3))
    cs.err("gelu.out", "out [1,3] for [3]", A, ((1, 3), f32), self=rng.randn(3))


def clamp(cs: CaseList, rng: Rng) -> None:
    """clamp with either bound or both, Int and Double bounds, and bounds out of range."""
    cs.ok("clamp.out", "min and max", self=rng.randn(3, 4, scale=2), min=-0.5, max=1.0)
    cs.ok("clamp.out", "min only (Int)", self=rng.randn(6), min=0)
    cs.ok("clamp.out", "max only", self=rng.randn(6), max=0.25)
    cs.ok("clamp.out", "min > max gives max", self=rng.randn(5), min=1.0, max=-1.0)
    cs.ok("clamp.out", "NaN/inf input", self=SPECIAL, min=-1.0, max=1.0)
    cs.ok("clamp.out", "NaN bound", self=rng.randn(3), min=NAN)
    cs.ok("clamp.out", "int32", self=rng.randint(8), min=-3, max=4)
    cs.ok("clamp.out", "int64 max only", self=rng.randint(2, 3, dtype=i64), max=2)
    cs.err("clamp.out", "no bounds", A, ((3,), f32), self=rng.randn(3))
    cs.err("clamp.out", "int32 with Double bound", D, ((3,), i32), self=rng.randint(3), min=0.5)
    cs.err("clamp.out", "int32 bound out of range", A, ((3,), i32), self=rng.randint(3), max=2**40)
    cs.err("clamp.out", "float bound beyond float range", A, ((3,), f32), self=rng.randn(3), min=1e300)
    cs.ok("clamp.out", "uint8", self=torch.tensor([1, 2, 3, 250], dtype=u8), min=2, max=200)
    cs.ok("clamp.out", "int8 min only", self=torch.tensor([-128, -3, 0, 5, 127], dtype=torch.int8), min=-2)
    cs.ok("clamp.out", "int16", self=torch.tensor([-300, 7, 300], dtype=torch.int16), min=-5, max=256)
    cs.err(
        "clamp.out", "int8 bound out of range", A, ((3,), torch.int8), self=torch.zeros(3, dtype=torch.int8), max=200
    )
    cs.err("clamp.out", "out [2] for [3]", A, ((2,), f32), self=rng.randn(3), min=0.0)
