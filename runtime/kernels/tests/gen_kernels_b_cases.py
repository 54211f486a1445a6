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
import argparse
import math
import os
import struct
import sys

import torch

# tp_dtype / tp_status numbers (runtime/include/tinypte/value.h, status.h)
DTYPE = {torch.float32: 6, torch.int64: 4, torch.int32: 3}
CTYPE = {torch.float32: "float", torch.int64: "int64_t", torch.int32: "int32_t"}
TP_OK, TP_ERR_KERNEL_ARGS, TP_ERR_KERNEL_DTYPE = 0, 11, 12

GEN = torch.Generator().manual_seed(20240611)


# Inputs are rounded to 3 decimals to keep the header small; they are still not exact binary
# fractions, so products and sums round and the order of accumulation matters.
def randn(*shape, scale=1.0, offset=0.0):
    return torch.round(torch.randn(shape, generator=GEN) * scale + offset, decimals=3).to(torch.float32)


def rand(*shape, lo=0.0, hi=1.0):
    return torch.round(torch.rand(shape, generator=GEN) * (hi - lo) + lo, decimals=3).to(torch.float32)


# --- argument helpers: a case's args are a list of (kind, payload) ---------------------
def T(t):  # input tensor
    return ("in", t)


def NONE():
    return ("none", None)


def I(v):
    return ("int", int(v))


def D(v):
    return ("double", float(v))


def B(v):
    return ("bool", bool(v))


def L(v):
    return ("ilist", [int(x) for x in v])


class Case:
    def __init__(self, op, name, args, n_out, ref=None, status=TP_OK, out_specs=None, separate_returns=False):
        self.op, self.name, self.args, self.n_out = op, name, args, n_out
        self.ref = ref  # callable(args with float64 tensors) -> tuple of outputs
        self.status = status
        self.out_specs = out_specs  # [(shape, dtype)] for error cases without a reference
        self.separate_returns = separate_returns
        self.expected = None


def to_call(args, dtype):
    vals = []
    for kind, v in args:
        if kind == "in":
            vals.append(v.to(dtype) if v.is_floating_point() else v)
        elif kind == "none":
            vals.append(None)
        else:
            vals.append(v)
    return vals


def torch_reference(case):
    outs = case.ref(*to_call(case.args, torch.float64))
    if isinstance(outs, torch.Tensor):
        outs = (outs,)
    return [o.to(torch.float32) if o.is_floating_point() else o for o in outs]


def executorch_reference(case):
    from executorch.exir import to_edge
    from executorch.extension.pybindings.portable_lib import _load_for_executorch_from_buffer

    inputs = [v for kind, v in case.args if kind == "in"]
    template = to_call(case.args, torch.float32)
    slots = [i for i, (kind, _) in enumerate(case.args) if kind == "in"]
    ref = case.ref

    class M(torch.nn.Module):
        def forward(self, *xs):
            vals = list(template)
            for i, x in zip(slots, xs):
                vals[i] = x
            return ref(*vals)

    ep = torch.export.export(M(), tuple(inputs))
    buffer = to_edge(ep).to_executorch().buffer  # keep alive while the module runs
    module = _load_for_executorch_from_buffer(buffer)
    outs = [o.clone() for o in module.forward(tuple(inputs))]
    del module
    return outs


# --- the cases --------------------------------------------------------------------------
def addmm_ref(beta, alpha):
    return lambda s, a, b, *_: torch.addmm(s, a, b, beta=beta, alpha=alpha)


def addmm_case(name, self_shape, m, n, p, beta=I(1), alpha=I(1)):
    args = [T(randn(*self_shape)), T(randn(m, n)), T(randn(n, p)), beta, alpha]
    return Case("addmm", name, args, 1, ref=addmm_ref(beta[1], alpha[1]))


def conv_case(name, x, w, bias, stride, padding, dilation, groups):
    args = [T(x), T(w), T(bias) if bias is not None else NONE(), L(stride), L(padding), L(dilation), B(False),
            L([0] * len(stride)), I(groups)]
    return Case("convolution", name, args, 1, ref=lambda *a: torch.ops.aten.convolution.default(*a))


