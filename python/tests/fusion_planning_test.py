"""Unit tests of fusion_planning: which activation outs are placed in their producer's storage.

The graphs are small stand-ins for ExecuTorch's (nodes with targets, args, users and specs):
the rule is about graph shape, not about ExecuTorch's objects. The end-to-end checks are
pte_run_test's `fused_relu` (sine's relus fused at init, its arena unchanged) and the
conformance cases `fuse_*` (ExecuTorch's runtime runs the in-place programs).

The planner's operator sets restate the kernels' flags; the last test checks them against
the kernel sources (the registry's scan of TP_KERNEL_WITH lines): the producers are the
kernels flagged TP_KERNEL_TAKES_CLAMP, the activations those flagged TP_KERNEL_CLAMP.

usage: fusion_planning_test.py KERNEL.c...   (the kernel sources, as Bazel passes them)
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tinypte.export import fusion_planning
from tinypte.kernels import registry


@dataclass
class Schema:
    name: str


@dataclass
class Target:
    _schema: Schema


@dataclass(eq=False)
class Spec:
    lifetime: list[int]
    const: bool = False
    storage_base: Any = None
    storage_base_offset: int = 0
    allocated_memory: int = 64
    dtype: str = "float32"


@dataclass(eq=False)
class Node:
    op: str | None
    args: tuple[Any, ...] = ()
    spec: Spec | None = None
    users: dict[Any, None] = field(default_factory=dict)
    kwargs: dict[str, Any] = field(default_factory=dict)

    @property
    def target(self) -> Any:
        return Target(Schema(self.op)) if self.op else "placeholder"

    @property
    def meta(self) -> dict[str, Any]:
        return {"spec": self.spec}

    @property
    def all_input_nodes(self) -> list[Any]:
        return [a for a in (*self.args, *self.kwargs.values()) if isinstance(a, Node)]


@dataclass
class Graph:
    nodes: list[Node]


@dataclass
class Module:
    graph: Graph


def chain(producer_op: str, activation_op: str, extra_user: bool = False) -> tuple[Module, Spec, Spec, Spec]:
    """x -> producer(x, out=alloc) -> activation(out=alloc2); returns (module, x, producer out, activation out)."""
    x = Node(None, spec=Spec([0, 2]))
    produced = Spec([1, 3])
    alloc = Node("memory::alloc", spec=produced)
    producer = Node(producer_op, (x,), kwargs={"out": alloc}, spec=produced)
    activated = Spec([3, 7])
    alloc2 = Node("memory::alloc", spec=activated)
    activation = Node(activation_op, (producer,), kwargs={"out": alloc2}, spec=activated)
    producer.users[activation] = None
    if extra_user:
        producer.users[Node("aten::add")] = None
    assert x.spec is not None
    return Module(Graph([x, alloc, producer, alloc2, activation])), x.spec, produced, activated


@pytest.mark.parametrize("producer", sorted(fusion_planning.PRODUCERS))
@pytest.mark.parametrize("activation", sorted(fusion_planning.ACTIVATIONS))
def test_activation_out_lives_in_the_producer_out(producer: str, activation: str) -> None:
    module, x, produced, activated = chain(producer, activation)
    assert fusion_planning.share_activation_outs(module) == 1
    assert activated.storage_base is produced and activated.storage_base_offset == 0
    assert produced.lifetime == [1, 7]  # the shared storage lives as long as the activation's out
    assert x.lifetime == [0, 2] and x.storage_base is None


def test_no_sharing_when_the_producer_has_another_reader() -> None:
    module, _, produced, activated = chain("aten::addmm", "aten::relu", extra_user=True)
    assert fusion_planning.share_activation_outs(module) == 0
    assert activated.storage_base is None and produced.lifetime == [1, 3]


def test_no_sharing_for_other_operators() -> None:
    for producer, activation in [("aten::add", "aten::relu"), ("aten::addmm", "aten::sigmoid")]:
        module, _, produced, activated = chain(producer, activation)
        assert fusion_planning.share_activation_outs(module) == 0
        assert activated.storage_base is None and produced.lifetime == [1, 3]


def test_no_sharing_between_different_sizes_or_constants() -> None:
    module, _, produced, activated = chain("aten::mm", "aten::clamp")
    activated.allocated_memory = 128
    assert fusion_planning.share_activation_outs(module) == 0
    module, _, produced, activated = chain("aten::mm", "aten::clamp")
    produced.const = True
    assert fusion_planning.share_activation_outs(module) == 0
    assert activated.storage_base is None


def test_operator_sets_are_the_kernels_flags() -> None:
    sources = [Path(p) for p in os.environ["TINYPTE_KERNEL_SOURCES"].split(os.pathsep)]
    kernels = registry.scan(sources).values()
    assert len(kernels) >= 200, f"only {len(kernels)} kernels scanned"

    def flagged(flag: str) -> set[str]:
        return {k.name for k in kernels if flag in k.flags}

    assert flagged("TP_KERNEL_TAKES_CLAMP") == set(fusion_planning.PRODUCERS)
    assert flagged("TP_KERNEL_CLAMP") == set(fusion_planning.ACTIVATIONS)


if __name__ == "__main__":
    os.environ["TINYPTE_KERNEL_SOURCES"] = os.pathsep.join(sys.argv[1:])
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
