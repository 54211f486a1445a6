"""tinypte.lazy_codegen changes when FX graph code is written, never what a program is.

In one process: small programs are exported (float, through tinypte's export) and quantized and
lowered (int8, through ExecuTorch's Cortex-M quantizer and passes) before `install()` and again
after it, and must be the same bytes. After `install()` a plain GraphModule writes its code on
first use: before that it has none, and `.code`, calling it and printing it all work.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import torch
from small_modules import ConvRelu, LinearSoftmax

from tinypte import lazy_codegen
from tinypte.export.pipeline import export_program

# Programs compared with and without lazy code generation (the test fails below it).
MIN_PROGRAMS = 5


class DepthwisePool(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(4, 4, 3, groups=4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.avg_pool2d(torch.relu(self.conv(x)), 2)


def float_programs() -> dict[str, bytes]:
    torch.manual_seed(0)
    cases = [
        ("conv_relu", ConvRelu().eval(), (torch.randn(1, 3, 6, 6),)),
        ("linear_softmax", LinearSoftmax().eval(), (torch.randn(2, 8),)),
        ("depthwise_pool", DepthwisePool().eval(), (torch.randn(1, 4, 8, 8),)),
    ]
    return {name: export_program(module, inputs, True, Path(name)) for name, module, inputs in cases}


def int8_program(module: torch.nn.Module, inputs: tuple[torch.Tensor, ...]) -> bytes:
    """ExecuTorch's Cortex-M flow: its quantizer, to_edge, its passes, to_executorch."""
    from executorch.backends.cortex_m.edge_compile_config import cortex_m_edge_compile_config
    from executorch.backends.cortex_m.passes.cortex_m_pass_manager import CortexMPassManager
    from executorch.backends.cortex_m.quantizer.quantizer import CortexMQuantizer
    from executorch.exir import to_edge
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    captured = torch.export.export(module.eval(), inputs).module(check_guards=False)
    prepared = prepare_pt2e(captured, CortexMQuantizer())
    prepared(*inputs)
    converted: Any = convert_pt2e(prepared)
    edge = to_edge(torch.export.export(converted, inputs), compile_config=cortex_m_edge_compile_config())
    edge._edge_programs["forward"] = CortexMPassManager(edge.exported_program()).transform()
    return bytes(edge.to_executorch().buffer)


def int8_programs() -> dict[str, bytes]:
    torch.manual_seed(1)
    return {
        "int8_conv_relu": int8_program(ConvRelu(), (torch.randn(1, 3, 6, 6),)),
        "int8_depthwise_pool": int8_program(DepthwisePool(), (torch.randn(1, 4, 8, 8),)),
    }


def programs() -> dict[str, bytes]:
    return {**float_programs(), **int8_programs()}


def test_same_programs_and_code_on_use() -> None:
    # Both halves in one test, in this order: the first programs must be made before install().
    assert not lazy_codegen._installed, "another test installed it first"
    before = programs()
    assert lazy_codegen.install(), "torch changed: torch.fx._lazy_graph_module is gone"
    assert lazy_codegen.install(), "install() must be idempotent"
    after = programs()
    assert len(before) >= MIN_PROGRAMS, f"only {len(before)} programs compared"
    for name in before:
        assert after[name] == before[name], f"{name}: different bytes with lazy code generation"

    from torch.fx._lazy_graph_module import _LazyGraphModule

    traced = torch.fx.symbolic_trace(ConvRelu())
    module = torch.fx.GraphModule(traced, traced.graph)
    assert isinstance(module, _LazyGraphModule) and isinstance(module, torch.fx.GraphModule)
    assert type(module)._needs_recompile(), "a new module must not have written its code yet"
    x = torch.randn(1, 3, 6, 6)
    assert torch.equal(module(x), traced(x))
    assert "conv" in module.code and "relu" in str(module)
    assert not type(module)._needs_recompile()


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