def maxpool_case(name, x, k, s, p, d, ceil, separate_returns=False):
    args = [T(x), L(k), L(s), L(p), L(d), B(ceil)]
    return Case("max_pool2d_with_indices", name, args, 2, separate_returns=separate_returns,
                ref=lambda *a: torch.ops.aten.max_pool2d_with_indices.default(*a))


def avgpool_case(name, x, k, s, p, ceil, include_pad, divisor=None):
    args = [T(x), L(k), L(s), L(p), B(ceil), B(include_pad), NONE() if divisor is None else I(divisor)]
    return Case("avg_pool2d", name, args, 1, ref=lambda *a: torch.ops.aten.avg_pool2d.default(*a))


def adaptive_case(name, x, size):
    return Case("_adaptive_avg_pool2d", name, [T(x), L(size)], 1,
                ref=lambda *a: torch.ops.aten._adaptive_avg_pool2d.default(*a))


def layernorm_case(name, x, shape, weight, bias, eps, separate_returns=False):
    args = [T(x), L(shape), T(weight) if weight is not None else NONE(), T(bias) if bias is not None else NONE(),
            D(eps)]
    return Case("native_layer_norm", name, args, 3, separate_returns=separate_returns,
                ref=lambda *a: torch.ops.aten.native_layer_norm.default(*a))


def batchnorm_case(name, x, weight, bias, mean, var, eps, separate_returns=False):
    args = [T(x), T(weight) if weight is not None else NONE(), T(bias) if bias is not None else NONE(), T(mean),
            T(var), D(0.1), D(eps)]
    return Case("_native_batch_norm_legit_no_training", name, args, 3, separate_returns=separate_returns,
                ref=lambda *a: torch.ops.aten._native_batch_norm_legit_no_training.default(*a))


def error(case, status, out_specs):
    """An error case: the kernel must return `status` (out shapes/dtypes given explicitly)."""
    case.status, case.out_specs, case.ref = status, out_specs, None
    return case


