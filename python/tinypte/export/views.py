"""Squeeze and unsqueeze as views, so ExecuTorch's view pass makes them free.

ExecuTorch's exporter replaces a static `view_copy` inside a program by a view of its input
(ReplaceViewCopyWithViewPass): no instruction, no copy, the same memory. `squeeze_copy` and
`unsqueeze_copy` only change a shape the same way, but that pass leaves them as copies. This
rewrites each into the `view_copy` to its output shape (contiguous tensors: the same bytes in
the same order) before `to_executorch`, which then elides it like any view. A squeeze whose
result is a program output is left alone: ExecuTorch keeps such views as copies (an output
needs its own memory), so it would only trade one copy kernel for another.
"""

from __future__ import annotations

from typing import Any


def squeezes_as_views(program: Any) -> int:
    """Rewrite the squeeze/unsqueeze copies of an edge program's graph; returns how many."""
    from executorch.exir.dialects._ops import ops as exir_ops

    aten = exir_ops.edge.aten
    targets = {aten.squeeze_copy.dims, aten.squeeze_copy.dim, aten.squeeze_copy.default, aten.unsqueeze_copy.default}
    graph_module = program.graph_module
    rewritten = 0
    for node in graph_module.graph.nodes:
        inside = all(user.op != "output" for user in node.users)
        if node.op == "call_function" and node.target in targets and inside:
            node.target = aten.view_copy.default
            node.args = (node.args[0], [int(size) for size in node.meta["val"].shape])
            node.kwargs = {}
            rewritten += 1
    if rewritten:
        graph_module.recompile()
    return rewritten
