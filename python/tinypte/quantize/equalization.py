"""Cross-layer equalization before int8 quantization (Nagel et al., "Data-Free Quantization
Through Weight Equalization and Bias Correction", 2019).

The Cortex-M quantizer gives a linear layer one weight scale for the whole matrix, so
output channels whose weights are small get few of the 255 levels. For two linear layers
joined directly or through a ReLU, scaling output channel i of the first by 1/s_i and input
column i of the second by s_i changes nothing in float (relu(x / s) = relu(x) / s for s > 0)
while balancing the channels' ranges: s_i = sqrt(r1_i / r2_i), with r1_i the largest |weight|
of row i of the first layer and r2_i that of column i of the second. A few rounds over every
such pair converge. The float model's outputs move only by float rounding.

`equalize(model, example_inputs)` finds the pairs in the exported graph (aten.linear, an
optional aten.relu between, each intermediate read only by the next) and rescales the
model's parameters in place; it returns how many pairs it equalized.
"""

from __future__ import annotations

from typing import Any

ROUNDS = 3


def _pairs(model: Any, example_inputs: tuple[Any, ...]) -> list[tuple[Any, Any, Any]]:
    """(weight, bias or None, next weight) of each equalizable pair of linear layers."""
    import torch

    exported = torch.export.export(model, example_inputs)
    to_param = exported.graph_signature.inputs_to_parameters
    params = dict(model.named_parameters())
    linear, relu = torch.ops.aten.linear.default, torch.ops.aten.relu.default

    def param(node: Any) -> Any:
        return params.get(to_param.get(getattr(node, "name", ""), ""))

    found = []
    for node in exported.graph.nodes:
        if node.target is not linear or len(node.users) != 1:
            continue
        after = next(iter(node.users))
        if after.target is relu and len(after.users) == 1:
            after = next(iter(after.users))
        if after.target is not linear:
            continue
        source = after.args[0]  # the next linear's input: node itself, or the relu of it
        if source is not node and not (source.target is relu and source.args[0] is node):
            continue
        weight, next_weight = param(node.args[1]), param(after.args[1])
        bias = param(node.args[2]) if len(node.args) > 2 and node.args[2] is not None else None
        if weight is not None and next_weight is not None:
            found.append((weight, bias, next_weight))
    return found


def equalize(model: Any, example_inputs: tuple[Any, ...]) -> int:
    """Equalize every pair of linear layers of `model` in place; the number of pairs."""
    import torch

    pairs = _pairs(model, example_inputs)
    with torch.no_grad():
        for _ in range(ROUNDS):
            for weight, bias, next_weight in pairs:
                rows = weight.abs().amax(dim=1)
                columns = next_weight.abs().amax(dim=0)
                usable = (rows > 0) & (columns > 0)
                scale = torch.where(usable, torch.sqrt(rows / columns.clamp_min(1e-30)), torch.ones_like(rows))
                weight /= scale[:, None]
                if bias is not None:
                    bias /= scale
                next_weight *= scale[None, :]
    return len(pairs)
