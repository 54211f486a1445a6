"""The operator conformance cases: small modules, seeded inputs, tolerances, expected operators.

Each `Case` is one ExecuTorch program to export and run: a module (built, then given
parameters from a torch.Generator seeded by the case name, so adding a case never changes
another), its example inputs (same generator), the tolerance our runtime must meet against
ExecuTorch's own output (|got - want| <= abs + rel * |want|, element-wise), and the exact
set of operators ("namespace::name.overload") the exported .pte must call. generate.py
checks that set against the program, so the list documents what each case exercises.

A case whose export or host run is known to fail carries `unsupported="<reason>"`: the
generator then expects the failure (and fails if it stops failing) and emits no files.

Add a case: append to `CASES` with `case(name, module, [inputs], [operators], tolerance)`.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

# Operator names as they appear in a .pte's execution plan.
ADDMM = "aten::addmm.out"
MM = "aten::mm.out"
BMM = "aten::bmm.out"
ADD = "aten::add.out"
SUB = "aten::sub.out"
MUL = "aten::mul.out"
DIV = "aten::div.out"
RELU = "aten::relu.out"
HARDTANH = "aten::hardtanh.out"
SIGMOID = "aten::sigmoid.out"
TANH = "aten::tanh.out"
GELU = "aten::gelu.out"
CLAMP = "aten::clamp.out"
SOFTMAX = "aten::_softmax.out"
LOG_SOFTMAX = "aten::_log_softmax.out"
PERMUTE = "aten::permute_copy.out"
VIEW = "aten::view_copy.out"
CLONE = "dim_order_ops::_clone_dim_order.out"
EXPAND = "aten::expand_copy.out"
CAT = "aten::cat.out"
SQUEEZE = "aten::squeeze_copy.dims_out"
UNSQUEEZE = "aten::unsqueeze_copy.out"
CONV = "aten::convolution.out"
MAX_POOL = "aten::max_pool2d_with_indices.out"
AVG_POOL = "aten::avg_pool2d.out"
MEAN = "aten::mean.out"
SUM = "aten::sum.IntList_out"
LAYER_NORM = "aten::native_layer_norm.out"
BATCH_NORM = "aten::_native_batch_norm_legit_no_training.out"
PAD = "aten::constant_pad_nd.out"
ARGMAX = "aten::argmax.out"
FULL = "aten::full.out"
FULL_LIKE = "aten::full_like.out"
ADAPTIVE_AVG_POOL = "aten::_adaptive_avg_pool2d.out"
ADD_SCALAR = "aten::add.Scalar_out"
SUB_SCALAR = "aten::sub.Scalar_out"
MUL_SCALAR = "aten::mul.Scalar_out"
DIV_SCALAR = "aten::div.Scalar_out"
CLONE_ATEN = "aten::clone.out"
TO_COPY = "aten::_to_copy.out"
SQUEEZE_DIM = "aten::squeeze_copy.dim_out"
LEAKY_RELU = "aten::leaky_relu.out"
EMBEDDING = "aten::embedding.out"
SLICE = "aten::slice_copy.Tensor_out"
POW_TENSOR_SCALAR = "aten::pow.Tensor_Scalar_out"
UPSAMPLE_NEAREST = "aten::upsample_nearest2d.vec_out"


@dataclass(frozen=True)
class Tolerance:
    """Element-wise |got - want| <= abs + rel * |want|, or at most `ulps` float32 units in the
    last place apart (for libm functions, whose results differ by a few ulps between C libraries:
    glibc on the host, picolibc on the boards)."""

    rel: float
    abs: float
    ulps: int = 0


def ulps(count: int) -> Tolerance:
    """A libm function's tolerance: `count` ulps (tiny results near zero: 1e-30 absolute)."""
    return Tolerance(rel=0.0, abs=1e-30, ulps=count)


EXACT = Tolerance(rel=0.0, abs=0.0)  # integer results, copies, max/argmax
ELEMENTWISE = Tolerance(rel=1e-6, abs=1e-6)  # one rounding (or one libm call) per element
REDUCTION = Tolerance(rel=1e-6, abs=1e-5)  # sums of tens of terms: order of summation differs
MODEL = Tolerance(rel=1e-6, abs=2e-5)  # several accumulating layers


