"""The int8 export flow (tinypte.quantize.cortex_m) on a small MLP: cortex_m operators in the program,
outputs of the quantized program (run through the reference implementations) close to the
float model's, same bytes twice, and what stayed float reported."""

from __future__ import annotations

import sys
from functools import cache
from typing import Any

import pytest
import torch
from torch import nn

from tinypte.quantize import cortex_m as quantize

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


def test_nodes_the_quantizer_leaves_float_are_reported_with_a_reason() -> None:
    """A layer norm has no Cortex-M pattern: it stays float32 and the summary says so."""
    from tinypte.inspect_pte.command import quant_summary_lines

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.LayerNorm(16), nn.Linear(16, 4)).eval()
    left = quantize.float_nodes(quantize.quantize_program(model, (torch.randn(1, 8),), calibration()))
    assert [n.operator for n in left] == ["aten::native_layer_norm"], left
    assert "no Cortex-M pattern matched" in left[0].reason
    report = {"float": {"metrics": {}, "constant_bytes": 4, "arena_bytes": 4},
              "int8": {"metrics": {}, "constant_bytes": 1, "arena_bytes": 1},
              "float_nodes": [{"name": n.name, "operator": n.operator, "reason": n.reason, "layer": n.layer} for n in left]}  # fmt: skip
    lines = quant_summary_lines(report)
    assert "nodes left in float32: 1" in "\n".join(lines)
    assert any("aten::native_layer_norm" in line for line in lines)


def test_replaced_constants_are_dropped() -> None:
    """The backend's passes leave the float-layout weights and qparam buffers unread."""
    program = edge().exported_program()
    placeholders = [n for n in program.graph_module.graph.nodes if n.op == "placeholder"]
    assert placeholders and all(n.users for n in placeholders)


def test_equalization_keeps_the_float_function() -> None:
    from tinypte.quantize import equalization

    torch.manual_seed(3)
    first, second = nn.Linear(1, 16), nn.Linear(16, 16)
    model = nn.Sequential(first, nn.ReLU(), second, nn.ReLU(), nn.Linear(16, 1)).eval()
    with torch.no_grad():
        first.weight.mul_(torch.linspace(0.01, 5.0, 16)[:, None])  # badly balanced channels
    x = torch.linspace(-3, 3, 101).unsqueeze(1)
    before = model(x).detach()
    assert equalization.equalize(model, (torch.zeros(1, 1),)) == 2
    assert torch.allclose(model(x), before, rtol=1e-5, atol=1e-5)
    rows, columns = first.weight.abs().amax(1), second.weight.abs().amax(0)
    assert torch.allclose(rows, columns, rtol=0.2)  # ranges balanced


def test_missing_cortex_m_kernel_names_the_operator_and_the_kernel_folder() -> None:
    from tinypte.errors import TinypteError
    from tinypte.kernels import registry as kernels

    with pytest.raises(TinypteError, match=r"no kernel for operator cortex_m::quantized_foo\.out, used by m.*"
                       r"runtime/kernels/cortex_m/"):  # fmt: skip
        kernels.select({}, {"cortex_m::quantized_foo.out": ["m"]})
