"""Conformance cases of the indexing and creation operators (portable-kernel parity): gather,
scatter, scatter_add, index_select, advanced indexing (index, index_put), masked_scatter,
nonzero and masked_select (data-dependent out shapes, and kernels that take them on), arange, zeros/ones/empty/fill/scalar_tensor and the dtype conversion copy. Index inputs are
drawn in range ("small_index": [0, 5)). See cases.py for how a case is written."""

from __future__ import annotations

from collections.abc import Callable

import torch
from cases import EXACT, Case, Fn, b8, case, f32, i8, i32, i64, u8

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


ADD = op("add.out")
MUL = op("mul.out")
NONZERO = op("nonzero.out")
MASKED_SELECT = op("masked_select.out")
KEEP_MASKED_SELECT = (aten.masked_select.default,)
CASES: list[Case] = [
    case(
        "gather_dim1",
        Fn(lambda x, i: torch.gather(x, 1, i)),
        [f32(3, 5), i64(3, 4, kind="small_index")],
        [op("gather.out")],
        EXACT,
    ),
    case(
        "gather_dim0_int32",
        Fn(lambda x, i: torch.gather(x, 0, i)),
        [i32(6, 3), i64(2, 3, kind="small_index")],
        [op("gather.out")],
        EXACT,
    ),
    case(
        "scatter_src",
        Fn(lambda x, i, s: torch.scatter(x, 0, i, s)),
        [f32(5, 3), i64(2, 3, kind="small_index"), f32(2, 3)],
        [op("scatter.src_out")],
        EXACT,
    ),
    case(
        "scatter_value",
        Fn(lambda x, i: torch.scatter(x, 1, i, 2.5)),
        [f32(3, 6), i64(3, 2, kind="small_index")],
        [op("scatter.value_out")],
        EXACT,
    ),
    case(
        "scatter_add_f32",
        Fn(lambda x, i, s: torch.scatter_add(x, 1, i, s)),
        [f32(2, 5), i64(2, 7, kind="small_index"), f32(2, 7)],
        [op("scatter_add.out")],
    ),
    case(
        "scatter_add_int32",
        Fn(lambda x, i, s: torch.scatter_add(x, 0, i, s)),
        [i32(5, 2), i64(4, 2, kind="small_index"), i32(4, 2)],
        [op("scatter_add.out")],
        EXACT,
    ),
    case(
        "index_select_f32",
        Fn(lambda x, i: torch.index_select(x, 1, i)),
        [f32(3, 5), i64(4, kind="small_index")],
        [op("index_select.out")],
        EXACT,
    ),
    case(
        "index_select_int8",
        Fn(lambda x, i: torch.index_select(x, 0, i)),
        [i8(5, 2), i32(3, kind="small_index")],
        [op("index_select.out")],
        EXACT,
    ),
    case(
        "index_one", Fn(lambda x, i: x[i]), [f32(5, 3), i64(2, 2, kind="small_index")], [op("index.Tensor_out")], EXACT
    ),
    case(
        "index_adjacent",
        Fn(lambda x, i, j: x[:, i, j]),
        [f32(2, 5, 6), i64(3, kind="small_index"), i64(3, kind="small_index")],
        [op("index.Tensor_out")],
        EXACT,
    ),
    case(
        "index_split",
        Fn(lambda x, i, j: x[i, :, j]),
        [f32(5, 2, 5), i64(4, kind="small_index"), i64(1, kind="small_index")],
        [op("index.Tensor_out")],
        EXACT,
    ),
    case(
        "index_put",
        Fn(lambda x, i, v: torch.index_put(x, (i,), v)),
        [f32(6, 3), i64(2, kind="small_index"), f32(2, 3)],
        [op("index_put.out")],
        EXACT,
    ),
    case(
        "index_put_accumulate",
        Fn(lambda x, i, v: torch.index_put(x, (i,), v, accumulate=True)),
        [f32(5, 2), i64(4, kind="small_index"), f32(2)],
        [op("index_put.out")],
    ),
    case(
        "masked_scatter_f32",
        Fn(lambda x, m, s: x.masked_scatter(m, s)),
        [f32(3, 4), b8(4), f32(12)],
        [op("masked_scatter.out")],
        EXACT,
    ),
    case(
        "arange_end",
        Fn(lambda x: x + torch.arange(6)),
        [i64(6)],
        [op("arange.out"), ADD],
        EXACT,
        keep=(aten.arange.default,),
    ),
    case(
        "arange_start_step",
        Fn(lambda x: x * torch.arange(1.0, 3.0, 0.25)),
        [f32(8)],
        [op("arange.start_out"), MUL],
        EXACT,
        keep=(aten.arange.start_step,),
    ),
    case(
        "zeros_add",
        Fn(lambda x: x + torch.zeros(2, 3)),
        [f32(2, 3)],
        [op("zeros.out"), ADD],
        EXACT,
        keep=(aten.zeros.default,),
    ),
    case(
        "ones_int32",
        Fn(lambda x: x + torch.ones(4, dtype=torch.int32)),
        [i32(4)],
        [op("ones.out"), ADD],
        EXACT,
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
    case(
        "empty_dim_order_filled",
        Fn(lambda x: x * torch.empty(2, 2).fill_(2.0)),
        [f32(2, 2)],
        ["dim_order_ops::_empty_dim_order.out", op("fill.Scalar_out"), MUL],
        EXACT,
        keep=(aten.empty.memory_format, aten.fill.Scalar),
    ),
    case(
        "fill_scalar",
        Fn(lambda x: aten.fill.Scalar(x, -3)),
        [i8(2, 3)],
        [op("fill.Scalar_out")],
        EXACT,
        keep=(aten.fill.Scalar,),
    ),
    case(
        "fill_tensor",
        Fn(lambda x, v: aten.fill.Tensor(x, v)),
        [f32(2, 4), f32()],
        [op("fill.Tensor_out")],
        EXACT,
        keep=(aten.fill.Tensor,),
    ),
    case(
        "scalar_tensor",
        Fn(lambda x: x * torch.scalar_tensor(0.5)),
        [f32(3)],
        [op("scalar_tensor.out"), MUL],
        EXACT,
        keep=(aten.scalar_tensor.default,),
    ),
    case(
        "to_dim_order_copy",
        Fn(lambda x: x.to(torch.int32)),
        [f32(3, 4, kind="wide")],
        ["dim_order_ops::_to_dim_order_copy.out"],
        EXACT,
    ),
    case(
        "to_dim_order_copy_bool",
        Fn(lambda x: x.to(torch.float32)),
        [b8(5)],
        ["dim_order_ops::_to_dim_order_copy.out"],
        EXACT,
    ),
    case(
        "repeat_interleave_counts",
        Fn(lambda r: torch.repeat_interleave(r * 0 + 2, output_size=8)),
        [i64(4)],
        [op("mul.out"), op("add.out"), op("repeat_interleave.Tensor_out")],
        EXACT,
        keep=(aten.repeat_interleave.Tensor,),
    ),
    # In-place operators: export rewrites them into their out forms (copy.out, index_put.out).
    case(
        "copy_inplace",
        Fn(lambda x, y: x.clone().copy_(y)),
        [f32(3), f32(3)],
        [op("copy_.default")],
        EXACT,
        keep=(aten.copy_.default,),
        unsupported="export functionalizes copy_ into copy.out",
    ),
    case(
        "index_put_inplace",
        Fn(lambda x, i, v: x.clone().index_put_((i,), v)),
        [f32(5), i64(2, kind="small_index"), f32(2)],
        [op("index_put_.default")],
        EXACT,
        keep=(aten.index_put_.default,),
        unsupported="export functionalizes index_put_ into index_put.out",
    ),
    # Data-dependent shapes: the out is a dynamic tensor; its rows are counted when the program runs.
    case("nonzero_int32", Fn(torch.nonzero), [i32(3, 5, kind="small_index")], [NONZERO], EXACT),
    case("nonzero_bool_3d", Fn(torch.nonzero), [b8(2, 3, 4)], [NONZERO], EXACT),
    case("nonzero_f32_relu", Fn(lambda x: torch.nonzero(torch.relu(x))), [f32(4, 5)], [op("relu.out"), NONZERO], EXACT),
    case("nonzero_uint8_1d", Fn(torch.nonzero), [u8(9)], [NONZERO], EXACT),
    case(
        "nonzero_then_sum",
        Fn(lambda x: torch.nonzero(x).sum()),
        [i32(4, 3, kind="small_index")],
        [NONZERO, "dim_order_ops::_to_dim_order_copy.out", op("sum.IntList_out")],
        EXACT,
    ),
    case(
        "masked_select_f32",
        Fn(torch.masked_select),
        [f32(3, 4), b8(3, 4)],
        [MASKED_SELECT],
        EXACT,
        keep=KEEP_MASKED_SELECT,
    ),
    case(
        "masked_select_mask_broadcast",
        Fn(torch.masked_select),
        [i64(2, 3, 4), b8(3, 1)],
        [MASKED_SELECT],
        EXACT,
        keep=KEEP_MASKED_SELECT,
    ),
    case(
        "masked_select_self_broadcast_int8",
        Fn(torch.masked_select),
        [i8(4), b8(3, 4)],
        [MASKED_SELECT],
        EXACT,
        keep=KEEP_MASKED_SELECT,
        unsupported="ExecuTorch plans masked_select's out for self's size, not the broadcast size",
    ),
    case(
        "masked_select_then_mul_add",
        Fn(lambda x, m, y: torch.masked_select(x, m) * 2.0 + torch.masked_select(y, m)),
        [f32(5, 4), b8(5, 4), f32(5, 4)],
        [MASKED_SELECT, MUL, ADD],
        EXACT,
        keep=KEEP_MASKED_SELECT,
    ),
    case(
        "masked_select_then_exp_mean",
        Fn(lambda x, m: torch.masked_select(x, m).exp().mean(dim=0, keepdim=True)),
        [f32(6, 3), b8(6, 3)],
        [MASKED_SELECT, op("exp.out"), op("mean.out")],
        keep=KEEP_MASKED_SELECT,
    ),
    case(  # the binary engine (nary.c) resizing its dynamic out
        "masked_select_then_gt",
        Fn(lambda x, m, y: torch.masked_select(x, m) > torch.masked_select(y, m)),
        [f32(4, 5), b8(4, 5), f32(4, 5)],
        [MASKED_SELECT, op("gt.Tensor_out")],
        EXACT,
        keep=KEEP_MASKED_SELECT,
    ),
    case(
        "masked_select_none_true",
        Fn(lambda x, m: torch.masked_select(x, torch.logical_and(m, torch.logical_not(m)))),
        [f32(3, 3), b8(3, 3)],
        [op("logical_not.out"), op("logical_and.out"), MASKED_SELECT],
        EXACT,
        keep=KEEP_MASKED_SELECT,
    ),
    # ExecuTorch's device copies: only its device memory planning (delegates with device memory) puts
    # them in a program; a plain export traces them as clones.
    case(
        "device_copy_h2d",
        Fn(device_copy("_h2d_copy")),
        [f32(3)],
        ["et_copy::_h2d_copy.out", op("add.out")],
        EXACT,
        unsupported="export traces et_copy ops as clones",
    ),
    case(
        "device_copy_d2h",
        Fn(device_copy("_d2h_copy")),
        [f32(3)],
        ["et_copy::_d2h_copy.out", op("add.out")],
        EXACT,
        unsupported="export traces et_copy ops as clones",
    ),
]
