"""The int8 export flow (tinypte.quantize) on a small MLP: cortex_m operators in the program,
outputs of the quantized program (run through the reference implementations) close to the
float model's, same bytes twice, and what stayed float reported."""

from __future__ import annotations

import sys
from functools import cache
from typing import Any

import pytest
import torch
from torch import nn

from tinypte import quantize

CALIBRATION_BATCHES = 16


@cache
def mlp() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)).eval()
    return model, (torch.randn(1, 8),)


def calibration() -> list[tuple[torch.Tensor, ...]]:
    generator = torch.Generator().manual_seed(1)
    return [(torch.randn(1, 8, generator=generator),) for _ in range(CALIBRATION_BATCHES)]


def edge() -> Any:
    """A fresh int8 edge program (to_executorch consumes one)."""
    model, example = mlp()
    return quantize.quantize_program(model, example, calibration())


def operators(pte: bytes) -> list[str]:
    from executorch.exir._serialize._program import deserialize_pte_binary

    program = deserialize_pte_binary(pte).program
    return [f"{op.name}.{op.overload}" for plan in program.execution_plan for op in plan.operators]


def test_program_calls_cortex_m_operators() -> None:
    ops = operators(quantize.export_int8_program(edge()))
    assert "cortex_m::quantized_linear.out" in ops
    assert "cortex_m::quantize_per_tensor.out" in ops
    assert "cortex_m::dequantize_per_tensor.out" in ops
    assert not any(op.startswith("aten::addmm") for op in ops), ops


def test_reference_outputs_close_to_float() -> None:
    model, _ = mlp()
    module = edge().exported_program().module()
    checked = 0
    generator = torch.Generator().manual_seed(2)
    for _ in range(8):
        x = torch.randn(1, 8, generator=generator)
        want = model(x)
        got = module(x)
        assert got.shape == want.shape
        assert float((got - want).abs().max()) < 0.1 * float(want.abs().max()) + 0.05
        checked += 1
    assert checked == 8


def test_same_bytes_twice() -> None:
    """The whole flow, calibration included, twice from scratch."""
    assert quantize.export_int8_program(edge()) == quantize.export_int8_program(edge())


def test_nothing_left_float_in_an_mlp() -> None:
    assert quantize.float_nodes(edge()) == []


def test_calibration_is_required() -> None:
    model, example = mlp()
    with pytest.raises(ValueError, match="calibration"):
        quantize.quantize_program(model, example, [])


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
