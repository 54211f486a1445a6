"""Memory planning that makes room for tinypte's activation fusion, at no memory cost.

tinypte's runtime folds a relu/hardtanh/clamp into the matrix product or convolution that
produces its input (runtime/src/fusion.c): the producer writes the activation's out itself,
applying the activation as it stores each value, and the activation does not run. That is
only safe when the activation's out shares no memory with the producer's inputs, which a
planner is otherwise free to reuse for it once the producer has run (ExecuTorch's greedy
planner does exactly that, ping-ponging two buffers).

`fusion_aware(algorithm)` wraps an ExecuTorch planning algorithm: before it runs, each such
activation's out is made to live in its input's storage (ExecuTorch's `storage_base`, its
in-place mechanism), and that storage lives as long as the activation's out. An elementwise
activation in place is exact (each element is read before it is written), so ExecuTorch's
runtime runs the program unchanged; the planner places one tensor fewer, so the arena never
grows. The runtime still checks every pair before fusing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Operators whose kernels take a fused activation (TP_KERNEL_TAKES_CLAMP; //python/tests:
# fusion_planning_test checks both sets against the kernel sources) ...
PRODUCERS = frozenset({"aten::addmm", "aten::mm", "aten::bmm", "aten::convolution"})
# ... and the activations they take (TP_KERNEL_CLAMP).
ACTIVATIONS = frozenset({"aten::relu", "aten::hardtanh", "aten::clamp"})


def operator_name(node: Any) -> str | None:
    """ "aten::relu" for a node calling an operator, else None."""
    schema = getattr(node.target, "_schema", None)
    return str(schema.name) if schema is not None else None


def _planned(spec: Any) -> bool:
    """A tensor the planner places: not a constant, with a lifetime, not stored in another's."""
    lifetime: Any = getattr(spec, "lifetime", None)
    if spec is None or getattr(spec, "const", False) or not lifetime or lifetime[1] is None:
        return False
    return getattr(spec, "storage_base", None) is None


def share_activation_outs(graph_module: Any) -> int:
    """Put each fusable activation's out in its producer's out storage; returns how many pairs."""
    pairs = 0
    for node in graph_module.graph.nodes:
        if operator_name(node) not in ACTIVATIONS or not node.args:
            continue
        producer = node.args[0]
        if operator_name(producer) not in PRODUCERS or len(producer.users) != 1:
            continue
        base, out = producer.meta.get("spec"), node.meta.get("spec")
        if base is out or not (_planned(base) and _planned(out)):
            continue
        if base.allocated_memory != out.allocated_memory or base.dtype != out.dtype:
            continue
        outs = {id(out): out}
        alloc = node.kwargs.get("out")
        if alloc is not None and _planned(alloc.meta.get("spec")):
            outs[id(alloc.meta["spec"])] = alloc.meta["spec"]
        for spec in outs.values():
            spec.storage_base = base
            spec.storage_base_offset = 0
            base.lifetime[1] = max(base.lifetime[1], spec.lifetime[1])
        pairs += 1
    return pairs


def fusion_aware(algorithm: Callable[..., Any]) -> Callable[..., Any]:
    """`algorithm` (ExecuTorch's greedy or naive) run after share_activation_outs."""

    def plan(alignment: int, specs: Any, graph_module: Any, graph_signature: Any, extra_padding: int = 0) -> Any:
        share_activation_outs(graph_module)
        return algorithm(alignment, specs, graph_module, graph_signature, extra_padding)

    plan.__name__ = f"fusion_aware_{getattr(algorithm, '__name__', 'algorithm')}"
    return plan
