"""int8 export with ExecuTorch's Cortex-M backend (issue 11, the AOT half).

Flow: torch.export -> `.module(check_guards=False)` (torch 2.13) -> CortexMQuantizer,
calibrated by running `calibration` inputs through the prepared module (torchao's
prepare_pt2e / convert_pt2e) -> torch.export again -> to_edge with the backend's compile
config -> the Cortex-M pass manager (quantized patterns become `cortex_m::*` operators) ->
to_executorch with tinypte's planning (export.backend_config). Same inputs, same bytes.

`quantize_program` returns the edge program after the backend's passes: running its module
in PyTorch runs the `cortex_m::*` operators through the backend's reference implementations
(executorch/backends/cortex_m/ops/operators.py) — the int8 oracle, since ExecuTorch's own
runtime has no Cortex-M kernels. `float_nodes` lists what stayed float, for the summary.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tinypte.fusion_planning import operator_name

# Float operators that only move or reshape data: not "left unquantized" in any useful sense.
DATA_MOVEMENT = frozenset({"aten::view_copy", "aten::permute_copy", "aten::clone", "aten::squeeze_copy",
                           "aten::unsqueeze_copy", "dim_order_ops::_clone_dim_order"})  # fmt: skip


@dataclass(frozen=True)
class FloatNode:
    """An operator call the quantizer left in float32, and why (from its inputs' dtypes)."""

    name: str
    operator: str
    reason: str


def quantize_program(model: Any, example_inputs: tuple[Any, ...], calibration: Iterable[tuple[Any, ...]], explicit: bool = True) -> Any:
    """The int8 edge program manager of an eval-mode `model` (see the module docstring)."""
    import torch
    from executorch.backends.cortex_m.edge_compile_config import cortex_m_edge_compile_config
    from executorch.backends.cortex_m.passes.cortex_m_pass_manager import CortexMPassManager
    from executorch.backends.cortex_m.quantizer.quantizer import CortexMQuantizer
    from executorch.exir import to_edge
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    captured = torch.export.export(model, example_inputs).module(check_guards=False)
    prepared = prepare_pt2e(captured, CortexMQuantizer(use_explicit_layout=explicit))
    batches = 0
    with torch.no_grad():
        for inputs in calibration:
            prepared(*inputs)
            batches += 1
    if batches == 0:
        raise ValueError("int8 export needs at least one calibration batch")
    converted = convert_pt2e(prepared)
    edge = to_edge(torch.export.export(converted, example_inputs), compile_config=cortex_m_edge_compile_config())
    edge._edge_programs["forward"] = CortexMPassManager(edge.exported_program(), use_explicit_layout=explicit).transform()
    return edge


def export_int8_program(edge: Any, alignment: int = 16, planner: str = "greedy") -> bytes:
    """.pte bytes of a quantize_program result, planned as tinypte plans float programs. This
    consumes `edge` (to_executorch rewrites its graph to out variants): run the reference
    module before, or quantize again."""
    from tinypte.export import backend_config

    return bytes(edge.to_executorch(backend_config(alignment, planner)).buffer)


def _dtype(node: Any) -> Any:
    value = node.meta.get("val") if hasattr(node, "meta") else None
    return getattr(value, "dtype", None)


def float_nodes(edge: Any) -> list[FloatNode]:
    """Compute operators of the edge program that run on float32 tensors."""
    import torch

    found = []
    for node in edge.exported_program().graph_module.graph.nodes:
        name = operator_name(node)
        if node.op != "call_function" or name is None or name.startswith("cortex_m::") or name in DATA_MOVEMENT:
            continue
        if _dtype(node) != torch.float32:
            continue
        inputs: Sequence[Any] = [a for a in node.args if hasattr(a, "meta")]
        sources = sorted({operator_name(a) or a.op for a in inputs if _dtype(a) == torch.float32})
        reason = "no Cortex-M pattern matched; its float inputs come from " + (", ".join(sources) or "constants")
        found.append(FloatNode(node.name, name, reason))
    return found
