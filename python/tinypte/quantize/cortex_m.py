"""int8 export with ExecuTorch's Cortex-M backend (issue 11, the AOT half).

Flow: torch.export -> `.module(check_guards=False)` (torch 2.13) -> CortexMQuantizer,
calibrated by running `calibration` inputs through the prepared module (torchao's
prepare_pt2e / convert_pt2e) -> torch.export again -> to_edge with the backend's compile
config -> the Cortex-M pass manager (quantized patterns become `cortex_m::*` operators) ->
to_executorch with tinypte's planning (tinypte.export.pipeline.backend_config). Same inputs,
same bytes.

Before quantizing, 1-D convolutions and pools become 2-D ones of height 1 (one_d.py), which
the backend lowers to its NHWC kernels. After the backend's passes, float activations it left
between an int8 dequantize and quantize become 256-entry tables (tables.py). Before memory
planning, two more passes of tinypte's: constants the backend's passes replaced
(float weights it re-laid out, qparam buffers it folded into arguments) are dropped, and
every `scratch` allocation is sized for tinypte's kernels (scratch.py), with a ring of rows
for a convolution that may run over its dying input (in_place.py), which planning then
stores over that input.

`quantize_program` returns the edge program after those passes: running its module
in PyTorch runs the `cortex_m::*` operators through the backend's reference implementations
(executorch/backends/cortex_m/ops/operators.py) — the int8 oracle, since ExecuTorch's own
runtime has no Cortex-M kernels. `float_nodes` lists what stayed float, for the summary.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tinypte.export.fusion_planning import operator_name
from tinypte.export.pipeline import backend_config
from tinypte.quantize import in_place, layers, one_d, scratch, tables

# Float operators that only move or reshape data: not "left unquantized" in any useful sense.
DATA_MOVEMENT = frozenset({"aten::view_copy", "aten::permute_copy", "aten::clone", "aten::squeeze_copy",
                           "aten::unsqueeze_copy", "dim_order_ops::_clone_dim_order"})  # fmt: skip


@dataclass(frozen=True)
class FloatNode:
    """An operator call the quantizer left in float32, and why (from its inputs' dtypes)."""

    name: str
    operator: str
    reason: str
    layer: str  # the model's layer it comes from (tinypte.quantize.layers.describe)


def capture(model: Any, example_inputs: tuple[Any, ...]) -> Any:
    """The graph module the quantizer annotates: `model` exported, 1-D layers as 2-D."""
    import torch

    captured = torch.export.export(model, example_inputs).module(check_guards=False)
    one_d.lift_1d(captured)
    return captured


def quantize_program(
    model: Any, example_inputs: tuple[Any, ...], calibration: Iterable[tuple[Any, ...]], explicit: bool = True,
    tabulate: bool = True,
) -> Any:  # fmt: skip
    """The int8 edge program manager of an eval-mode `model` (see the module docstring);
    `tabulate=False` keeps float activations the backend leaves between int8 operators float."""
    import torch
    from executorch.backends.cortex_m.edge_compile_config import cortex_m_edge_compile_config
    from executorch.backends.cortex_m.passes.cortex_m_pass_manager import CortexMPassManager
    from executorch.backends.cortex_m.quantizer.quantizer import CortexMQuantizer
    from executorch.exir import to_edge

    converted = calibrated(capture(model, example_inputs), CortexMQuantizer(use_explicit_layout=explicit), calibration)
    edge = to_edge(torch.export.export(converted, example_inputs), compile_config=cortex_m_edge_compile_config())
    program = CortexMPassManager(edge.exported_program(), use_explicit_layout=explicit).transform()
    if tabulate:
        tables.tabulate_activations(program)
    drop_unused_constants(program)
    size_scratch(program)
    edge._edge_programs["forward"] = program
    return edge


def calibrated(captured: Any, quantizer: Any, calibration: Iterable[tuple[Any, ...]]) -> Any:
    """`captured` with `quantizer`'s observers, run on every calibration batch, then converted
    (torchao's prepare_pt2e / convert_pt2e): the quantized module, q/dq in float. Histogram
    observers find their range with tinypte.histogram_search (torch's answer, faster), and graph
    code is written when used from here on (tinypte.lazy_codegen: the same programs, faster)."""
    import torch
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    from tinypte import histogram_search, lazy_codegen

    histogram_search.install()
    lazy_codegen.install()
    prepared = prepare_pt2e(captured, quantizer)
    batches = 0
    with torch.no_grad():
        for inputs in calibration:
            prepared(*inputs)
            batches += 1
    if batches == 0:
        raise ValueError("int8 export needs at least one calibration batch")
    return convert_pt2e(prepared)


def drop_unused_constants(program: Any) -> int:
    """Remove parameters, buffers and constant tensors no node reads; the bytes removed."""
    from torch.export.graph_signature import InputKind

    kinds = {InputKind.PARAMETER, InputKind.BUFFER, InputKind.CONSTANT_TENSOR}
    placeholders = {n.name: n for n in program.graph_module.graph.nodes if n.op == "placeholder"}
    dropped = 0
    for spec in list(program.graph_signature.input_specs):
        node = placeholders.get(spec.arg.name)
        if spec.kind not in kinds or node is None or node.users:
            continue
        store = program.constants if spec.target in program.constants else program.state_dict
        tensor = store.pop(spec.target, None)
        dropped += 0 if tensor is None else tensor.numel() * tensor.element_size()
        program.graph_signature.input_specs.remove(spec)
        program.graph_module.graph.erase_node(node)
    program.graph_module.recompile()
    return dropped


def _as_shapes(value: Any) -> Any:
    """A node argument for a scratch rule: tensors as their shapes."""
    if hasattr(value, "meta") and hasattr(value.meta.get("val"), "shape"):
        return tuple(int(d) for d in value.meta["val"].shape)
    if isinstance(value, (list, tuple)):
        return [_as_shapes(v) for v in value]
    return value


def size_scratch(program: Any) -> None:
    """Give each scratch allocation of a cortex_m call the bytes tinypte's kernel needs."""
    from executorch.exir import memory

    for node in program.graph_module.graph.nodes:
        name = operator_name(node)
        if node.op != "call_function" or name is None or not name.startswith("cortex_m::"):
            continue
        allocs = [a for a in node.args if getattr(a, "target", None) is memory.alloc]
        sizes = scratch.scratch_sizes(name, [_as_shapes(a) for a in node.args])
        if sizes is None or not allocs:
            continue
        if len(sizes) != len(allocs):
            raise ValueError(f"{name}: scratch rule gave {len(sizes)} sizes for {len(allocs)} scratch arguments")
        for alloc, size in zip(allocs, sizes, strict=True):
            _resize(alloc, size)
    # Then a ring for each convolution that may run in place (in_place.py), sized by what the
    # arena holds at each call.
    user_inputs = set(program.graph_signature.user_inputs)
    for node, ring in in_place.ring_sizes(program.graph_module, user_inputs).items():
        alloc = next(a for a in node.args if getattr(a, "target", None) is memory.alloc)
        _resize(alloc, int(alloc.meta["val"].shape[0]) + ring)


def _resize(alloc: Any, size: int) -> None:
    """Make a scratch allocation `size` bytes."""
    import torch

    alloc.args = (((size,), torch.uint8),)
    alloc.meta["val"] = torch.empty((size,), dtype=torch.uint8, device="meta")


def export_int8_program(edge: Any, alignment: int = 16, planner: str = "best") -> bytes:
    """.pte bytes of a quantize_program result, planned as tinypte plans float programs. This
    consumes `edge` (to_executorch rewrites its graph to out variants): run the reference
    module, or save the program (tinypte.program_files.edge_file), before."""
    return bytes(edge.to_executorch(backend_config(alignment, planner, in_place.in_place_aware)).buffer)


def _dtype(node: Any) -> Any:
    """The dtype of a node's value (of its first output, for operators returning several)."""
    value = node.meta.get("val") if hasattr(node, "meta") else None
    if isinstance(value, (tuple, list)) and value:
        value = value[0]
    return getattr(value, "dtype", None)


def float_nodes(edge: Any, model_file: Path | None = None) -> list[FloatNode]:
    """Compute operators of the edge program that run on float32 tensors, with the layer of
    `model_file` each comes from."""
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
        found.append(FloatNode(node.name, name, reason, layers.describe(node, model_file)))
    return found
