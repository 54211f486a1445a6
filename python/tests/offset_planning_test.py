"""Unit tests of tinypte.export.offset_planning: the lowest-offset arena planner, on stand-ins for
ExecuTorch's TensorSpecs and graph (what the planner reads of them: size, lifetime, memory id,
storage base, and the nodes that hold them)."""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from typing import Any

import pytest

from tinypte.export.offset_planning import _lowest_free_offset, lowest_offset

RANDOM_PLANS = 300  # random plans checked for overlaps; the test fails if fewer ran


@dataclass(eq=False)
class Spec:
    allocated_memory: int
    lifetime: list[int]
    mem_id: int | None = None
    storage_base: Spec | None = None
    storage_base_offset: int = 0

    def realign(self, alignment: int) -> None:
        self.allocated_memory = -(-self.allocated_memory // alignment) * alignment


@dataclass
class Node:
    meta: dict[str, Any]


@dataclass
class Graph:
    nodes: list[Node] = field(default_factory=list)


@dataclass
class Module:
    graph: Graph


def module_of(specs: list[Spec]) -> Module:
    return Module(Graph([Node({"spec": spec}) for spec in specs]))


def plan(specs: list[Spec], alignment: int = 16) -> tuple[dict[int, int], list[int]]:
    """(index of spec -> offset, buffer sizes)."""
    result = lowest_offset(alignment, set(specs), module_of(specs), None)
    return {i: result.spec_dict[s].mem_offset for i, s in enumerate(specs)}, result.bufsizes


def test_the_lowest_free_offset_skips_busy_ranges_and_aligns() -> None:
    assert _lowest_free_offset(10, 16, []) == 0
    assert _lowest_free_offset(10, 16, [(0, 5)]) == 16
    assert _lowest_free_offset(16, 16, [(16, 32), (0, 16)]) == 32
    assert _lowest_free_offset(16, 16, [(32, 48), (0, 16)]) == 16  # a gap that fits exactly


def test_a_tensor_reuses_the_space_of_one_that_died() -> None:
    a, b, c = Spec(100, [0, 1]), Spec(100, [1, 2]), Spec(100, [2, 3])
    offsets, sizes = plan([a, b, c])
    assert offsets == {0: 0, 1: 112, 2: 0}
    assert sizes == [0, 224]


def test_space_freed_inside_a_large_tensor_is_reused_by_two_small_ones() -> None:
    # ExecuTorch's greedy gives the 64 B tensors their own object beside the 128 B one's, as both
    # live at once with a third tensor; here they fit where the large one was.
    big, small1, small2, keep = Spec(128, [0, 1]), Spec(64, [2, 3]), Spec(64, [2, 3]), Spec(32, [0, 3])
    offsets, sizes = plan([big, small1, small2, keep])
    assert sorted([offsets[1], offsets[2]]) == [0, 64] and offsets[3] == 128
    assert sizes == [0, 160]


def test_stored_in_another_means_at_its_offset_plus_its_own() -> None:
    base, other = Spec(64, [0, 2]), Spec(64, [0, 1])
    inside = Spec(32, [2, 3], storage_base=base, storage_base_offset=32)
    offsets, sizes = plan([other, base, inside])
    assert offsets[2] == offsets[1] + 32 and sizes == [0, 128]


def test_memory_ids_are_planned_apart() -> None:
    offsets, sizes = plan([Spec(64, [0, 1], mem_id=1), Spec(32, [0, 1], mem_id=2)])
    assert offsets == {0: 0, 1: 0} and sizes == [0, 64, 32]


def test_the_plan_does_not_depend_on_the_order_of_the_set() -> None:
    specs = [Spec(48, [i, i + 2]) for i in range(12)]
    first = plan(specs)
    for seed in range(20):
        shuffled = specs[:]
        random.Random(seed).shuffle(shuffled)
        result = lowest_offset(16, set(shuffled), module_of(specs), None)
        assert {i: result.spec_dict[s].mem_offset for i, s in enumerate(specs)} == first[0]


def test_a_spec_outside_the_graph_is_an_error() -> None:
    with pytest.raises(ValueError, match="belong to no node"):
        lowest_offset(16, {Spec(16, [0, 1])}, module_of([]), None)


def test_random_plans_never_overlap_and_stay_within_twice_the_peak() -> None:
    rng = random.Random(26)
    checked = 0
    for _ in range(RANDOM_PLANS):
        specs = []
        for _ in range(rng.randint(1, 24)):
            start = rng.randint(0, 20)
            specs.append(Spec(rng.choice([16, 48, 100, 256, 1000, 4096]), [start, start + rng.randint(0, 6)]))
        offsets, sizes = plan(specs)
        for i, a in enumerate(specs):
            assert offsets[i] % 16 == 0 and offsets[i] + a.allocated_memory <= sizes[1]
            for j in range(i):
                b = specs[j]
                live_together = not (a.lifetime[1] < b.lifetime[0] or a.lifetime[0] > b.lifetime[1])
                apart = offsets[i] + a.allocated_memory <= offsets[j] or offsets[j] + b.allocated_memory <= offsets[i]
                assert apart or not live_together, (i, j)
        peak = max(sum(s.allocated_memory for s in specs if s.lifetime[0] <= t <= s.lifetime[1]) for t in range(30))
        assert peak <= sizes[1] <= 2 * peak
        checked += 1
    assert checked >= RANDOM_PLANS


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
