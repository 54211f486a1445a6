"""Multiply-accumulates a program performs, counted from its operators and tensor shapes.

A MAC is one `acc += a * b`. Matrix products and convolutions are where a model's MACs
are; every other operator counts 0 (elementwise work, pooling and normalization are
reported in instructions by the perf bench, not in MACs):

    addmm(self, mat1[M,K], mat2[K,N])        M*K*N
    mm(self[M,K], mat2[K,N])                 M*K*N
    bmm(self[B,M,K], mat2[B,K,N])            B*M*K*N
    convolution(input, weight, ..., out)     numel(out) * prod(weight.shape[1:])
      transposed                             numel(input) * prod(weight.shape[1:])

and the int8 operators of ExecuTorch's Cortex-M backend (weights OHWI, [1,kh,kw,C] depthwise):

    cortex_m::quantized_linear(input[...,K], weights[N,K])      numel(input) / K * K * N
    cortex_m::quantized_batch_matmul(lhs[B,M,K], rhs_t[B,N,K])  B*M*K*N
    cortex_m::quantized_conv2d[_nhwc](input, weight, ..., out)  numel(out) * kh*kw*Cin/groups
    cortex_m::quantized_depthwise_conv2d[_nhwc](...)            numel(out) * kh*kw
    cortex_m::quantized_transpose_conv2d[_nhwc](input, weight)  numel(input) * Cout*kh*kw

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
    if operator == "cortex_m::quantized_linear":
        x, (n, k) = _shape(shapes, 0), _shape(shapes, 1)
        return math.prod(x) * n if k else 0
    if operator == "cortex_m::quantized_batch_matmul":
        (b, m, k), (_, n, _) = _shape(shapes, 0), _shape(shapes, 2)
        return b * m * k * n
    if operator in ("cortex_m::quantized_conv2d", "cortex_m::quantized_conv2d_nhwc"):
        return math.prod(_shape(shapes, len(shapes) - 1)) * math.prod(_shape(shapes, 1)[1:])
    if operator in ("cortex_m::quantized_depthwise_conv2d", "cortex_m::quantized_depthwise_conv2d_nhwc"):
        weight = _shape(shapes, 1)
        return math.prod(_shape(shapes, len(shapes) - 1)) * weight[1] * weight[2]
    if operator in ("cortex_m::quantized_transpose_conv2d", "cortex_m::quantized_transpose_conv2d_nhwc"):
        weight = _shape(shapes, 1)
        return math.prod(_shape(shapes, 0)) * weight[0] * weight[1] * weight[2]
    return 0
