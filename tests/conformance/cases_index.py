"""Conformance cases of the indexing and creation operators (portable-kernel parity): gather,
scatter, scatter_add, index_select, advanced indexing (index, index_put), masked_scatter,
nonzero and masked_select (data-dependent out shapes, and kernels that take them on), arange, zeros/ones/empty/fill/scalar_tensor and the dtype conversion copy. Index inputs are
drawn in range ("small_index": [0, 5)). See cases.py for how a case is written."""

from __future__ import annotations

from collections.abc import Callable

import torch
from cases import EXACT, Case, Fn, Input, b8, case, f32, i8, i32, i64, u8

aten = torch.ops.aten


def op(name: str) -> str:
    return f"aten::{name}"


def device_copy(name: str) -> Callable[[torch.Tensor], torch.Tensor]:
    """x -> et_copy::<name>(x) + 1 (the operators are registered by ExecuTorch's device pass module)."""

    def forward(x: torch.Tensor) -> torch.Tensor:
        import executorch.exir.passes._device_copy_ops_registry  # noqa: F401

        copied: torch.Tensor = getattr(torch.ops.et_copy, name)(x)
        return copied + 1.0

    return forward


def idx(*shape: int, dtype: Callable[..., Input] = i64) -> Input:
    """An input drawn in [0, 5) ("small_index": in range as an index), int64 unless told."""
    return dtype(*shape, kind="small_index")


def exact(
    name: str,
    fn: Callable[..., torch.Tensor],
    inputs: list[Input],
    operators: list[str],
    keep: tuple[torch._ops.OpOverload, ...] = (),
    unsupported: str | None = None,
) -> Case:
    """A case of a pure function whose outputs must equal ExecuTorch's bit for bit (EXACT): indexing,
    copies and fills compute nothing that could round differently."""
    return case(name, Fn(fn), inputs, operators, EXACT, unsupported=unsupported, keep=keep)


