"""Memory planning that stores an int8 call's out over an input that dies at the call.

An arena must hold, at each call, the call's inputs and its out; when the input dies at the
call and the kernel can compute over it, the two share bytes and the peak drops by the smaller
of them. tinypte does it for two kinds of `cortex_m::*` call:

- the NHWC convolutions (`quantized_conv2d_nhwc`, `quantized_depthwise_conv2d_nhwc`): with one
  batch, stride 1 along the height and out rows no longer than input rows, tinypte's kernel
  computes bands of out rows into a ring of rows kept in the call's scratch tensor and copies
  each over the input once no later row reads it (runtime/kernels/extensions/
  s8_conv_in_place.c has the proof). The ring holds the `pad_h` rows that wait plus a band of
  rows (`ring_bytes`). A band is one call of the fast routine, whose per-call work (per-channel
  records, the columns left over from its blocks of four) costs more the smaller the band, so
  `ring_sizes` gives each call the largest ring the arena has room for anyway (the live bytes
  of the busiest call that does not run in place, or of an in-place one with its smallest
  ring, less what this call keeps live), up to half its out;
- `quantized_add`: elementwise, each byte read before its out byte is written, so exact in any
  runtime, ExecuTorch's too (as tinypte's activation fusion: fusion_planning.py).

Two steps agree on the first kind. Before planning, tinypte.quantize.cortex_m sizes each
convolution's scratch with the ring when `in_place_ring` says the call qualifies (its input
has no other reader and is not a program input). At planning (`in_place_aware`, the wrapper the quantize stage gives
tinypte.export.pipeline.backend_config), `share_in_place_outs` stores the
out in the input's storage (ExecuTorch's `storage_base`) only when the call still qualifies and
its scratch holds the ring, so a program never asks a kernel to run in place without room.
Because ExecuTorch's runtime has no Cortex-M kernels, a program planned this way is for
tinypte's runtime (and the backend's reference interpreter, which ignores the plan); its
kernels refuse an out overlapping the input any other way (TP_ERR_KERNEL_ARGS at init).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tinypte.export.fusion_planning import operator_name
from tinypte.quantize import scratch

# The convolutions that run in place, and where their stride and padding are in the arguments.
CONVOLUTIONS = frozenset({"cortex_m::quantized_conv2d_nhwc", "cortex_m::quantized_depthwise_conv2d_nhwc"})
STRIDE, PADDING = 3, 4
ADD = "cortex_m::quantized_add"
ADD_INPUTS = (0, 4)  # self, other


def ring_bytes(
    in_shape: Sequence[int],
    out_shape: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[int],
    budget: int = 0,
) -> int | None:
    """The ring (bytes) an NHWC convolution runs in place with, or None when it cannot: the rows
    that wait and a band of as many rows as `budget` bytes hold (at least one, at most all)."""
    if len(in_shape) != 4 or len(out_shape) != 4:
        return None
    batches, in_h, in_w, in_c = (int(v) for v in in_shape)
    _, out_h, out_w, out_c = (int(v) for v in out_shape)
    row_in, row_out = in_w * in_c, out_w * out_c
    if batches != 1 or int(stride[0]) != 1 or row_out > row_in or out_h > in_h or row_out == 0:
        return None
    lag = int(padding[0])
    band = max(1, min(out_h, budget // row_out - lag))
    return (lag + band) * row_out


def _shape(node: Any) -> tuple[int, ...] | None:
    """A node's tensor shape, from its value (edge programs) or its spec (planning)."""
    value = node.meta.get("val") if hasattr(node, "meta") else None
    if value is None and hasattr(node, "meta"):
        value = node.meta.get("spec")
    shape = getattr(value, "shape", None)
    return None if shape is None else tuple(int(d) for d in shape)


def _sole_reader(value: Any, node: Any) -> bool:
    """Whether `value` is a computed tensor that only `node` reads (it dies at `node`)."""
    return hasattr(value, "op") and value.op == "call_function" and set(value.users) == {node}


