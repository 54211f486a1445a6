"""Generate an FX graph module's Python code when it is used, not every time its graph changes.

torch.export, to_edge, pt2e quantization and ExecuTorch's passes rebuild and edit FX graphs many
times per program, and every `GraphModule(...)` and every `recompile()` writes the graph's whole
Python source and compiles it. Most of those sources are never run or read: the next pass edits
the graph again. In a process that lowers hundreds of small programs that code generation is a
sixth of the time (lowering ExecuTorch's Cortex-M test cases: 9,232 recompiles, 14 s of 87 s).

torch ships the remedy and uses it in its own compiler: `_LazyGraphModule`, a GraphModule whose
`recompile()` only marks the code stale and which writes it on first use (calling the module,
reading `.code`, printing or pickling it), from the graph as it is then. `install()` makes every
plain `GraphModule(...)` construction produce one, as `torch._dynamo.config.use_lazy_graph_module`
does for graphs torch makes itself. Subclasses of GraphModule keep their own behaviour. The
programs do not change: the graphs are the same, only when their code is written differs
(python/tests/lazy_codegen_test.py lowers programs with and without it and compares the bytes;
the conformance generators' outputs are compared the same way). Tied to torch's private
`torch.fx._lazy_graph_module`: `install()` returns False and changes nothing if it is not there.
"""

from __future__ import annotations

from typing import Any

_installed = False


def install() -> bool:
    """Make plain GraphModule constructions lazy (idempotent); False if torch lacks the class."""
    global _installed
    if _installed:
        return True
    try:
        from torch.fx import GraphModule
        from torch.fx._lazy_graph_module import _LazyGraphModule
    except ImportError:
        return False
    eager_new = GraphModule.__new__

    def lazy_new(cls: type, *args: Any, **kwargs: Any) -> Any:
        return eager_new(_LazyGraphModule if cls is GraphModule else cls, *args, **kwargs)

    GraphModule.__new__ = staticmethod(lazy_new)  # type: ignore[method-assign]
    _installed = True
    return True
