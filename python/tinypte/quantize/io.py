"""int8 inputs and outputs: an int8 program takes and returns the quantized tensors themselves.

The Cortex-M backend's program quantizes each float input as its first step and dequantizes
each output as its last. For an input whose placeholder feeds exactly one
`cortex_m::quantize_per_tensor`, this removes that quantize and makes the input int8; for an
output computed by `cortex_m::dequantize_per_tensor`, it returns the dequantize's int8 input
instead. The scale, zero point, range and dtype of each become the program's config methods
under ExecuTorch's names (`input0_scale`, `input0_zp`, `input0_quant_min`, `input0_quant_max`,
`input0_dtype`, the same for `outputN_`), which is where ExecuTorch's own quantize-I/O passes put
them: the .pte carries its I/O quantization (tinypte.program_files.io_quantization reads it back).

Inputs and outputs this cannot convert (an input with other float users, a float output no
dequantize computes) stay float, with the reason in the result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tinypte.export.fusion_planning import operator_name
from tinypte.program_files.io_quantization import IoQuantization

QUANTIZE = "cortex_m::quantize_per_tensor"
DEQUANTIZE = "cortex_m::dequantize_per_tensor"


@dataclass(frozen=True)
class IoResult:
    """What `quantize_io` converted, and what it left float and why."""

    quantized: list[IoQuantization]
    left_float: list[str]  # "input 1: ..." / "output 0: ..."


def _params(kind: str, index: int, node: Any) -> IoQuantization:
    """The quantization of a cortex_m quantize/dequantize node's arguments."""
    _, scale, zero_point, quant_min, quant_max, dtype = node.args[:6]
    return IoQuantization(kind, index, float(scale), int(zero_point), int(quant_min), int(quant_max),
                          str(dtype).removeprefix("torch."))  # fmt: skip


def _quantize_inputs(program: Any) -> tuple[list[IoQuantization], list[str]]:
    graph = program.graph_module.graph
    placeholders = {n.name: n for n in graph.nodes if n.op == "placeholder"}
    quantized, left = [], []
    for index, name in enumerate(program.graph_signature.user_inputs):
        node = placeholders[name]
        users = list(node.users)
        if len(users) != 1 or operator_name(users[0]) != QUANTIZE:
            found = ", ".join(sorted({operator_name(u) or u.op for u in users})) or "nothing"
            left.append(f"input {index}: used by {found}, not by one quantize")
            continue
        quantize = users[0]
        quantized.append(_params("input", index, quantize))
        node.meta["val"] = quantize.meta["val"]
        quantize.replace_all_uses_with(node)
        graph.erase_node(quantize)
    return quantized, left


def _user_output_positions(program: Any) -> list[int]:
    """Where the output node returns each user output (buffer mutations come first)."""
    from torch.export.graph_signature import OutputKind

    specs = program.graph_signature.output_specs
    return [i for i, spec in enumerate(specs) if spec.kind == OutputKind.USER_OUTPUT]


def _quantize_outputs(program: Any) -> tuple[list[IoQuantization], list[str]]:
    graph = program.graph_module.graph
    output = graph.output_node()
    results = list(output.args[0])
    quantized, left = [], []
    for index, position in enumerate(_user_output_positions(program)):
        value = results[position]
        if operator_name(value) != DEQUANTIZE:
            left.append(f"output {index}: computed by {operator_name(value) or value.op}, not by a dequantize")
            continue
        quantized.append(_params("output", index, value))
        results[position] = value.args[0]
    output.args = (tuple(results),)
    graph.eliminate_dead_code()
    return quantized, left


def quantize_io(edge: Any) -> IoResult:
    """Make the "forward" program of edge program manager `edge` take and return int8 where its
    first and last steps are a quantize and a dequantize (see the module docstring)."""
    program = edge.exported_program()
    inputs, left_inputs = _quantize_inputs(program)
    outputs, left_outputs = _quantize_outputs(program)
    _rename_outputs(program)
    program.graph_module.recompile()
    methods = dict(edge._config_methods or {})
    for io in inputs + outputs:
        methods.update(io.config_methods())
    edge._config_methods = methods
    return IoResult(inputs + outputs, left_inputs + left_outputs)


def _rename_outputs(program: Any) -> None:
    """Point the graph signature's user outputs at the values the output node now returns."""
    from torch.export.graph_signature import OutputKind, TensorArgument

    returned = list(program.graph_module.graph.output_node().args[0])
    for spec, value in zip(program.graph_signature.output_specs, returned, strict=True):
        if spec.kind == OutputKind.USER_OUTPUT:
            spec.arg = TensorArgument(name=value.name)