def cases():
    f32, i64 = torch.float32, torch.int64
    cs = []
    # addmm: 1-D bias (linear), 2-D self, broadcast rows/cols/scalar, Int and Double alpha/beta
    cs += [
        addmm_case("linear 1-D bias 3x5 @ 5x4", (4,), 3, 5, 4),
        addmm_case("sine layer 1x1 @ 1x16 + [16]", (16,), 1, 1, 16),
        addmm_case("odd 5x11 @ 11x7 + [7]", (7,), 5, 11, 7),
        addmm_case("2-D self, beta 0.5 alpha 2.0", (3, 4), 3, 5, 4, beta=D(0.5), alpha=D(2.0)),
        addmm_case("self [1, 4], int beta 2 alpha 3", (1, 4), 3, 5, 4, beta=I(2), alpha=I(3)),
        addmm_case("self [3, 1]", (3, 1), 3, 2, 4),
        addmm_case("0-d self, beta 0", (), 2, 3, 5, beta=I(0)),
        addmm_case("self [1]", (1,), 2, 6, 3, alpha=D(-1.5)),
    ]
    cs.append(error(addmm_case("self rows 2 vs m 3", (2, 4), 3, 5, 4), TP_ERR_KERNEL_ARGS, [((3, 4), f32)]))
    bad = addmm_case("mat2 rows 4 vs mat1 cols 5", (4,), 3, 5, 4)
    bad.args[2] = T(randn(4, 4))
    cs.append(error(bad, TP_ERR_KERNEL_ARGS, [((3, 4), f32)]))

    # mm, bmm
    for name, (m, n, p) in [("3x5 @ 5x4", (3, 5, 4)), ("1x7 @ 7x1", (1, 7, 1)), ("5x7 @ 7x6", (5, 7, 6))]:
        cs.append(Case("mm", name, [T(randn(m, n)), T(randn(n, p))], 1, ref=torch.mm))
    cs.append(error(Case("mm", "inner 5 vs 4", [T(randn(3, 5)), T(randn(4, 2))], 1), TP_ERR_KERNEL_ARGS,
                    [((3, 2), f32)]))
    for name, (b, m, n, p) in [("2x3x5 @ 2x5x4", (2, 3, 5, 4)), ("3x1x6 @ 3x6x2", (3, 1, 6, 2)),
                               ("1x4x4 @ 1x4x4", (1, 4, 4, 4))]:
        cs.append(Case("bmm", name, [T(randn(b, m, n)), T(randn(b, n, p))], 1, ref=torch.bmm))
    cs.append(error(Case("bmm", "batch 2 vs 3", [T(randn(2, 3, 5)), T(randn(3, 5, 4))], 1), TP_ERR_KERNEL_ARGS,
                    [((2, 3, 4), f32)]))

    # convolution
    cs += [
        conv_case("3x3 bias", randn(1, 3, 5, 6), randn(3, 3, 3, 3), randn(3), [1, 1], [0, 0], [1, 1], 1),
        conv_case("batch 2 stride 2 pad 1", randn(2, 2, 7, 6), randn(3, 2, 3, 3), randn(3), [2, 2], [1, 1], [1, 1], 1),
        conv_case("dilation 2 pad 2 no bias", randn(1, 2, 7, 6), randn(2, 2, 3, 3), None, [1, 1], [2, 2], [2, 2], 1),
        conv_case("groups 2", randn(1, 4, 4, 5), randn(4, 2, 3, 3), randn(4), [1, 1], [1, 1], [1, 1], 2),
        conv_case("depthwise stride 2 batch 2", randn(2, 3, 5, 6), randn(3, 1, 3, 3), randn(3), [2, 2], [1, 1],
                  [1, 1], 3),
        conv_case("depthwise multiplier 2", randn(1, 3, 5, 4), randn(6, 1, 3, 3), randn(6), [1, 1], [1, 1], [1, 1], 3),
        conv_case("asymmetric k2x3 s1x2 p1x0 d2x1", randn(1, 2, 7, 9), randn(3, 2, 2, 3), randn(3), [1, 2], [1, 0],
                  [2, 1], 1),
        conv_case("single-item lists", randn(1, 2, 6, 6), randn(2, 2, 3, 3), randn(2), [2], [1], [1], 1),
        conv_case("1x1", randn(1, 8, 3, 3), randn(5, 8, 1, 1), randn(5), [1, 1], [0, 0], [1, 1], 1),
        conv_case("padding beyond kernel", randn(1, 1, 3, 3), randn(2, 1, 2, 2), randn(2), [1, 1], [2, 2], [1, 1], 1),
        conv_case("1-D stride 2 pad 1", randn(2, 3, 10), randn(4, 3, 3), randn(4), [2], [1], [1], 1),
        conv_case("1-D depthwise dilation 2", randn(1, 4, 9), randn(4, 1, 3), None, [1], [2], [2], 4),
    ]
    bad = conv_case("transposed", randn(1, 2, 4, 4), randn(2, 3, 3, 3), None, [1, 1], [0, 0], [1, 1], 1)
    bad.args[6] = B(True)
    cs.append(error(bad, TP_ERR_KERNEL_ARGS, [((1, 3, 6, 6), f32)]))
    cs.append(error(conv_case("groups 3 vs 4 channels", randn(1, 4, 5, 5), randn(3, 1, 3, 3), None, [1, 1], [0, 0],
                              [1, 1], 3), TP_ERR_KERNEL_ARGS, [((1, 3, 3, 3), f32)]))
    cs.append(error(conv_case("bias length 3 vs 4", randn(1, 2, 5, 5), randn(4, 2, 3, 3), randn(3), [1, 1], [0, 0],
                              [1, 1], 1), TP_ERR_KERNEL_ARGS, [((1, 4, 3, 3), f32)]))
    cs.append(error(conv_case("kernel larger than input", randn(1, 1, 2, 2), randn(1, 1, 3, 3), None, [1, 1], [0, 0],
                              [1, 1], 1), TP_ERR_KERNEL_ARGS, [((1, 1, 1, 1), f32)]))

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
        maxpool_case("ties keep the first index", torch.randint(0, 3, (1, 2, 5, 6), generator=GEN).to(torch.float32),
                     [3, 3], [2, 2], [1, 1], [1, 1], True),
        maxpool_case("all negative, padding", randn(1, 1, 4, 4, offset=-5.0), [3, 3], [1, 1], [1, 1], [1, 1], False),
        maxpool_case("separate returns", randn(1, 2, 4, 4), [2, 2], [2, 2], [0, 0], [1, 1], False,
                     separate_returns=True),
    ]
    cs.append(error(maxpool_case("padding 2 > k/2", randn(1, 1, 6, 6), [3, 3], [1, 1], [2, 2], [1, 1], False),
                    TP_ERR_KERNEL_ARGS, [((1, 1, 8, 8), f32), ((1, 1, 8, 8), i64)]))

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
    cs.append(error(avgpool_case("divisor_override 0", randn(1, 1, 4, 4), [2, 2], [2, 2], [0, 0], False, True,
                                 divisor=0), TP_ERR_KERNEL_ARGS, [((1, 1, 2, 2), f32)]))
    cs.append(error(avgpool_case("padding 2 > k/2", randn(1, 1, 4, 4), [2, 2], [2, 2], [2, 2], False, True),
                    TP_ERR_KERNEL_ARGS, [((1, 1, 4, 4), f32)]))

    # _adaptive_avg_pool2d
    cs += [
        adaptive_case("8x8 -> 2x3", randn(1, 1, 8, 8), [2, 3]),
        adaptive_case("7x5 -> 3x4 batch 2", randn(2, 1, 7, 5), [3, 4]),
        adaptive_case("3-D global 5x5 -> 1x1", randn(3, 5, 5), [1, 1]),
        adaptive_case("upsample 2x3 -> 4x5", randn(1, 1, 2, 3), [4, 5]),
    ]
    cs.append(error(adaptive_case("output_size of 1 item", randn(1, 1, 4, 4), [2]), TP_ERR_KERNEL_ARGS,
                    [((1, 1, 2, 2), f32)]))

    # native_layer_norm
    cs += [
        layernorm_case("[4, 5] over [5]", randn(4, 5), [5], randn(5), randn(5), 1e-5),
        layernorm_case("[2, 3, 4] over [3, 4]", randn(2, 3, 4, offset=0.5), [3, 4], randn(3, 4), randn(3, 4), 1e-5),
        layernorm_case("no weight no bias", randn(3, 6), [6], None, None, 1e-5),
        layernorm_case("weight only eps 1e-3", randn(2, 2, 7, scale=2.0), [7], randn(7), None, 1e-3),
        layernorm_case("bias only, whole tensor", randn(3, 5), [3, 5], None, randn(3, 5), 1e-5),
        layernorm_case("separate returns", randn(2, 8), [8], randn(8), randn(8), 1e-5, separate_returns=True),
    ]
    cs.append(error(layernorm_case("normalized_shape [4] vs [5]", randn(3, 5), [4], None, None, 1e-5),
                    TP_ERR_KERNEL_ARGS, [((3, 5), f32), ((3, 1), f32), ((3, 1), f32)]))
    cs.append(error(layernorm_case("weight [4] vs [5]", randn(3, 5), [5], randn(4), None, 1e-5),
                    TP_ERR_KERNEL_ARGS, [((3, 5), f32), ((3, 1), f32), ((3, 1), f32)]))

    # _native_batch_norm_legit_no_training
    def bn_stats(c):
        return randn(c, scale=0.5), rand(c, lo=0.5, hi=2.0)

    m, v = bn_stats(3)
    cs.append(batchnorm_case("[2, 3, 4, 3]", randn(2, 3, 4, 3), randn(3), randn(3), m, v, 1e-5))
    m, v = bn_stats(4)
    cs.append(batchnorm_case("no weight no bias", randn(1, 4, 3, 3), None, None, m, v, 1e-5))
    m, v = bn_stats(5)
    cs.append(batchnorm_case("2-D [3, 5] eps 1e-3", randn(3, 5), randn(5), randn(5), m, v, 1e-3))
    m, v = bn_stats(3)
    cs.append(batchnorm_case("3-D [2, 3, 7]", randn(2, 3, 7), randn(3), None, m, v, 1e-5))
    m, v = bn_stats(2)
    cs.append(batchnorm_case("separate returns", randn(1, 2, 2, 2), randn(2), randn(2), m, v, 1e-5,
                             separate_returns=True))
    m, v = bn_stats(3)
    cs.append(error(batchnorm_case("running_mean length 3 vs 4", randn(1, 4, 2, 2), None, None, m, v, 1e-5),
                    TP_ERR_KERNEL_ARGS, [((1, 4, 2, 2), f32), ((0,), f32), ((0,), f32)]))
    return cs