@dataclass(frozen=True)
class Input:
    """How to draw one example input: shape, dtype and value distribution."""

    shape: tuple[int, ...]
    dtype: torch.dtype = torch.float32
    # floats: normal | wide | nonzero | ties | unit (in (-1, 1)) | prob (in (0, 1)) | positive (in [0.01, 5)) |
    # ge1 (in [1, 5)); ints: uniform in [-50, 50) (uint8: [0, 100)), or "small" in [-8, 8)
    # (uint8: [0, 8)), "small_index" in [0, 5), "count" in [1, 10), "distinct" (no ties),
    # "natural" in [0, 50), "nonzero_int" in +-[1, 9];
    # bool: fair coin.
    kind: str = "normal"
    # Laid out channels-last (a 4-D tensor of dim order (0, 2, 3, 1)): the program's input then
    # has that dim order, and so do the values computed from it (generate.py writes tensors in
    # their memory order).
    channels_last: bool = False

    def make(self, generator: torch.Generator) -> torch.Tensor:
        tensor = self.values(generator)
        return tensor.to(memory_format=torch.channels_last) if self.channels_last else tensor

    def values(self, generator: torch.Generator) -> torch.Tensor:
        if self.dtype == torch.bool:
            return torch.randint(0, 2, self.shape, generator=generator).to(torch.bool)
        if not self.dtype.is_floating_point:
            if self.kind == "small_index":  # indices into a dimension of size >= 5: [0, 5)
                return torch.randint(0, 5, self.shape, generator=generator, dtype=self.dtype)
            if self.kind == "nonzero_int":  # divisors: [-9, -1] and [1, 9]
                magnitude = torch.randint(1, 10, self.shape, generator=generator, dtype=self.dtype)
                sign = torch.randint(0, 2, self.shape, generator=generator, dtype=self.dtype) * 2 - 1
                return magnitude * sign
            if self.kind == "distinct":  # a permutation of [-n/2, n/2): no ties
                count = math.prod(self.shape)
                perm = torch.randperm(count, generator=generator) - count // 2
                return perm.reshape(self.shape).to(self.dtype)
            if self.kind == "count":  # [1, 10)
                return torch.randint(1, 10, self.shape, generator=generator, dtype=self.dtype)
            if self.kind == "natural":  # [0, 50)
                return torch.randint(0, 50, self.shape, generator=generator, dtype=self.dtype)
            span = 8 if self.kind == "small" else 50
            first = 0 if self.dtype == torch.uint8 else -span
            last = 2 * span if self.dtype == torch.uint8 else span
            return torch.randint(first, last, self.shape, generator=generator, dtype=self.dtype)
        uniform = {"unit": (-0.99, 0.99), "prob": (0.01, 0.99), "positive": (0.01, 5.0), "ge1": (1.0, 5.0)}.get(
            self.kind
        )
        if uniform is not None:
            low, high = uniform
            return torch.rand(self.shape, generator=generator, dtype=self.dtype) * (high - low) + low
        if self.kind == "ties":  # few distinct values: max/argmax must pick the first maximum
            return torch.randint(0, 3, self.shape, generator=generator).to(self.dtype)
        values = torch.randn(self.shape, generator=generator, dtype=self.dtype)
        if self.kind == "wide":  # saturates sigmoid/tanh, stresses softmax stability
            return values * 12.0
        if self.kind == "nonzero":  # divisors: |x| in [0.5, 2.5)
            magnitude = torch.rand(self.shape, generator=generator, dtype=self.dtype) * 2.0 + 0.5
            return torch.where(values < 0, -magnitude, magnitude)
        if self.kind != "normal":
            raise ValueError(f"unknown input kind {self.kind!r}")
        return values


def f32(*shape: int, kind: str = "normal") -> Input:
    return Input(tuple(shape), torch.float32, kind)


def nhwc(*shape: int, kind: str = "normal") -> Input:
    """A float32 N, C, H, W tensor laid out channels-last."""
    return Input(tuple(shape), torch.float32, kind, channels_last=True)


def i32(*shape: int, kind: str = "normal") -> Input:
    return Input(tuple(shape), torch.int32, kind)


def i64(*shape: int, kind: str = "normal") -> Input:
    return Input(tuple(shape), torch.int64, kind)


def i16(*shape: int, kind: str = "normal") -> Input:
    return Input(tuple(shape), torch.int16, kind)


def i8(*shape: int, kind: str = "normal") -> Input:
    return Input(tuple(shape), torch.int8, kind)


def u8(*shape: int, kind: str = "normal") -> Input:
    return Input(tuple(shape), torch.uint8, kind)


def b8(*shape: int) -> Input:
    """A bool tensor."""
    return Input(tuple(shape), torch.bool)


@dataclass(frozen=True)
class Case:
    """One conformance case: everything the generator needs, already built."""

    name: str
    module: nn.Module
    inputs: tuple[torch.Tensor, ...]
    operators: tuple[str, ...]
    tolerance: Tolerance
    unsupported: str | None = None
    # int8 cases (cases_int8.py): the batches the Cortex-M quantizer is calibrated on. The
    # program is then the quantized one and the expected outputs come from the backend's
    # reference implementations (ExecuTorch's runtime has no cortex_m kernels).
    calibration: tuple[tuple[torch.Tensor, ...], ...] | None = None
    # Exported without tinypte's view elision and with ExecuTorch's `_skip_dim_order`, so the
    # program keeps operators the usual pipeline rewrites (aten::clone, squeeze_copy.dim, ...).
    raw: bool = False
    # ATen operators to keep whole (ExecuTorch's preserve_ops) instead of decomposing them into
    # core ATen, e.g. torch.ops.aten.logit.default: how a program reaches the portable kernels of
    # non-core operators. Exported like `raw` cases, with dim-order operators.
    keep: tuple[torch._ops.OpOverload, ...] = ()


class Fn(nn.Module):
    """A module whose forward is a pure function of its tensor inputs."""

    def __init__(self, fn: Callable[..., torch.Tensor | tuple[torch.Tensor, ...]]) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *inputs: torch.Tensor) -> torch.Tensor | tuple[torch.Tensor, ...]:
        return self.fn(*inputs)


def seed_of(name: str) -> int:
    return zlib.crc32(name.encode())


def reinitialise(module: nn.Module, generator: torch.Generator) -> None:
    """Draw every float parameter and batch-norm statistic from the case's generator."""
    with torch.no_grad():
        for _, parameter in sorted(module.named_parameters()):
            fan_in = math.prod(parameter.shape[1:]) if parameter.dim() >= 2 else 4
            parameter.copy_(torch.randn(parameter.shape, generator=generator) / math.sqrt(fan_in))
        for name, buffer in sorted(module.named_buffers()):
            if name.endswith("running_mean"):
                buffer.copy_(torch.randn(buffer.shape, generator=generator) * 0.5)
            elif name.endswith("running_var"):
                buffer.copy_(torch.rand(buffer.shape, generator=generator) * 1.5 + 0.25)


