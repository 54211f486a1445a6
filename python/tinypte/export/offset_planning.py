"""Arena planning by offsets: each tensor at the lowest offset free for its whole lifetime.

ExecuTorch's `greedy` algorithm groups tensors into shared objects (buffers of fixed size, each
the size of the largest tensor it ever held) and lays the objects end to end; a small tensor can
only reuse a part of an object when some tensor already placed there lives at the same time, so
space freed at the end of a large object is often lost. vww_int8's arena came out 82,944 B where
its largest kernel call needs 55,624 B.

`lowest_offset` plans as TensorFlow Lite Micro's greedy planner does: tensors largest first (ties
by the order the graph creates them, so the plan is the same on every run), each at the lowest
aligned offset where it overlaps, in memory, no tensor already placed whose lifetime overlaps its
own. A tensor stored in another's storage (ExecuTorch's `storage_base`: in-place ops and
tinypte's fusion planning) gets its base's offset plus its own. It is an algorithm of
ExecuTorch's `MemoryPlanningAlgorithmSuite` (same arguments, same result type), and ExecuTorch's
verifier checks its plan like any other: no two tensors that live at once share a byte.
"""

from __future__ import annotations

from typing import Any


def _creation_order(graph_module: Any) -> dict[int, tuple[int, int]]:
    """id(spec) -> (index of the first node that holds it, its place among that node's outputs):
    a total order of the graph's tensors, for tie-breaks that do not depend on object addresses."""
    order: dict[int, tuple[int, int]] = {}
    for index, node in enumerate(graph_module.graph.nodes):
        spec = node.meta.get("spec")
        for place, item in enumerate(spec if isinstance(spec, (list, tuple)) else [spec]):
            if item is not None:
                order.setdefault(id(item), (index, place))
    return order


def _overlap(a: list[int], b: list[int]) -> bool:
    """Whether two inclusive lifetimes [first, last] share an instruction."""
    return not (a[1] < b[0] or a[0] > b[1])


def _lowest_free_offset(size: int, alignment: int, busy: list[tuple[int, int]]) -> int:
    """The lowest multiple of `alignment` where [offset, offset + size) misses every busy range."""
    offset = 0
    for start, end in sorted(busy):
        if offset + size <= start:
            break
        offset = max(offset, -(-end // alignment) * alignment)
    return offset


def lowest_offset(alignment: int, specs: Any, graph_module: Any, graph_signature: Any, extra_padding: int = 0) -> Any:
    """Plan `specs` (ExecuTorch TensorSpecs with lifetimes) by lowest free offset; see the module docstring."""
    from executorch.exir.memory_planning import MemoryAlgoResult, SpecAllocResult

    del graph_signature  # the specs to plan are given; the signature is not needed
    order = _creation_order(graph_module)
    result = MemoryAlgoResult({}, [])
    based: list[Any] = []
    placed: dict[int, list[tuple[Any, int]]] = {}  # mem_id -> (spec, offset)
    for spec in specs:
        spec.realign(alignment)
    missing = [s for s in specs if id(s) not in order]
    if missing:
        raise ValueError(f"lowest_offset: {len(missing)} tensors to plan belong to no node of the graph")
    ranked = sorted(specs, key=lambda s: (-s.allocated_memory, order[id(s)]))
    for spec in ranked:
        mem_id = 1 if spec.mem_id is None else spec.mem_id
        if spec.storage_base is not None:
            based.append(spec)
            continue
        others = placed.setdefault(mem_id, [])
        busy = [
            (offset, offset + other.allocated_memory)
            for other, offset in others
            if _overlap(spec.lifetime, other.lifetime)
        ]
        offset = _lowest_free_offset(spec.allocated_memory, alignment, busy)
        others.append((spec, offset))
        result.spec_dict[spec] = SpecAllocResult(mem_id, 0, offset)
    input_sizes = getattr(graph_module, "input_mem_buffer_sizes", None) or []
    sizes = [0] * (max([1, *placed]) + 1)
    for mem_id, others in placed.items():
        start = input_sizes[mem_id] if mem_id < len(input_sizes) else 0
        for spec, offset in others:
            result.spec_dict[spec].mem_offset = start + offset
        sizes[mem_id] = (
            start + max((offset + spec.allocated_memory for spec, offset in others), default=0) + extra_padding
        )
    for spec in based:  # in another's storage: at its root's offset, plus each link's own
        root, shift = spec, 0
        while root.storage_base is not None:
            shift += root.storage_base_offset
            root = root.storage_base
        if root not in result.spec_dict:
            raise ValueError("lowest_offset: a tensor is stored in storage that is never planned")
        base = result.spec_dict[root]
        result.spec_dict[spec] = SpecAllocResult(base.mem_id, 0, base.mem_offset + shift)
    result.bufsizes = sizes
    return result