def in_place_ring(node: Any, budget: int = 0) -> int | None:
    """The ring bytes of a convolution call that may run in place (see the module docstring),
    with a band as large as `budget` bytes allow (default: the smallest ring)."""
    if operator_name(node) not in CONVOLUTIONS or not node.args or not _sole_reader(node.args[0], node):
        return None
    in_shape, out_shape = _shape(node.args[0]), _shape(node.kwargs.get("out", node))
    if in_shape is None or out_shape is None:
        return None
    return ring_bytes(in_shape, out_shape, node.args[STRIDE], node.args[PADDING], budget)


def _nbytes(node: Any) -> int:
    value: Any = node.meta.get("val") if hasattr(node, "meta") else None
    return int(value.numel() * value.element_size()) if hasattr(value, "numel") else 0


def _live_bytes(graph_module: Any, user_inputs: set[str]) -> list[int]:
    """The bytes of tensors live at each node of an edge graph: program inputs from the start,
    each computed tensor (scratch allocations included) from its node to its last reader."""
    nodes = list(graph_module.graph.nodes)
    index = {node: i for i, node in enumerate(nodes)}
    live = [0] * len(nodes)
    for i, node in enumerate(nodes):
        if node.op == "placeholder" and node.name not in user_inputs:
            continue  # a constant: in flash, not in the arena
        if node.op not in ("placeholder", "call_function") or isinstance(node.meta.get("val"), (tuple, list)):
            continue
        start = 0 if node.op == "placeholder" else i
        end = max([index[user] for user in node.users], default=i)
        for j in range(start, end + 1):
            live[j] += _nbytes(node)
    return live


