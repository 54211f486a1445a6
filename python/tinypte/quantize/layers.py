"""Which layer of the user's model a graph node comes from, in the model's own terms.

torch.export keeps, on every node, the module path it was called under (`nn_module_stack`)
and the Python stack of the call (`stack_trace`); ExecuTorch's passes carry both along. Messages
about the int8 program (what stayed float, what a pipeline refused) name nodes this way:

    layer `features.3` (Conv1d) at model.py:42

(the module path and class of the innermost module, and the innermost frame in the model
file; either part is left out when the graph does not have it).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tinypte.export.fusion_planning import operator_name

# ATen names a node can carry for one layer kind, before and after to_edge.
_SAME_LAYER = {
    "convolution": {"conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
                    "convolution", "conv1d.padding", "conv2d.padding"},
    "max_pool2d": {"max_pool1d", "max_pool2d", "max_pool2d_with_indices"},
    "avg_pool2d": {"avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d", "adaptive_avg_pool2d"},
}  # fmt: skip


def _module(node: Any) -> tuple[str, str]:
    """(module path, class name) of the innermost module with a path; ("", "") for none."""
    stack = node.meta.get("nn_module_stack") or {}
    for path, kind in reversed(list(stack.values())):
        if path:
            name = kind if isinstance(kind, str) else getattr(kind, "__name__", str(kind))
            return str(path), name.rsplit(".", 1)[-1]
    return "", ""


def source_line(node: Any, model_file: Path | None) -> str:
    """'model.py:42': the innermost frame of the node's call in the model file, or ''."""
    if model_file is None:
        return ""
    lines = re.findall(rf'File "[^"]*{re.escape(model_file.name)}", line (\d+)', node.meta.get("stack_trace") or "")
    return f"{model_file.name}:{lines[-1]}" if lines else ""


def describe(node: Any, model_file: Path | None) -> str:
    """The layer a node belongs to (module docstring); the node's name when nothing is known."""
    path, kind = _module(node)
    line = source_line(node, model_file)
    parts = [f"layer `{path}` ({kind})"] if path else []
    parts += [f"at {line}"] if line else []
    return " ".join(parts) or f"node `{node.name}`"


def aten_name(node: Any) -> str | None:
    """`conv1d` for an aten::conv1d call (edge or ATen dialect), None for other nodes."""
    name = operator_name(node) if node.op == "call_function" else None
    return name.removeprefix("aten::") if name is not None and name.startswith("aten::") else None


def named_in(message: str, graph: Any, model_file: Path | None) -> list[str]:
    """The layers of `graph` whose operator a pass's message names (`aten.avg_pool2d.default`):
    how a refusal about an operator kind becomes one about the user's layers."""
    found = re.search(r"aten[.:]+(\w+)", message)
    if found is None:
        return []
    names = _SAME_LAYER.get(found.group(1), {found.group(1)})
    return [describe(n, model_file) for n in graph.nodes if aten_name(n) in names]
