"""Conformance cases of the comparison, bitwise and logical operators (portable-kernel parity):
tensor and Scalar overloads, broadcasting, mixed dtypes (an int tensor against a float one
compares in float), bool outputs. See cases.py for how a case is written."""

from __future__ import annotations

import torch
from cases import EXACT, Case, Fn, b8, case, f32, i8, i16, i32, i64, u8


def tensor_op(name: str) -> str:
    return f"aten::{name}.Tensor_out"


def scalar_op(name: str) -> str:
    return f"aten::{name}.Scalar_out"


def _comparison_cases() -> list[Case]:
    functions = [
        ("eq", torch.eq),
        ("ne", torch.ne),
        ("lt", torch.lt),
        ("le", torch.le),
        ("gt", torch.gt),
        ("ge", torch.ge),
    ]
    cases = []
    for name, fn in functions:
        cases += [
            # "ties" inputs repeat values, so equality holds often.
            case(f"{name}_f32", Fn(fn), [f32(3, 4, kind="ties"), f32(3, 4, kind="ties")], [tensor_op(name)], EXACT),
            case(
                f"{name}_bcast_int32",
                Fn(fn),
                [i32(2, 3, 1, kind="small"), i32(4, kind="small")],
                [tensor_op(name)],
                EXACT,
            ),
            case(f"{name}_mixed", Fn(fn), [i64(5, kind="small"), f32(5, kind="ties")], [tensor_op(name)], EXACT),
            case(
                f"{name}_scalar_f32",
                Fn(lambda x, fn=fn: fn(x, 1.0)),
                [f32(2, 6, kind="ties")],
                [scalar_op(name)],
                EXACT,
            ),
            case(f"{name}_scalar_int8", Fn(lambda x, fn=fn: fn(x, 3)), [i8(9, kind="small")], [scalar_op(name)], EXACT),
        ]
    cases += [
        case(
            "eq_scalar_int_vs_float", Fn(lambda x: torch.eq(x, 2.5)), [i32(6, kind="small")], [scalar_op("eq")], EXACT
        ),
        case("ne_bool", Fn(torch.ne), [b8(3, 3), b8(3)], [tensor_op("ne")], EXACT),
        case("lt_uint8_int16", Fn(torch.lt), [u8(8, kind="small"), i16(8, kind="small")], [tensor_op("lt")], EXACT),
    ]
    return cases


def _bitwise_cases() -> list[Case]:
    cases = []
    for name, fn in [("and", torch.bitwise_and), ("or", torch.bitwise_or), ("xor", torch.bitwise_xor)]:
        op = f"bitwise_{name}"
        cases += [
            case(f"{op}_int32", Fn(fn), [i32(3, 5), i32(5)], [tensor_op(op)], EXACT),
            case(f"{op}_uint8", Fn(fn), [u8(7), u8(7)], [tensor_op(op)], EXACT),
            case(f"{op}_bool", Fn(fn), [b8(2, 4), b8(2, 4)], [tensor_op(op)], EXACT),
            case(f"{op}_mixed_int", Fn(fn), [i8(6), i64(6)], [tensor_op(op)], EXACT),
            case(f"{op}_scalar_int16", Fn(lambda x, fn=fn: fn(x, 12)), [i16(9)], [scalar_op(op)], EXACT),
        ]
    for name, fn in [("left", torch.bitwise_left_shift), ("right", torch.bitwise_right_shift)]:
        op = f"bitwise_{name}_shift"
        # Not core ATen: kept whole, or export would refuse it.
        packet = getattr(torch.ops.aten, op)
        keep = (packet.Tensor, packet.Tensor_Scalar)
        shifts = i32(4, 3, kind="small_index")  # 0..4 bits
        cases += [
            case(f"{op}_int32", Fn(fn), [i32(4, 3), shifts], [tensor_op(op)], EXACT, keep=keep),
            case(f"{op}_int8", Fn(fn), [i8(10), i8(10, kind="small_index")], [tensor_op(op)], EXACT, keep=keep),
            case(
                f"{op}_scalar_int64",
                Fn(lambda x, fn=fn: fn(x, 3)),
                [i64(7)],
                [f"aten::{op}.Tensor_Scalar_out"],
                EXACT,
                keep=keep,
            ),
        ]
    return cases


def _logical_cases() -> list[Case]:
    cases = []
    for name, fn in [("and", torch.logical_and), ("or", torch.logical_or), ("xor", torch.logical_xor)]:
        op = f"aten::logical_{name}.out"
        cases += [
            case(f"logical_{name}_bool", Fn(fn), [b8(3, 4), b8(4)], [op], EXACT),
            case(f"logical_{name}_f32", Fn(fn), [f32(8, kind="ties"), f32(8, kind="ties")], [op], EXACT),
            case(f"logical_{name}_int_float", Fn(fn), [i32(2, 5, kind="small"), f32(2, 1, kind="ties")], [op], EXACT),
        ]
    return cases


CASES: list[Case] = _comparison_cases() + _bitwise_cases() + _logical_cases()
