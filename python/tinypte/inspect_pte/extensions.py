"""Kernel extensions a program needs: the parts of a kernel only some programs use.

The runtime's reading of dim orders other than 0..n-1, and a kernel's rarely needed routines (aten::convolution's general routine for transposed, 3-D
and channels-last convolutions; aten::max_pool2d_with_indices on integers and on channels-last
floats; the int8/uint8/int16/bool and promoted-dtype routines of elementwise, reduction and
matrix-product kernels; the int8 convolutions run over their own input; the float32 product's
two-row loop, for products of two or more rows) live in extension
kernels (runtime/kernels/extensions/),
which the kernel calls through a weak reference: firmware links one only when its kernel
registry lists it, and the registry lists it when a program's ops.json names it here. So a
program of contiguous 2-D convolutions does not carry the general routine.

The tests of what needs what mirror the kernels' own choices (convolution.c's prepare); a
program whose call needs an extension this missed fails the build's trial init naming the
instruction (TP_ERR_UNSUPPORTED), never runs wrong.
"""

from __future__ import annotations

from typing import Any

CONV_GENERAL = "tinypte::conv_general.ext"
MAX_POOL_INT = "tinypte::max_pool_int.ext"
MAX_POOL_NHWC = "tinypte::max_pool_nhwc.ext"
DIM_ORDERS = "tinypte::dim_orders.ext"
DTYPES = "tinypte::dtypes.ext"
S8_CONV_IN_PLACE = "tinypte::s8_conv_in_place.ext"
GEMM_ROWS = "tinypte::gemm_rows.ext"
# The int8 convolutions that run in place when their out is stored over their input
# (tinypte.quantize.in_place plans it; cortex_m/engines/s8_conv.c's prepare checks it).
S8_CONVOLUTIONS = {("cortex_m::quantized_conv2d_nhwc", "out"), ("cortex_m::quantized_depthwise_conv2d_nhwc", "out")}

# Operators whose routines for float32, int32 and int64 (one dtype for every tensor) are the
# kernel's own and whose other dtypes (int8, uint8, int16, bool; an integer self promoted to a
# float32 out) are the dtype extension's (runtime/kernels/portable/engines/dtypes.h).
DTYPE_EXTENDED = {
    ("aten::add", "out"), ("aten::sub", "out"), ("aten::mul", "out"), ("aten::add", "Scalar_out"),
    ("aten::sub", "Scalar_out"), ("aten::mul", "Scalar_out"), ("aten::div", "Scalar_out"),
    ("aten::pow", "Tensor_Scalar_out"), ("aten::relu", "out"), ("aten::hardtanh", "out"), ("aten::clamp", "out"),
    ("aten::sigmoid", "out"), ("aten::tanh", "out"), ("aten::sum", "IntList_out"), ("aten::avg_pool2d", "out"),
}  # fmt: skip
# Matrix products: every dtype but float32 is the extension's.
DTYPE_EXTENDED_MATMUL = {("aten::mm", "out"), ("aten::bmm", "out"), ("aten::addmm", "out")}
COMMON_DTYPES = {"FLOAT", "INT", "LONG"}


def channels_last(tensor: dict[str, Any]) -> bool:
    """The runtime's reading of a Tensor's dim order (runtime/src/plan.c): channels-last when its
    order, dims of size 1 left out, is (0, 2, .., n-1, 1)'s and not (0..n-1)'s, and it has more
    than one channel and more than one spatial position."""
    sizes = [int(s) for s in tensor.get("sizes") or []]
    order = [int(d) for d in tensor.get("dim_order") or []]
    if len(sizes) not in (4, 5) or len(order) != len(sizes):
        return False
    spatial = 1
    for size in sizes[2:]:
        spatial *= size
    if sizes[1] == 1 or spatial == 1:
        return False
    significant = [d for d in order if sizes[d] != 1]
    return significant != sorted(significant)