def ring_sizes(graph_module: Any, user_inputs: set[str]) -> dict[Any, int]:
    """The ring of each convolution that may run in place (see the module docstring), its
    scratch already sized for the kernel's own need."""
    live = _live_bytes(graph_module, user_inputs)
    nodes = list(graph_module.graph.nodes)
    smallest = {node: in_place_ring(node) for node in nodes}
    # What each call that may run in place keeps live (its out shares its input's bytes) ...
    shares = {node for node in nodes if smallest[node] is not None or _add_inputs(node)}
    kept = {node: live[i] - _nbytes(node) for i, node in enumerate(nodes) if node in shares}
    # ... only where that lowers the peak: above the busiest call that cannot (`_worth_it`) ...
    worth = _worth_it(nodes, live, shares)
    # ... with the largest ring the arena has room for anyway, at most half the out (the arena's
    # packing leaves less room than live bytes say).
    room = max([max([live[i] for i, n in enumerate(nodes) if _is_call(n) and n not in shares], default=0),
                *(kept[node] + int(smallest.get(node) or 0) for node in worth)])  # fmt: skip
    return {
        node: int(in_place_ring(node, min(room - kept[node], _nbytes(node) // 2)) or 0)
        for node in worth
        if smallest[node] is not None
    }


def _is_call(node: Any) -> bool:
    """A node calling an operator (not an input, an allocation or the output)."""
    return getattr(node, "op", None) == "call_function" and operator_name(node) is not None


def _worth_it(nodes: list[Any], live: list[int], shares: set[Any]) -> set[Any]:
    """The calls of `shares` whose live bytes exceed every other call's: running them in place
    lowers the arena; the others would only cost time (bands) and fragment the plan."""
    peak = max([live[i] for i, node in enumerate(nodes) if _is_call(node) and node not in shares], default=0)
    return {node for i, node in enumerate(nodes) if node in shares and live[i] > peak}


def _add_inputs(node: Any) -> list[Any]:
    """The inputs an add may store its out over: those it alone reads, of its out's shape."""
    if operator_name(node) != ADD:
        return []
    inputs = [node.args[i] for i in ADD_INPUTS if len(node.args) > i]
    return [value for value in inputs if _sole_reader(value, node) and _shape(value) == _shape(node)]


def _planned(spec: Any) -> bool:
    lifetime: Any = getattr(spec, "lifetime", None)
    return spec is not None and not getattr(spec, "const", False) and bool(lifetime) and lifetime[1] is not None


def _outs(node: Any) -> list[Any]:
    """The specs of a call's out: the call's and its `out` allocation's (one object or two)."""
    specs = {id(node.meta.get("spec")): node.meta.get("spec")}
    alloc = node.kwargs.get("out")
    if alloc is not None:
        specs[id(alloc.meta.get("spec"))] = alloc.meta.get("spec")
    return list(specs.values())


def _store_over(outs: list[Any], base: Any) -> None:
    """Store each out spec at offset 0 of `base`, every storage under it living as long."""
    for spec in outs:
        spec.storage_base = base
        spec.storage_base_offset = 0
        link = base
        while link is not None:
            link.lifetime[0] = min(link.lifetime[0], spec.lifetime[0])
            link.lifetime[1] = max(link.lifetime[1], spec.lifetime[1])
            link = link.storage_base


def _scratch_holds_ring(node: Any, ring: int) -> bool:
    """Whether the convolution's scratch tensor holds its kernel's need plus `ring` bytes."""
    from executorch.exir import memory

    allocs = [a for a in node.args if getattr(a, "target", None) is memory.alloc]
    shapes = [_shape(a) if hasattr(a, "meta") else a for a in node.args]
    sizes = scratch.scratch_sizes(str(operator_name(node)), shapes)
    if not sizes or len(allocs) != 1:
        return False
    have = _shape(allocs[0])
    return have is not None and have[0] >= sizes[0] + ring


def _root(spec: Any) -> Any:
    """The spec whose storage `spec` is stored in (itself when none)."""
    while spec.storage_base is not None:
        spec = spec.storage_base
    return spec


def _dies_here(spec: Any, index: int) -> bool:
    """Whether no tensor stored in `spec`'s storage is used after instruction `index`: the
    storage's lifetime (ExecuTorch extends a base's lifetime over what is stored in it, and a
    view shares its base's) ends there. Views are left alone."""
    if not _planned(spec) or type(spec).__name__ == "_ViewSpec":
        return False
    root = _root(spec)
    return _planned(root) and root.lifetime[1] == index and spec.lifetime[1] == index


def _in_place_input(node: Any, index: int) -> Any | None:
    """The input spec the out of `node` (instruction `index`) may be stored over, or None."""
    name = operator_name(node)
    outs = _outs(node)
    if not all(_planned(s) and s.storage_base is None for s in outs):
        return None
    candidates: list[Any] = []
    if name in CONVOLUTIONS:
        ring = in_place_ring(node)
        if ring is not None and _scratch_holds_ring(node, ring):
            candidates = [node.args[0]]
    elif name == ADD:
        candidates = _add_inputs(node)
    for value in candidates:
        base = value.meta.get("spec")
        if base is None or any(base is s for s in outs) or not _dies_here(base, index):
            continue
        if all(s.allocated_memory <= base.allocated_memory and s.dtype == base.dtype for s in outs):
            return base
    return None


def _planned_live(specs: Any, count: int) -> list[int]:
    """The planned bytes live at each of `count` nodes, from the specs' lifetimes."""
    live = [0] * count
    for spec in specs:
        if _planned(spec) and spec.storage_base is None:
            for j in range(max(0, spec.lifetime[0]), min(count - 1, spec.lifetime[1]) + 1):
                live[j] += spec.allocated_memory
    return live


def share_in_place_outs(graph_module: Any, specs: Any = ()) -> int:
    """Store the out of each qualifying call over its dying input, where that lowers the peak of
    the planned bytes `specs` keep live (all qualifying calls without specs); returns how many."""
    nodes = list(graph_module.graph.nodes)
    bases = {node: _in_place_input(node, i) if node.op == "call_function" else None for i, node in enumerate(nodes)}
    shares = {node for node, base in bases.items() if base is not None}
    live = _planned_live(specs, len(nodes))
    worth = _worth_it(nodes, live, shares) if specs else shares
    for node in nodes:
        if node in worth:
            _store_over(_outs(node), bases[node])
    return len(worth)


def in_place_aware(algorithm: Callable[..., Any]) -> Callable[..., Any]:
    """`algorithm` (an ExecuTorch planning algorithm) run after share_in_place_outs."""

    def plan(alignment: int, specs: Any, graph_module: Any, graph_signature: Any, extra_padding: int = 0) -> Any:
        share_in_place_outs(graph_module, specs)
        return algorithm(alignment, specs, graph_module, graph_signature, extra_padding)

    plan.__name__ = f"in_place_{getattr(algorithm, '__name__', 'algorithm')}"
    return plan
