"""Unit tests of op_profile: a hand-written trace split into kernel calls, the shapes of a
hand-written call's tensors, and the table."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from fake_code import FakeCode
from op_profile import Call, report, split_calls, tensor_shapes

from machines.execute_count import ExecuteCounter

# main calls tp_method_execute from 0x010 (returns to 0x014). The executor runs 2 instructions,
# calls a kernel at 0x200 (3 instructions), runs 2, calls a kernel at 0x300 that calls a helper
# at 0x400 (5 instructions in all), runs 1, calls the first kernel again straight from the
# second's return (2 instructions), and returns after 1 more.
TRACE = [
    *[0x00C, 0x010],
    *[0x100, 0x102],
    *[0x200, 0x202, 0x204],
    *[0x104, 0x106],
    *[0x300, 0x302, 0x400, 0x402, 0x304],
    0x108,
    *[0x200, 0x204],
    0x10A,
    *[0x014, 0x018],
]


def test_a_trace_splits_into_interpreter_and_calls() -> None:
    code = FakeCode()
    counter = ExecuteCounter(code, wanted=1)
    interpreter, calls = split_calls(TRACE * 2, code.execute, code.execute_end, counter)
    assert (interpreter, calls) == (6, [3, 5, 2])
    (count,) = counter.counts
    assert count.instructions == interpreter + sum(calls) == 16
    assert count.kernel_calls == len(calls)


def test_only_the_first_execute_is_split() -> None:
    code = FakeCode()
    addresses = iter(TRACE * 3)
    split_calls(addresses, code.execute, code.execute_end, ExecuteCounter(code))
    assert next(addresses) == 0x018  # stopped at the first call's return


def test_no_execute_call_gives_nothing() -> None:
    code = FakeCode()
    counter = ExecuteCounter(code, wanted=1)
    assert split_calls([0x00C, 0x010, 0x014], code.execute, code.execute_end, counter) == (0, [])
    assert not counter.counts


def _tensor(sizes: list[int], planned: bool = True) -> dict[str, Any]:
    val: dict[str, Any] = {"scalar_type": "CHAR", "sizes": sizes}
    if planned:
        val["allocation_info"] = {"memory_id": 1, "memory_offset_low": 0, "memory_offset_high": 0}
    return {"val_type": "Tensor", "val": val}


def test_shapes_name_inputs_weight_and_output() -> None:
    values = [
        _tensor([1, 25, 5, 64]),  # 0 input
        _tensor([64, 1, 1, 64], planned=False),  # 1 weight
        _tensor([64], planned=False),  # 2 bias
        {"val_type": "Int", "val": {"int_val": 3}},  # 3
        _tensor([1024]),  # 4 scratch
        _tensor([1, 25, 5, 64]),  # 5 out
        _tensor([1, 12], planned=False),  # 6 a second constant
        {"val_type": "TensorList", "val": {"items": [0, 5]}},  # 7
        _tensor([8]),  # 8 a 1-D input
    ]
    assert tensor_shapes([0, 1, 2, 3, 4, 6, 5, 5], values) == "in [1,25,5,64] w [64,1,1,64] out [1,25,5,64]"
    assert tensor_shapes([0, 0, 5, 5], values) == "in [1,25,5,64] out [1,25,5,64]"
    assert tensor_shapes([8, 3, 4, 4], values) == "in [8] out [1024]"
    assert tensor_shapes([1, 8, 0, 5, 7], values) == "in [8] w [64,1,1,64] out [1,25,5,64] out [1,25,5,64]"


def test_report_lists_calls_the_interpreter_the_total_and_operators() -> None:
    calls = [Call(0, "q", "in [4]", 0), Call(1, "conv", "in [2,2]", 100), Call(2, "conv", "", 50)]
    lines = report(calls, 25, [25, 300, 150], sort=True, top=2)
    assert [line.split()[:2] for line in lines[1:5]] == [
        ["1", "conv"],
        ["2", "conv"],
        ["(1", "more"],
        ["interpreter", "25"],
    ]
    assert lines[5].split() == ["total", "3", "kernel", "calls", "150", "500", "3.33", "100.0", "%"]
    assert lines[1].split()[-4:] == ["300", "3.00", "60.0", "%"]
    assert lines[7] == "per operator:"
    assert [line.split() for line in lines[9:]] == [
        ["conv", "2", "150", "450", "3.00", "90.0", "%"],
        ["q", "1", "0", "25", "5.0", "%"],
    ]


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