def for_values(values: list[dict[str, Any]]) -> set[str]:
    """The extensions the program's values need: the runtime's dim-order reading when a tensor
    has another dim order than 0..n-1 (runtime/src/dim_order.c)."""
    for value in values:
        if value.get("val_type") != "Tensor":
            continue
        order = [int(d) for d in value["val"].get("dim_order") or []]
        if order != list(range(len(order))):
            return {DIM_ORDERS}
    return set()


def needs_dtypes(operator: str, overload: str, args: list[dict[str, Any]]) -> bool:
    """Whether a call takes its kernel's routines for less common dtypes (a superset of the
    kernels' own choice: tensors of more than one dtype, or of one outside float32, int32 and
    int64, or for pow an integer base with an exponent other than a non-negative Int)."""
    dtypes = {v["val"].get("scalar_type") for v in args if v.get("val_type") == "Tensor"}
    if (operator, overload) in DTYPE_EXTENDED_MATMUL:
        return dtypes != {"FLOAT"}
    if (operator, overload) not in DTYPE_EXTENDED:
        return False
    if len(dtypes) > 1 or not dtypes <= COMMON_DTYPES:
        return True
    if operator in ("aten::hardtanh", "aten::avg_pool2d"):
        return dtypes != {"FLOAT"}
    if operator == "aten::pow" and dtypes != {"FLOAT"}:
        exponent = args[1] if len(args) > 1 else {}
        return exponent.get("val_type") != "Int" or int(exponent["val"].get("int_val", -1)) < 0
    return False


def product_rows(operator: str, args: list[dict[str, Any]]) -> int:
    """The rows of a float32 matrix product's first matrix (addmm's mat1, mm's self, bmm's
    self per batch): the products of two or more rows take the two-row loop."""
    first = args[1] if operator == "aten::addmm" else args[0] if args else {}
    sizes = [int(s) for s in (first["val"].get("sizes") or [])] if first.get("val_type") == "Tensor" else []
    return sizes[-2] if len(sizes) >= 2 else 1


def _storage(value: dict[str, Any]) -> tuple[int, int] | None:
    """(memory id, offset) of a planned tensor, else None."""
    info = value["val"].get("allocation_info") if value.get("val_type") == "Tensor" else None
    if not info:
        return None
    return int(info["memory_id"]), int(info["memory_offset_low"]) + (int(info["memory_offset_high"]) << 32)


def in_place(args: list[dict[str, Any]]) -> bool:
    """Whether a call's input (its first argument) is stored where another of its tensors is."""
    first = _storage(args[0]) if args else None
    return first is not None and any(_storage(v) == first for v in args[1:])


def needed(operator: str, overload: str, call: dict[str, Any], values: list[dict[str, Any]]) -> set[str]:
    """The extensions one KernelCall needs."""
    args = [values[i] for i in call["args"]]
    if needs_dtypes(operator, overload, args):
        return {DTYPES}
    if (operator, overload) in S8_CONVOLUTIONS:
        return {S8_CONV_IN_PLACE} if in_place(args) else set()
    if (operator, overload) == ("aten::max_pool2d_with_indices", "out"):
        first = args[0] if args else {}
        floating = first.get("val_type") == "Tensor" and first["val"].get("scalar_type") == "FLOAT"
        tensors = [v["val"] for v in args if v.get("val_type") == "Tensor"]
        if not floating:
            return {MAX_POOL_INT}
        return {MAX_POOL_NHWC} if any(channels_last(t) for t in tensors) else set()
    if (operator, overload) in DTYPE_EXTENDED_MATMUL:
        return {GEMM_ROWS} if product_rows(operator, args) >= 2 else set()
    if (operator, overload) != ("aten::convolution", "out"):
        return set()
    tensors = [v["val"] for v in args if v.get("val_type") == "Tensor"]
    transposed = len(args) > 6 and args[6].get("val_type") == "Bool" and bool(args[6]["val"].get("bool_val"))
    three_d = bool(tensors) and len(tensors[0].get("sizes") or []) == 5
    if transposed or three_d or any(channels_last(t) for t in tensors):
        return {CONV_GENERAL}
    return {GEMM_ROWS}  # a 1 x 1 convolution's product: out channels x positions
