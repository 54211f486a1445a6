"""Multiply-accumulates a program performs, counted from its operators and tensor shapes.

A MAC is one `acc += a * b`. Matrix products and convolutions are where a model's MACs
are; every other operator counts 0 (elementwise work, pooling and normalization are
reported in instructions by the perf bench, not in MACs):

    addmm(self, mat1[M,K], mat2[K,N])        M*K*N
    mm(self[M,K], mat2[K,N])                 M*K*N
    bmm(self[B,M,K], mat2[B,K,N])            B*M*K*N
    convolution(input, weight, ..., out)     numel(out) * prod(weight.shape[1:])
      transposed                             numel(input) * prod(weight.shape[1:])

`call_macs` takes the shapes of a KernelCall's tensor arguments in schema order (None for
arguments that are not tensors) and the transposed flag of a convolution.
"""

from __future__ import annotations

import math

Shapes = list[list[int] | None]


def _shape(shapes: Shapes, index: int) -> list[int]:
    shape = shapes[index] if index < len(shapes) else None
    if shape is None:
        raise ValueError(f"argument {index} is not a tensor")
    return shape


def call_macs(operator: str, shapes: Shapes, transposed: bool = False) -> int:
    """MACs of one call of `operator` ("aten::addmm") with argument `shapes`."""
    if operator == "aten::addmm":
        (m, k), (_, n) = _shape(shapes, 1), _shape(shapes, 2)
        return m * k * n
    if operator == "aten::mm":
        (m, k), (_, n) = _shape(shapes, 0), _shape(shapes, 1)
        return m * k * n
    if operator == "aten::bmm":
        (b, m, k), (_, _, n) = _shape(shapes, 0), _shape(shapes, 1)
        return b * m * k * n
    if operator == "aten::convolution":
        per_output = math.prod(_shape(shapes, 1)[1:])
        driver = _shape(shapes, 0) if transposed else _shape(shapes, len(shapes) - 1)
        return math.prod(driver) * per_output
    return 0
