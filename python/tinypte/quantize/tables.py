"""Float activations between an int8 dequantize and quantize become 256-entry int8 tables.

ExecuTorch's Cortex-M quantizer lowers a few activations (sigmoid, tanh, SiLU, GELU, logs) to
`cortex_m::quantized_activation`, a lookup in a 256-byte table built ahead of time; any other
activation it leaves in float between a dequantize and a quantize (LeakyReLU, ELU, ReLU6 on
its own, ...): three passes over the tensor and float arithmetic on the device. The result of
that chain depends only on the int8 input byte, so this pass replaces

    quantize(op(dequantize(x, s_in, z_in), args...), s_out, z_out)

by `quantized_activation(x, table)` whose table is that very chain evaluated on the 256 int8
values with the backend's reference implementations: bit-identical to the float chain it
replaces, for any such op. Only elementwise ops of one tensor (the rest scalars) qualify.
"""

from __future__ import annotations

from typing import Any

from tinypte.export.fusion_planning import operator_name
from tinypte.quantize.layers import aten_name

# ATen operators whose output element depends only on the same input element (and scalar
# arguments): a table of their int8 inputs is exact.
ELEMENTWISE_UNARY = frozenset({
    "abs", "celu", "clamp", "elu", "exp", "gelu", "hardshrink", "hardsigmoid", "hardswish", "hardtanh",
    "leaky_relu", "log_sigmoid_forward", "mish", "neg", "relu", "relu6", "selu", "sigmoid", "silu", "softplus",
    "softshrink", "tanh",
})  # fmt: skip


def _is_call(node: Any, name: str) -> bool:
    return node.op == "call_function" and operator_name(node) == name


def _unary_name(node: Any) -> str | None:
    name = aten_name(node)
    if name not in ELEMENTWISE_UNARY:
        return None
    tensors = [a for a in (*node.args[1:], *node.kwargs.values()) if hasattr(a, "op")]
    return None if tensors else name


def _int8_qparams(node: Any) -> bool:
    import torch

    return node.args[5] == torch.int8 and (node.args[3], node.args[4]) == (-128, 127)


def table(dequantize: Any, activation: Any, quantize: Any) -> Any:
    """The 256 int8 outputs of dequantize -> activation -> quantize for inputs -128..127, by
    the backend's reference implementations and ATen (the oracle's own arithmetic)."""
    import torch

    values = torch.arange(-128, 128, dtype=torch.int8)
    real = torch.ops.cortex_m.dequantize_per_tensor(values, *dequantize.args[1:])
    result = activation.target(real, *activation.args[1:], **activation.kwargs)
    return torch.ops.cortex_m.quantize_per_tensor(result, *quantize.args[1:]).contiguous()


def tabulate_activations(program: Any) -> list[str]:
    """Replace each qualifying dequantize -> float activation -> quantize chain of an edge
    ExportedProgram by a table lookup (module docstring); the ATen names of those replaced."""
    import executorch.backends.cortex_m.ops.operators  # noqa: F401  (registers cortex_m::*)
    from executorch.backends.transforms.utils import create_constant_placeholder
    from executorch.exir.dialects._ops import ops as exir_ops
    from torch.export.graph_signature import InputKind

    graph = program.graph_module.graph
    replaced: list[str] = []
    for activation in list(graph.nodes):
        name = _unary_name(activation)
        source: Any = activation.args[0] if activation.args else None
        if name is None or not hasattr(source, "op") or not _is_call(source, "cortex_m::dequantize_per_tensor"):
            continue
        users = list(activation.users)
        if len(users) != 1 or not _is_call(users[0], "cortex_m::quantize_per_tensor"):
            continue
        quantize: Any = users[0]
        if not (_int8_qparams(source) and _int8_qparams(quantize)):
            continue
        first_placeholder = next(n for n in graph.nodes if n.op == "placeholder")
        with graph.inserting_before(first_placeholder):
            lut = create_constant_placeholder(
                program, graph, f"{activation.name}_table", InputKind.PARAMETER, table(source, activation, quantize)
            )
        with graph.inserting_before(quantize):
            lookup = graph.call_function(exir_ops.edge.cortex_m.quantized_activation.default, (source.args[0], lut))
        lookup.meta.update(quantize.meta)
        quantize.replace_all_uses_with(lookup)
        for node in (quantize, activation, source):
            if not node.users:
                graph.erase_node(node)
        replaced.append(name)
    if replaced:
        graph.lint()
        program.graph_module.recompile()
    return replaced
