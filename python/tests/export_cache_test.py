"""tinypte.export_cache changes how fast torch.export decomposes, never what it produces.

In one process: small programs are exported before `install()` and again after it, and must be
the same bytes; the memoized set of preservable operators must equal torch's own computation,
also after an operator (with a CompositeImplicitAutograd kernel) is registered; and the
override registers the same kernels and fake-tensor rules as torch's, and restores the same.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

import pytest
import torch
from small_modules import ConvRelu, LinearSoftmax

from tinypte import export_cache
from tinypte.export.pipeline import export_program

# The programs exported with and without the cache: (name, module, example inputs).
MIN_PROGRAMS = 4
# Operators whose kernels the override must register as torch's does.
MIN_OVERRIDDEN_OPS = 200


class MeanGelu(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.gelu(x.mean(dim=(2, 3)))


class LayerNormMatmul(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.norm = torch.nn.LayerNorm(6)

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        normed: torch.Tensor = self.norm(x)
        return normed @ y


def programs() -> list[tuple[str, torch.nn.Module, tuple[torch.Tensor, ...]]]:
    torch.manual_seed(0)
    return [
        ("conv_relu", ConvRelu().eval(), (torch.randn(1, 3, 6, 6),)),
        ("linear_softmax", LinearSoftmax().eval(), (torch.randn(2, 8),)),
        ("mean_gelu", MeanGelu().eval(), (torch.randn(1, 3, 4, 4),)),
        ("layer_norm_matmul", LayerNormMatmul().eval(), (torch.randn(3, 6), torch.randn(6, 2))),
    ]


def exported() -> dict[str, bytes]:
    return {name: export_program(module, inputs, True, Path(name)) for name, module, inputs in programs()}


def test_same_programs_and_same_operator_sets() -> None:
    # Both halves in one test, in this order: the first exports must run before install().
    assert not export_cache._installed, "another test installed the cache first"
    before = exported()
    assert export_cache.missing() == [], "torch changed: tinypte.export_cache no longer applies"
    assert export_cache.install()
    after = exported()
    assert len(before) >= MIN_PROGRAMS
    for name in before:
        assert after[name] == before[name], f"{name}: different bytes with the export cache"

    from torch._export import utils

    collect: Any = utils._collect_all_valid_cia_ops
    assert collect.uncached is not None
    assert collect() == collect.uncached()
    key = export_cache.registry_key()
    torch.library.define("tinypte_export_cache_test::twice", "(Tensor x) -> Tensor")
    torch.library.impl("tinypte_export_cache_test::twice", "CompositeImplicitAutograd")(lambda x: x * 2)
    assert export_cache.registry_key() != key, "registering an operator must give a new key"
    assert collect() == collect.uncached()
    assert any(str(op).startswith("tinypte_export_cache_test.twice") for op in collect())
    # Each caller gets its own copy: changing one does not change the next.
    taken = collect()
    taken.clear()
    assert collect()


def describe(kernel: Any) -> Any:
    """A kernel as something comparable across two registrations: a partial by its keywords, a
    closure by its code's name and its cells, anything else by itself."""
    if isinstance(kernel, functools.partial):
        return ("partial", tuple(sorted((k, describe(v)) for k, v in kernel.keywords.items())))
    if callable(kernel) and getattr(kernel, "__closure__", None):
        return (kernel.__code__.co_name, tuple(describe(cell.cell_contents) for cell in kernel.__closure__))
    return kernel


def kernel_tables(ops: list[Any]) -> dict[Any, Any]:
    """Each operator's Python kernels and fake-tensor rule, described."""
    from torch._subclasses import fake_impls

    return {
        op: (
            {key: describe(kernel) for key, kernel in op.py_kernels.items()},
            describe(fake_impls.op_implementations_dict.get(op)),
        )
        for op in ops
    }


def test_override_registers_what_torch_registers() -> None:
    assert export_cache.install()
    from torch.export import exported_program

    ours: Any = exported_program._override_composite_implicit_decomp
    theirs = ours.torch_override
    table, _ = exported_program._split_decomp_table_to_cia_and_python_decomp(exported_program.default_decompositions())
    ops = list(table)
    assert len(ops) >= MIN_OVERRIDDEN_OPS, f"only {len(ops)} operators overridden"
    before = kernel_tables(ops)
    with theirs(table):
        torch_inside = kernel_tables(ops)
    torch_after = kernel_tables(ops)
    with ours(table):
        our_inside = kernel_tables(ops)
    our_after = kernel_tables(ops)
    differing = [op for op in ops if our_inside[op] != torch_inside[op]]
    assert not differing, f"{len(differing)} operators registered otherwise, e.g. {differing[0]}"
    assert our_after == torch_after
    assert sum(len(kernels) for kernels, _ in torch_inside.values()) > sum(len(k) for k, _ in before.values())


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