def case(
    name: str,
    module: nn.Module,
    inputs: Sequence[Input],
    operators: Sequence[str],
    tolerance: Tolerance = ELEMENTWISE,
    unsupported: str | None = None,
    raw: bool = False,
    keep: Sequence[torch._ops.OpOverload] = (),
) -> Case:
    generator = torch.Generator().manual_seed(seed_of(name))
    reinitialise(module, generator)
    module.eval()
    tensors = tuple(spec.make(generator) for spec in inputs)
    return Case(name, module, tensors, tuple(operators), tolerance, unsupported, raw=raw, keep=tuple(keep))


# ---------------------------------------------------------------------------------------
# Small modules that need more than a lambda.


class TinyMLP(nn.Module):
    """8 -> 16 -> 16 -> 4 with ReLU, softmax head."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(8, 16), nn.Linear(16, 16), nn.Linear(16, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        return torch.softmax(self.fc3(x), dim=-1)


class TinyCNN(nn.Module):
    """1x12x12 image -> conv/bn/relu/maxpool -> depthwise + pointwise conv -> mean -> linear."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.depthwise = nn.Conv2d(4, 4, 3, groups=4, bias=False)
        self.pointwise = nn.Conv2d(4, 8, 1)
        self.fc = nn.Linear(8, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(torch.relu(self.bn1(self.conv1(x))), 2)
        x = torch.relu(self.pointwise(self.depthwise(x)))
        logits: torch.Tensor = self.fc(x.mean(dim=(2, 3)))
        return logits


# ---------------------------------------------------------------------------------------
# The cases. Names are C identifiers (lower case): they name files and C arrays.

CASES: list[Case] = [
    # Linear algebra: nn.Linear on 2-D input is addmm (weight transposed at export time).
    case("addmm_linear", nn.Linear(5, 3), [f32(4, 5)], [ADDMM], REDUCTION),
    case("addmm_linear_batch1", nn.Linear(7, 1), [f32(1, 7)], [ADDMM], REDUCTION),
    case("addmm_linear_wide", nn.Linear(33, 17), [f32(3, 33)], [ADDMM], REDUCTION),
    case("addmm_beta_alpha", Fn(lambda b, x, y: torch.addmm(b, x, y, beta=0.5, alpha=2.0)),
         [f32(5), f32(3, 4), f32(4, 5)], [ADDMM], REDUCTION),
    case("addmm_bias_column", Fn(lambda b, x, y: torch.addmm(b, x, y)),
         [f32(3, 1), f32(3, 6), f32(6, 2)], [ADDMM], REDUCTION),
    case("mm_linear_nobias", nn.Linear(6, 4, bias=False), [f32(3, 6)], [MM], REDUCTION),
    case("mm_basic", Fn(torch.mm), [f32(3, 4), f32(4, 5)], [MM], REDUCTION),
    case("mm_outer", Fn(torch.mm), [f32(5, 1), f32(1, 3)], [MM], ELEMENTWISE),
    case("mm_dot", Fn(torch.mm), [f32(1, 9), f32(9, 1)], [MM], REDUCTION),
    case("bmm_basic", Fn(torch.bmm), [f32(2, 3, 4), f32(2, 4, 5)], [BMM], REDUCTION),
    case("bmm_batch1", Fn(torch.bmm), [f32(1, 7, 3), f32(1, 3, 1)], [BMM], REDUCTION),
    case("bmm_odd", Fn(torch.bmm), [f32(3, 5, 7), f32(3, 7, 2)], [BMM], REDUCTION),
    case("linear_3d", nn.Linear(4, 6), [f32(2, 3, 4)], [ADDMM, VIEW], REDUCTION),
    case("linear_3d_nobias", nn.Linear(4, 6, bias=False), [f32(2, 3, 4)], [MM, VIEW], REDUCTION),
    # add
    case("add_same", Fn(torch.add), [f32(2, 3), f32(2, 3)], [ADD]),
    case("add_bcast_row", Fn(torch.add), [f32(4, 3), f32(3)], [ADD]),
    case("add_bcast_col", Fn(torch.add), [f32(4, 3), f32(4, 1)], [ADD]),
    case("add_bcast_both", Fn(torch.add), [f32(2, 1, 4), f32(3, 1)], [ADD]),
    case("add_bcast_4d", Fn(torch.add), [f32(2, 3, 1, 5), f32(1, 3, 4, 1)], [ADD]),
    case("add_alpha", Fn(lambda x, y: torch.add(x, y, alpha=2.5)), [f32(3, 4), f32(3, 4)], [ADD]),
    case("add_scalar", Fn(lambda x: x + 2.0), [f32(2, 5)], [ADD]),
    case("add_0d", Fn(torch.add), [f32(2, 3), f32()], [ADD]),
    case("add_0d_both", Fn(torch.add), [f32(), f32()], [ADD]),
    case("add_int32", Fn(torch.add), [i32(3, 4), i32(3, 4)], [ADD], EXACT),
    case("add_int32_bcast", Fn(torch.add), [i32(2, 3, 4), i32(4)], [ADD], EXACT),
    case("add_int32_scalar", Fn(lambda x: x + 7), [i32(5)], [ADD], EXACT),
    case("add_int64", Fn(torch.add), [i64(3, 4), i64(1, 4)], [ADD], EXACT),
    case("add_int64_alpha", Fn(lambda x, y: torch.add(x, y, alpha=3)), [i64(6), i64(6)], [ADD], EXACT),
    # sub
    case("sub_same", Fn(torch.sub), [f32(2, 3), f32(2, 3)], [SUB]),
    case("sub_alpha", Fn(lambda x, y: torch.sub(x, y, alpha=2.0)), [f32(4, 3), f32(4, 3)], [SUB]),
    case("sub_bcast", Fn(torch.sub), [f32(3, 1), f32(1, 4)], [SUB]),
    case("sub_scalar", Fn(lambda x: x - 1.5), [f32(2, 2, 3)], [SUB]),
    case("sub_int32", Fn(torch.sub), [i32(5), i32(5)], [SUB], EXACT),
    # mul
    case("mul_same", Fn(torch.mul), [f32(2, 3), f32(2, 3)], [MUL]),
    case("mul_bcast_3d", Fn(torch.mul), [f32(2, 1, 3), f32(4, 1)], [MUL]),
    case("mul_scalar", Fn(lambda x: x * 0.25), [f32(3, 4)], [MUL]),
    case("mul_0d", Fn(torch.mul), [f32(), f32(3, 2)], [MUL]),
    case("mul_int32", Fn(torch.mul), [i32(3, 4), i32(3, 4)], [MUL], EXACT),
    case("mul_int32_scalar", Fn(lambda x: x * 3), [i32(2, 5)], [MUL], EXACT),
    case("mul_int64", Fn(torch.mul), [i64(2, 3), i64(3)], [MUL], EXACT),
    # div
    case("div_same", Fn(torch.div), [f32(3, 4), f32(3, 4, kind="nonzero")], [DIV]),
    case("div_bcast", Fn(torch.div), [f32(2, 3, 4), f32(3, 1, kind="nonzero")], [DIV]),
    case("div_scalar", Fn(lambda x: x / 3.0), [f32(5)], [DIV]),
    case("div_0d_lhs", Fn(torch.div), [f32(), f32(2, 3, kind="nonzero")], [DIV]),
    case("div_0d", Fn(torch.div), [f32(4), f32(kind="nonzero")], [DIV]),
    # activations
    case("relu_2d", Fn(torch.relu), [f32(3, 4)], [RELU], EXACT),
    case("relu_4d_odd", Fn(torch.relu), [f32(1, 3, 5, 7)], [RELU], EXACT),
    case("relu_0d", Fn(torch.relu), [f32()], [RELU], EXACT),
    case("relu_int32", Fn(torch.relu), [i32(4, 5)], [RELU], EXACT),
    case("relu_int64", Fn(torch.relu), [i64(9)], [RELU], EXACT),
    case("hardtanh_default", Fn(F.hardtanh), [f32(4, 4, kind="wide")], [HARDTANH], EXACT),
    case("hardtanh_range", Fn(lambda x: F.hardtanh(x, -0.5, 2.0)), [f32(3, 5)], [HARDTANH], EXACT),
    case("sigmoid_normal", Fn(torch.sigmoid), [f32(3, 5)], [SIGMOID]),
    case("sigmoid_wide", Fn(torch.sigmoid), [f32(64, kind="wide")], [SIGMOID]),
    case("tanh_normal", Fn(torch.tanh), [f32(2, 7)], [TANH]),
    case("tanh_wide", Fn(torch.tanh), [f32(64, kind="wide")], [TANH]),
    case("gelu_none", Fn(F.gelu), [f32(4, 6)], [GELU]),
    case("gelu_none_wide", Fn(F.gelu), [f32(64, kind="wide")], [GELU]),
    case("gelu_tanh", Fn(lambda x: F.gelu(x, approximate="tanh")), [f32(2, 3, 5, kind="wide")], [GELU]),
    case("clamp_both", Fn(lambda x: torch.clamp(x, -0.5, 0.75)), [f32(3, 4)], [CLAMP], EXACT),
    case("clamp_min", Fn(lambda x: torch.clamp(x, min=0.1)), [f32(2, 6)], [CLAMP], EXACT),
    case("clamp_max", Fn(lambda x: torch.clamp(x, max=-0.2)), [f32(5)], [CLAMP], EXACT),
    # softmax / log_softmax
    case("softmax_dim0", Fn(lambda x: torch.softmax(x, dim=0)), [f32(4, 3)], [SOFTMAX]),
    case("softmax_3d_mid", Fn(lambda x: torch.softmax(x, dim=1)), [f32(2, 5, 3)], [SOFTMAX]),
    case("softmax_neg2", Fn(lambda x: torch.softmax(x, dim=-2)), [f32(2, 3, 4)], [SOFTMAX]),
    case("softmax_size1", Fn(lambda x: torch.softmax(x, dim=1)), [f32(4, 1)], [SOFTMAX]),
    case("softmax_wide", Fn(lambda x: torch.softmax(x, dim=-1)), [f32(2, 33, kind="wide")], [SOFTMAX]),
    case("log_softmax_last", Fn(lambda x: torch.log_softmax(x, dim=-1)), [f32(3, 5)], [LOG_SOFTMAX]),
    case("log_softmax_dim0", Fn(lambda x: torch.log_softmax(x, dim=0)), [f32(4, 3)], [LOG_SOFTMAX]),
    case("log_softmax_3d", Fn(lambda x: torch.log_softmax(x, dim=1)), [f32(2, 4, 3, kind="wide")],
         [LOG_SOFTMAX]),
    # layout: permute, view/reshape/flatten, clone, expand
    case("permute_3d", Fn(lambda x: x.permute(2, 0, 1)), [f32(2, 3, 4)], [PERMUTE], EXACT),
    case("permute_nhwc", Fn(lambda x: x.permute(0, 2, 3, 1)), [f32(1, 3, 2, 5)], [PERMUTE], EXACT),
    case("permute_transpose", Fn(lambda x: x.t()), [f32(3, 5)], [PERMUTE], EXACT),
    case("permute_negative", Fn(lambda x: x.permute(-1, -3, -2)), [f32(4, 1, 3)], [PERMUTE], EXACT),
    case("view_basic", Fn(lambda x: x.view(6, 4)), [f32(2, 3, 4)], [VIEW], EXACT),
    case("view_reshape_infer", Fn(lambda x: x.reshape(-1, 2)), [f32(3, 4)], [VIEW], EXACT),
    case("view_flatten", Fn(lambda x: torch.flatten(x, 1)), [f32(2, 3, 2, 2)], [VIEW], EXACT),
    case("view_to_1d", Fn(lambda x: x.reshape(-1)), [f32(3, 1, 3)], [VIEW], EXACT),
    case("view_int32", Fn(lambda x: x.view(2, 6)), [i32(3, 4)], [VIEW], EXACT),
    case("view_int64", Fn(lambda x: x.reshape(4, -1)), [i64(2, 2, 3)], [VIEW], EXACT),
    case("clone_basic", Fn(torch.clone), [f32(3, 4)], [CLONE], EXACT),
    case("clone_then_add", Fn(lambda x: x.clone() + x), [f32(5)], [CLONE, ADD], EXACT),
    case("expand_col", Fn(lambda x: x.expand(3, 4)), [f32(3, 1)], [EXPAND], EXACT),
    case("expand_new_dim", Fn(lambda x: x.expand(2, 2, 3)), [f32(1, 3)], [EXPAND], EXACT),
    case("expand_infer", Fn(lambda x: x.expand(-1, 5, -1)), [f32(2, 1, 3)], [EXPAND], EXACT),
    # cat / squeeze / unsqueeze
    case("cat_dim0", Fn(lambda x, y: torch.cat([x, y])), [f32(2, 3), f32(1, 3)], [CAT], EXACT),
    case("cat_dim1", Fn(lambda x, y: torch.cat([x, y], dim=1)), [f32(2, 3), f32(2, 4)], [CAT], EXACT),
    case("cat_neg_three", Fn(lambda x, y, z: torch.cat([x, y, z], dim=-1)),
         [f32(2, 2, 1), f32(2, 2, 3), f32(2, 2, 2)], [CAT], EXACT),
    case("cat_4d_channels", Fn(lambda x, y: torch.cat([x, y], dim=1)), [f32(1, 2, 3, 3), f32(1, 1, 3, 3)],
         [CAT], EXACT),
    case("cat_int32", Fn(lambda x, y: torch.cat([x, y], dim=0)), [i32(2, 2), i32(3, 2)], [CAT], EXACT),
    case("cat_int64", Fn(lambda x, y: torch.cat([x, y], dim=-1)), [i64(3), i64(4)], [CAT], EXACT),
    # squeeze/unsqueeze inside a program become views ExecuTorch elides (tinypte/views.py): no operator
    case("squeeze_views_elided", Fn(lambda x: torch.relu(torch.relu(torch.relu(x).squeeze(1)).unsqueeze(0))),
         [f32(2, 1, 3)], [RELU], EXACT),
    case("squeeze_dim", Fn(lambda x: x.squeeze(1)), [f32(2, 1, 3)], [SQUEEZE], EXACT),
    case("squeeze_all", Fn(lambda x: x.squeeze()), [f32(1, 3, 1, 2)], [SQUEEZE], EXACT),
    case("squeeze_neg", Fn(lambda x: x.squeeze(-1)), [f32(4, 1)], [SQUEEZE], EXACT),
    case("unsqueeze_front", Fn(lambda x: x.unsqueeze(0)), [f32(3, 2)], [UNSQUEEZE], EXACT),
    case("unsqueeze_neg", Fn(lambda x: x.unsqueeze(-1)), [f32(2, 3)], [UNSQUEEZE], EXACT),
    case("unsqueeze_0d", Fn(lambda x: x.unsqueeze(0)), [f32()], [UNSQUEEZE], EXACT),
    # Activation fusion: the relu/hardtanh/clamp folds into the producer (runtime/src/fusion.c),
    # except where the producer's out has another reader.
    case("fuse_linear_relu", nn.Sequential(nn.Linear(9, 20), nn.ReLU()), [f32(2, 9)], [ADDMM, RELU], REDUCTION),
    case("fuse_linear_shared", Fn(lambda x, w: (lambda y: torch.relu(y) + y)(x @ w)), [f32(3, 5), f32(5, 6)],
         [MM, RELU, ADD], REDUCTION),
    case("fuse_conv_relu", nn.Sequential(nn.Conv2d(2, 3, 3, padding=1), nn.ReLU()), [f32(1, 2, 5, 11)],
         [CONV, RELU], REDUCTION),
    case("fuse_pointwise_hardtanh", nn.Sequential(nn.Conv2d(3, 4, 1), nn.Hardtanh(-0.5, 0.5)), [f32(1, 3, 4, 6)],
         [CONV, HARDTANH], REDUCTION),
    case("fuse_bmm_clamp", Fn(lambda x, y: torch.clamp(torch.bmm(x, y), min=-0.1)), [f32(2, 3, 4), f32(2, 4, 9)],
         [BMM, CLAMP], REDUCTION),
    # conv2d
    case("conv_tall_filter", nn.Conv2d(2, 2, (5, 3), padding=(2, 1)), [f32(1, 2, 6, 7)], [CONV], REDUCTION),
    case("conv_wide_rows", nn.Conv2d(1, 2, 3, padding=2), [f32(1, 1, 4, 13)], [CONV], REDUCTION),
    case("conv_same_odd", nn.Conv2d(3, 5, 3, padding=1), [f32(2, 3, 5, 7)], [CONV], REDUCTION),
    case("conv_same_depthwise", nn.Conv2d(4, 8, 3, padding=1, groups=4), [f32(1, 4, 6, 9)], [CONV], REDUCTION),
    case("conv_basic", nn.Conv2d(2, 3, 3), [f32(1, 2, 5, 5)], [CONV], REDUCTION),
    case("conv_padding", nn.Conv2d(3, 4, 3, padding=1), [f32(1, 3, 6, 6)], [CONV], REDUCTION),
    case("conv_stride2", nn.Conv2d(2, 4, 3, stride=2, padding=1), [f32(1, 2, 7, 7)], [CONV], REDUCTION),
    case("conv_dilation", nn.Conv2d(2, 2, 3, dilation=2, padding=2), [f32(1, 2, 7, 6)], [CONV], REDUCTION),
    case("conv_depthwise", nn.Conv2d(4, 4, 3, groups=4, padding=1), [f32(1, 4, 5, 5)], [CONV], REDUCTION),
    case("conv_depthwise_mult", nn.Conv2d(3, 6, 3, groups=3, stride=2), [f32(1, 3, 7, 7)], [CONV], REDUCTION),
    case("conv_groups2", nn.Conv2d(4, 6, 3, groups=2), [f32(2, 4, 4, 5)], [CONV], REDUCTION),
    case("conv_nobias", nn.Conv2d(3, 2, 3, bias=False), [f32(1, 3, 4, 4)], [CONV], REDUCTION),
    case("conv_pointwise", nn.Conv2d(5, 3, 1), [f32(1, 5, 3, 3)], [CONV], REDUCTION),
    case("conv_rect", nn.Conv2d(2, 3, (3, 1), stride=(2, 1), padding=(1, 0)), [f32(1, 2, 7, 4)], [CONV], REDUCTION),
    case("conv_batch2", nn.Conv2d(1, 2, 2), [f32(2, 1, 4, 3)], [CONV], REDUCTION),
    # pooling
    case("max_pool_2x2", Fn(lambda x: F.max_pool2d(x, 2)), [f32(1, 2, 4, 6)], [MAX_POOL], EXACT),
    case("max_pool_3s2p1", Fn(lambda x: F.max_pool2d(x, 3, stride=2, padding=1)), [f32(1, 3, 7, 7)],
         [MAX_POOL], EXACT),
    case("max_pool_ceil", Fn(lambda x: F.max_pool2d(x, 2, ceil_mode=True)), [f32(1, 1, 5, 7)], [MAX_POOL], EXACT),
    case("max_pool_stride1", Fn(lambda x: F.max_pool2d(x, (2, 3), stride=1)), [f32(2, 1, 4, 5)], [MAX_POOL], EXACT),
    case("max_pool_dilation", Fn(lambda x: F.max_pool2d(x, 2, stride=1, dilation=2)), [f32(1, 2, 5, 5)],
         [MAX_POOL], EXACT),
    case("max_pool_ties", Fn(lambda x: F.max_pool2d(x, 2)), [f32(1, 2, 4, 4, kind="ties")], [MAX_POOL], EXACT),
    case("avg_pool_2x2", Fn(lambda x: F.avg_pool2d(x, 2)), [f32(1, 2, 4, 6)], [AVG_POOL]),
    case("avg_pool_pad_include", Fn(lambda x: F.avg_pool2d(x, 3, stride=1, padding=1)), [f32(1, 2, 5, 5)],
         [AVG_POOL]),
    case("avg_pool_pad_exclude", Fn(lambda x: F.avg_pool2d(x, 3, stride=1, padding=1, count_include_pad=False)),
         [f32(1, 2, 5, 5)], [AVG_POOL]),
    case("avg_pool_ceil", Fn(lambda x: F.avg_pool2d(x, 3, stride=2, ceil_mode=True)), [f32(1, 1, 6, 8)],
         [AVG_POOL]),
    case("avg_pool_ceil_pad_exclude",
         Fn(lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)),
         [f32(1, 2, 6, 6)], [AVG_POOL]),
    case("avg_pool_ceil_pad_include", Fn(lambda x: F.avg_pool2d(x, 2, stride=2, padding=1, ceil_mode=True)),
         [f32(1, 1, 5, 6)], [AVG_POOL]),
    case("avg_pool_divisor", Fn(lambda x: F.avg_pool2d(x, 2, divisor_override=3)), [f32(1, 1, 4, 4)], [AVG_POOL]),
    # reductions
    case("mean_last", Fn(lambda x: x.mean(dim=-1)), [f32(3, 7)], [MEAN], REDUCTION),
    case("mean_keepdim", Fn(lambda x: x.mean(dim=1, keepdim=True)), [f32(2, 5, 3)], [MEAN], REDUCTION),
    case("mean_spatial", Fn(lambda x: x.mean(dim=(2, 3), keepdim=True)), [f32(1, 3, 4, 5)], [MEAN], REDUCTION),
    case("mean_all_dims", Fn(lambda x: x.mean(dim=(0, 1))), [f32(3, 4)], [MEAN], REDUCTION),
    case("sum_neg_keepdim", Fn(lambda x: x.sum(dim=-1, keepdim=True)), [f32(2, 3, 5)], [SUM], REDUCTION),
    case("sum_two_dims", Fn(lambda x: x.sum(dim=(0, 2))), [f32(3, 2, 4)], [SUM], REDUCTION),
    case("sum_all", Fn(lambda x: x.sum()), [f32(5, 5)], [SUM], REDUCTION),
    case("argmax_dim1", Fn(lambda x: x.argmax(dim=1)), [f32(3, 5)], [ARGMAX], EXACT),
    case("argmax_neg_keepdim", Fn(lambda x: x.argmax(dim=-1, keepdim=True)), [f32(2, 3, 4)], [ARGMAX], EXACT),
    case("argmax_dim0_ties", Fn(lambda x: x.argmax(dim=0)), [f32(6, 3, kind="ties")], [ARGMAX], EXACT),
    case("argmax_flat", Fn(lambda x: x.argmax()), [f32(3, 4)], [ARGMAX], EXACT),
    # normalisation
    case("layer_norm_last", nn.LayerNorm(8), [f32(2, 3, 8)], [LAYER_NORM], REDUCTION),
    case("layer_norm_two_dims", nn.LayerNorm((3, 4)), [f32(2, 3, 4)], [LAYER_NORM], REDUCTION),
    case("layer_norm_no_affine", nn.LayerNorm(5, elementwise_affine=False), [f32(4, 5)], [LAYER_NORM], REDUCTION),
    case("batch_norm_2d", nn.BatchNorm2d(3), [f32(2, 3, 4, 4)], [BATCH_NORM], REDUCTION),
    case("batch_norm_no_affine", nn.BatchNorm2d(2, affine=False), [f32(1, 2, 3, 5)], [BATCH_NORM], REDUCTION),
    case("batch_norm_1d", nn.BatchNorm1d(4), [f32(3, 4)], [BATCH_NORM], REDUCTION),
    case("batch_norm_1d_seq", nn.BatchNorm1d(3, eps=1e-3), [f32(2, 3, 5)], [BATCH_NORM], REDUCTION),
    # constant_pad_nd
    case("pad_last", Fn(lambda x: F.pad(x, (1, 2))), [f32(2, 3)], [PAD], EXACT),
    case("pad_two_dims_value", Fn(lambda x: F.pad(x, (1, 0, 2, 1), value=0.5)), [f32(1, 2, 3, 3)], [PAD], EXACT),
    case("pad_three_dims", Fn(lambda x: F.pad(x, (0, 1, 1, 0, 1, 1))), [f32(2, 2, 2)], [PAD], EXACT),
    case("pad_negative", Fn(lambda x: F.pad(x, (-1, 1))), [f32(2, 4)], [PAD], EXACT,
         unsupported="ExecuTorch's constant_pad_nd kernel rejects negative padding (cropping)"),
    # full / zeros_like / ones_like
    case("full_plus_input", Fn(lambda x: torch.full((2, 3), 1.5) + x), [f32(2, 3)], [FULL, ADD]),
    case("zeros_like", Fn(torch.zeros_like), [f32(3, 2)], [FULL_LIKE], EXACT),
    case("ones_like_add", Fn(lambda x: torch.ones_like(x) + x), [f32(4)], [FULL_LIKE, ADD]),
    case("full_like_int32", Fn(lambda x: torch.full_like(x, 7)), [i32(2, 2)], [FULL_LIKE], EXACT),
    # Scalar overloads: what a program calling them directly gets (exports usually make the scalar a tensor)
    case("add_scalar_overload", Fn(lambda x: torch.ops.aten.add.Scalar(x, 2.5, alpha=2)), [f32(2, 3)], [ADD_SCALAR]),
    case("add_scalar_overload_int32", Fn(lambda x: torch.ops.aten.add.Scalar(x, 3)), [i32(5)], [ADD_SCALAR], EXACT),
    case("sub_scalar_overload", Fn(lambda x: torch.ops.aten.sub.Scalar(x, 0.75)), [f32(4, 2)], [SUB_SCALAR]),
    case("sub_scalar_overload_int64", Fn(lambda x: torch.ops.aten.sub.Scalar(x, 9)), [i64(3, 2)], [SUB_SCALAR],
         EXACT),
    case("mul_scalar_overload", Fn(lambda x: torch.ops.aten.mul.Scalar(x, -1.5)), [f32(3, 3)], [MUL_SCALAR]),
    case("mul_scalar_overload_int32", Fn(lambda x: torch.ops.aten.mul.Scalar(x, 4)), [i32(2, 4)], [MUL_SCALAR],
         EXACT),
    case("div_scalar_overload", Fn(lambda x: torch.ops.aten.div.Scalar(x, 3.0)), [f32(7)], [DIV_SCALAR]),
    case("div_scalar_overload_0d", Fn(lambda x: torch.ops.aten.div.Scalar(x, -0.5)), [f32()], [DIV_SCALAR]),
    case("clone_aten", Fn(lambda x: torch.ops.aten.clone.default(x) * 2), [f32(3, 2)],
         [CLONE_ATEN, TO_COPY, MUL], raw=True),
    case("clone_aten_int32", Fn(lambda x: torch.ops.aten.clone.default(x) + 1), [i32(4)],
         [CLONE_ATEN, TO_COPY, ADD], EXACT, raw=True),
    case("squeeze_dim_overload", Fn(lambda x: torch.ops.aten.squeeze_copy.dim(x, 1)), [f32(2, 1, 3)], [SQUEEZE_DIM],
         EXACT, raw=True, unsupported="torch.export canonicalises squeeze(dim) to squeeze_copy.dims"),
    case("squeeze_dim_overload_neg", Fn(lambda x: torch.ops.aten.squeeze_copy.dim(x, -1)), [i64(3, 1)],
         [SQUEEZE_DIM], EXACT, raw=True, unsupported="torch.export canonicalises squeeze(dim) to squeeze_copy.dims"),
    case("adaptive_avg_pool_2x3", nn.AdaptiveAvgPool2d((2, 3)), [f32(1, 2, 5, 7)], [ADAPTIVE_AVG_POOL], REDUCTION),
    case("adaptive_avg_pool_3x2", nn.AdaptiveAvgPool2d((3, 2)), [f32(2, 3, 7, 5)], [ADAPTIVE_AVG_POOL], REDUCTION),
    case("to_copy_int32_to_float", Fn(lambda x: x.to(torch.float32) * 0.5), [i32(2, 3)], [TO_COPY, MUL],
         raw=True),
    case("to_copy_float_to_int64", Fn(lambda x: x.to(torch.int64) + 1), [f32(7, kind="wide")], [TO_COPY, ADD],
         EXACT, raw=True),
    case("leaky_relu_default", Fn(F.leaky_relu), [f32(3, 5, kind="wide")], [LEAKY_RELU], EXACT),
    case("leaky_relu_slope", Fn(lambda x: F.leaky_relu(x, 0.2)), [f32(2, 4, 6)], [LEAKY_RELU], EXACT),
    case("leaky_relu_0d", Fn(lambda x: F.leaky_relu(x, 0.5)), [f32()], [LEAKY_RELU], EXACT),
    # The operators users' first models met missing (issue 12)
    case("embedding_tokens", nn.Embedding(11, 6), [i64(2, 5, kind="small_index")], [EMBEDDING], EXACT),
    case("embedding_int32_index", Fn(lambda w, i: F.embedding(i, w)), [f32(9, 4), i32(7, kind="small_index")],
         [EMBEDDING], EXACT),
    case("embedding_0d_index", Fn(lambda w, i: F.embedding(i, w)), [f32(5, 3), i64(kind="small_index")],
         [EMBEDDING], EXACT),
    case("slice_rows", Fn(lambda x: x[1:3] * 1.0), [f32(5, 4)], [SLICE, MUL]),
    case("slice_step_last", Fn(lambda x: x[:, :, ::2] + 0), [f32(2, 3, 7)], [SLICE, ADD]),
    case("slice_negative", Fn(lambda x: x[..., -3:-1] * 2), [i32(3, 6)], [SLICE, MUL], EXACT),
    case("slice_int64_mid_step", Fn(lambda x: x[1::3, :] + 1), [i64(8, 3)], [SLICE, ADD], EXACT),
    case("pow_square", Fn(lambda x: x**2), [f32(4, 5, kind="wide")], [POW_TENSOR_SCALAR], EXACT),
    case("pow_mse", Fn(lambda x, y: ((x - y) ** 2).mean(dim=1)), [f32(3, 8), f32(3, 8)],
         [SUB, POW_TENSOR_SCALAR, MEAN], REDUCTION),
    case("pow_fractional", Fn(lambda x: x**1.7), [f32(6, kind="positive")], [POW_TENSOR_SCALAR], ulps(2)),
    case("pow_cube_int32", Fn(lambda x: x**3), [i32(9)], [POW_TENSOR_SCALAR], EXACT),
    case("pow_int64_zero", Fn(lambda x: x**0), [i64(2, 2)], [POW_TENSOR_SCALAR], EXACT),
    case("upsample_nearest_x2", Fn(lambda x: F.interpolate(x, scale_factor=2, mode="nearest")), [f32(1, 2, 3, 4)],
         [UPSAMPLE_NEAREST], EXACT),
    case("upsample_nearest_size", Fn(lambda x: F.interpolate(x, size=(5, 7), mode="nearest")), [f32(2, 1, 3, 4)],
         [UPSAMPLE_NEAREST], EXACT),
    case("upsample_nearest_down", Fn(lambda x: F.interpolate(x, size=(2, 3), mode="nearest")), [f32(1, 3, 5, 7)],
         [UPSAMPLE_NEAREST], EXACT),
    case("upsample_nearest_uint8", Fn(lambda x: F.interpolate(x, scale_factor=(1.5, 2.5), mode="nearest")),
         [u8(1, 1, 4, 2)], [UPSAMPLE_NEAREST], EXACT),
    # several outputs, shared intermediates
    case("two_outputs", Fn(lambda x, y: (x + y, x * y)), [f32(2, 3), f32(3)], [ADD, MUL]),
    # tiny models
    case("model_mlp", TinyMLP(), [f32(2, 8)], [ADDMM, RELU, SOFTMAX], MODEL),
    # Its batch norm is folded into conv1 at export (tinypte.export.pipeline): no batch norm call.
    case("model_cnn", TinyCNN(), [f32(1, 1, 12, 12)], [CONV, RELU, MAX_POOL, MEAN, ADDMM], MODEL),
]  # fmt: skip