ADD = op("add.out")
MUL = op("mul.out")
NONZERO = op("nonzero.out")
MASKED_SELECT = op("masked_select.out")
KEEP_MASKED_SELECT = (aten.masked_select.default,)
CASES: list[Case] = [
    exact("gather_dim1", lambda x, i: torch.gather(x, 1, i), [f32(3, 5), idx(3, 4)], [op("gather.out")]),
    exact("gather_dim0_int32", lambda x, i: torch.gather(x, 0, i), [i32(6, 3), idx(2, 3)], [op("gather.out")]),
    exact(
        "scatter_src",
        lambda x, i, s: torch.scatter(x, 0, i, s),
        [f32(5, 3), idx(2, 3), f32(2, 3)],
        [op("scatter.src_out")],
    ),
    exact("scatter_value", lambda x, i: torch.scatter(x, 1, i, 2.5), [f32(3, 6), idx(3, 2)], [op("scatter.value_out")]),
    case(
        "scatter_add_f32",
        Fn(lambda x, i, s: torch.scatter_add(x, 1, i, s)),
        [f32(2, 5), idx(2, 7), f32(2, 7)],
        [op("scatter_add.out")],
    ),
    exact(
        "scatter_add_int32",
        lambda x, i, s: torch.scatter_add(x, 0, i, s),
        [i32(5, 2), idx(4, 2), i32(4, 2)],
        [op("scatter_add.out")],
    ),
    exact("index_select_f32", lambda x, i: torch.index_select(x, 1, i), [f32(3, 5), idx(4)], [op("index_select.out")]),
    exact(
        "index_select_int8",
        lambda x, i: torch.index_select(x, 0, i),
        [i8(5, 2), idx(3, dtype=i32)],
        [op("index_select.out")],
    ),
    exact("index_one", lambda x, i: x[i], [f32(5, 3), idx(2, 2)], [op("index.Tensor_out")]),
    exact("index_adjacent", lambda x, i, j: x[:, i, j], [f32(2, 5, 6), idx(3), idx(3)], [op("index.Tensor_out")]),
    exact("index_split", lambda x, i, j: x[i, :, j], [f32(5, 2, 5), idx(4), idx(1)], [op("index.Tensor_out")]),
    exact(
        "index_put", lambda x, i, v: torch.index_put(x, (i,), v), [f32(6, 3), idx(2), f32(2, 3)], [op("index_put.out")]
    ),
    case(
        "index_put_accumulate",
        Fn(lambda x, i, v: torch.index_put(x, (i,), v, accumulate=True)),
        [f32(5, 2), idx(4), f32(2)],
        [op("index_put.out")],
    ),
    exact(
        "masked_scatter_f32",
        lambda x, m, s: x.masked_scatter(m, s),
        [f32(3, 4), b8(4), f32(12)],
        [op("masked_scatter.out")],
    ),
    exact("arange_end", lambda x: x + torch.arange(6), [i64(6)], [op("arange.out"), ADD], keep=(aten.arange.default,)),
    exact(
        "arange_start_step",
        lambda x: x * torch.arange(1.0, 3.0, 0.25),
        [f32(8)],
        [op("arange.start_out"), MUL],
        keep=(aten.arange.start_step,),
    ),
    exact(
        "zeros_add", lambda x: x + torch.zeros(2, 3), [f32(2, 3)], [op("zeros.out"), ADD], keep=(aten.zeros.default,)
    ),
    exact(
        "ones_int32",
        lambda x: x + torch.ones(4, dtype=torch.int32),
        [i32(4)],
        [op("ones.out"), ADD],
        keep=(aten.ones.default,),
    ),
    case(
        "empty_filled",
        Fn(lambda x: x + torch.empty(3).fill_(1.5)),
        [f32(3)],
        [op("empty.out"), op("fill.Scalar_out"), ADD],
        EXACT,
        keep=(aten.empty.memory_format, aten.fill.Scalar),
        raw=True,
    ),
    exact(
        "empty_dim_order_filled",
        lambda x: x * torch.empty(2, 2).fill_(2.0),
        [f32(2, 2)],
        ["dim_order_ops::_empty_dim_order.out", op("fill.Scalar_out"), MUL],
        keep=(aten.empty.memory_format, aten.fill.Scalar),
    ),
    exact(
        "fill_scalar", lambda x: aten.fill.Scalar(x, -3), [i8(2, 3)], [op("fill.Scalar_out")], keep=(aten.fill.Scalar,)
    ),
    exact(
        "fill_tensor",
        lambda x, v: aten.fill.Tensor(x, v),
        [f32(2, 4), f32()],
        [op("fill.Tensor_out")],
        keep=(aten.fill.Tensor,),
    ),
    exact(
        "scalar_tensor",
        lambda x: x * torch.scalar_tensor(0.5),
        [f32(3)],
        [op("scalar_tensor.out"), MUL],
        keep=(aten.scalar_tensor.default,),
    ),
    exact(
        "to_dim_order_copy",
        lambda x: x.to(torch.int32),
        [f32(3, 4, kind="wide")],
        ["dim_order_ops::_to_dim_order_copy.out"],
    ),
    exact("to_dim_order_copy_bool", lambda x: x.to(torch.float32), [b8(5)], ["dim_order_ops::_to_dim_order_copy.out"]),
    exact(
        "repeat_interleave_counts",
        lambda r: torch.repeat_interleave(r * 0 + 2, output_size=8),
        [i64(4)],
        [op("mul.out"), op("add.out"), op("repeat_interleave.Tensor_out")],
        keep=(aten.repeat_interleave.Tensor,),
    ),
    # In-place operators: export rewrites them into their out forms (copy.out, index_put.out).
    exact(
        "copy_inplace",
        lambda x, y: x.clone().copy_(y),
        [f32(3), f32(3)],
        [op("copy_.default")],
        keep=(aten.copy_.default,),
        unsupported="export functionalizes copy_ into copy.out",
    ),
    exact(
        "index_put_inplace",
        lambda x, i, v: x.clone().index_put_((i,), v),
        [f32(5), idx(2), f32(2)],
        [op("index_put_.default")],
        keep=(aten.index_put_.default,),
        unsupported="export functionalizes index_put_ into index_put.out",
    ),
    # Data-dependent shapes: the out is a dynamic tensor; its rows are counted when the program runs.
    exact("nonzero_int32", torch.nonzero, [idx(3, 5, dtype=i32)], [NONZERO]),
    exact("nonzero_bool_3d", torch.nonzero, [b8(2, 3, 4)], [NONZERO]),
    exact("nonzero_f32_relu", lambda x: torch.nonzero(torch.relu(x)), [f32(4, 5)], [op("relu.out"), NONZERO]),
    exact("nonzero_uint8_1d", torch.nonzero, [u8(9)], [NONZERO]),
    exact(
        "nonzero_then_sum",
        lambda x: torch.nonzero(x).sum(),
        [idx(4, 3, dtype=i32)],
        [NONZERO, "dim_order_ops::_to_dim_order_copy.out", op("sum.IntList_out")],
    ),
    exact("masked_select_f32", torch.masked_select, [f32(3, 4), b8(3, 4)], [MASKED_SELECT], keep=KEEP_MASKED_SELECT),
    exact(
        "masked_select_mask_broadcast",
        torch.masked_select,
        [i64(2, 3, 4), b8(3, 1)],
        [MASKED_SELECT],
        keep=KEEP_MASKED_SELECT,
    ),
    exact(
        "masked_select_self_broadcast_int8",
        torch.masked_select,
        [i8(4), b8(3, 4)],
        [MASKED_SELECT],
        keep=KEEP_MASKED_SELECT,
        unsupported="ExecuTorch plans masked_select's out for self's size, not the broadcast size",
    ),
    exact(
        "masked_select_then_mul_add",
        lambda x, m, y: torch.masked_select(x, m) * 2.0 + torch.masked_select(y, m),
        [f32(5, 4), b8(5, 4), f32(5, 4)],
        [MASKED_SELECT, MUL, ADD],
        keep=KEEP_MASKED_SELECT,
    ),
    case(
        "masked_select_then_exp_mean",
        Fn(lambda x, m: torch.masked_select(x, m).exp().mean(dim=0, keepdim=True)),
        [f32(6, 3), b8(6, 3)],
        [MASKED_SELECT, op("exp.out"), op("mean.out")],
        keep=KEEP_MASKED_SELECT,
    ),
    exact(  # the binary engine (nary.c) resizing its dynamic out
        "masked_select_then_gt",
        lambda x, m, y: torch.masked_select(x, m) > torch.masked_select(y, m),
        [f32(4, 5), b8(4, 5), f32(4, 5)],
        [MASKED_SELECT, op("gt.Tensor_out")],
        keep=KEEP_MASKED_SELECT,
    ),
    exact(
        "masked_select_none_true",
        lambda x, m: torch.masked_select(x, torch.logical_and(m, torch.logical_not(m))),
        [f32(3, 3), b8(3, 3)],
        [op("logical_not.out"), op("logical_and.out"), MASKED_SELECT],
        keep=KEEP_MASKED_SELECT,
    ),
    # ExecuTorch's device copies: only its device memory planning (delegates with device memory) puts
    # them in a program; a plain export traces them as clones.
    exact(
        "device_copy_h2d",
        device_copy("_h2d_copy"),
        [f32(3)],
        ["et_copy::_h2d_copy.out", op("add.out")],
        unsupported="export traces et_copy ops as clones",
    ),
    exact(
        "device_copy_d2h",
        device_copy("_d2h_copy"),
        [f32(3)],
        ["et_copy::_d2h_copy.out", op("add.out")],
        unsupported="export traces et_copy ops as clones",
    ),
]