# --- C emission ---------------------------------------------------------------------------
def c_float(x):
    if math.isnan(x):
        return "NAN"
    if math.isinf(x):
        return "INFINITY" if x > 0 else "-INFINITY"
    s = "%.9g" % x
    for digits in range(1, 10):  # the shortest decimal that reads back as the same float32
        t = "%.*g" % (digits, x)
        if struct.unpack("f", struct.pack("f", float(t)))[0] == x:
            s = t
            break
    if "e" not in s and "." not in s:
        s += ".0"
    return s + "f"


class Emitter:
    def __init__(self):
        self.decls, self.tensors, self.args, self.case_rows = [], [], [], []
        self.n = 0
        self.cache = {}

    def array(self, ctype, values, fmt):
        body = ", ".join(fmt(v) for v in values) if values else "0"
        key = (ctype, body)
        if key in self.cache:  # identical sizes, lists and values share one array
            return self.cache[key]
        name = "kb_a%d" % self.n
        self.n += 1
        self.cache[key] = name
        lines, line = [], ""
        for part in body.split(", "):
            if len(line) + len(part) > 100:
                lines.append(line.rstrip())
                line = ""
            line += part + ", "
        lines.append(line.rstrip(", "))
        self.decls.append("static const %s %s[] = {%s};" % (ctype, name, "\n  ".join(lines)))
        return name

    def tensor(self, shape, dtype, data):
        shape = list(shape)
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
        self.tensors.append("  {%d, %d, %s, %d, %s}," % (DTYPE[dtype], len(shape), sizes, numel, ptr))
        return len(self.tensors) - 1

    def arg(self, kind, tensor=-1, i=0, d=0.0, lst="NULL", n=0):
        self.args.append("{%s,%d,%d,%r,%s,%d}" % (kind, tensor, i, d, lst, n))

    def case(self, c):
        first = len(self.args)
        for kind, v in c.args:
            if kind == "in":
                self.arg("KB_IN", tensor=self.tensor(v.shape, v.dtype, v))
            elif kind == "none":
                self.arg("KB_NONE")
            elif kind == "int":
                self.arg("KB_INT", i=v)
            elif kind == "double":
                self.arg("KB_DOUBLE", d=v)
            elif kind == "bool":
                self.arg("KB_BOOL", i=int(v))
            elif kind == "ilist":
                self.arg("KB_INT_LIST", lst=self.array("int64_t", v, str) if v else "NULL",
                         n=len(v))
        out_pos = []
        if c.status == TP_OK:
            for o in c.expected:
                out_pos.append(len(self.args) - first)
                self.arg("KB_OUT", tensor=self.tensor(o.shape, o.dtype, o))
        else:
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
        self.case_rows.append('  {"%s", "%s", %d, %d, %d},' % (c.op, name, first, len(self.args) - first, c.status))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference", choices=["torch", "executorch"], default="torch")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels_b_cases.h"))
    opts = ap.parse_args()

    em = Emitter()
    for c in cases():
        if c.status == TP_OK:
            c.expected = torch_reference(c) if opts.reference == "torch" else executorch_reference(c)
            if len(c.expected) != c.n_out:
                sys.exit("%s %s: %d outputs, expected %d" % (c.op, c.name, len(c.expected), c.n_out))
        em.case(c)

    with open(opts.out, "w") as f:
        f.write("/* Generated by gen_kernels_b_cases.py (reference: %s); do not edit.\n" % opts.reference)
        f.write(" * Test cases for kernels_b_test.c; the types are defined there. */\n")
        f.write("/* clang-format off */\n\n")
        f.write("\n".join(em.decls) + "\n\n")
        f.write("static const kb_tensor kb_tensors[] = {\n%s\n};\n\n" % "\n".join(em.tensors))
        rows = [",".join(em.args[i:i + 4]) for i in range(0, len(em.args), 4)]
        f.write("static const kb_arg kb_args[] = {\n  %s\n};\n\n" % ",\n  ".join(rows))
        f.write("static const kb_case kb_cases[] = {\n%s\n};\n" % "\n".join(em.case_rows))
    print("wrote %s: %d cases" % (opts.out, len(em.case_rows)))


if __name__ == "__main__":
    main()
