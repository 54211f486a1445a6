"""tinypte.export_cache changes how fast torch.export decomposes, never what it produces.

In one process: small programs are exported before `install()` and again after it, and must be
the same bytes; the memoized set of preservable operators must equal torch's own computation,
also after an operator (with a CompositeImplicitAutograd kernel) is registered; and py_impl's
direct path registers kernels as torch's does, with the same errors.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import torch

from tinypte import export_cache
from tinypte.export.program import export_program

# The programs exported with and without the cache: (name, module, example inputs).
MIN_PROGRAMS = 4


class ConvRelu(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.conv(x))


class LinearSoftmax(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = torch.nn.Linear(8, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.fc(x), dim=-1)


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


def test_direct_py_impl_registers_as_torch_does() -> None:
    assert export_cache.install()
    from torch._C import DispatchKey
    from torch._ops import OperatorBase

    torch_py_impl: Any = OperatorBase.py_impl.torch_py_impl  # type: ignore[attr-defined]
    torch.library.define("tinypte_export_cache_test::py_impl_probe", "(Tensor x) -> Tensor")
    torch.library.define("tinypte_export_cache_test::py_impl_probe_torch", "(Tensor x) -> Tensor")
    ours = torch.ops.tinypte_export_cache_test.py_impl_probe.default
    theirs = torch.ops.tinypte_export_cache_test.py_impl_probe_torch.default

    def kernel(x: torch.Tensor) -> torch.Tensor:
        return x

    keys = [DispatchKey.CPU, DispatchKey.Meta, DispatchKey.AutogradCPU, DispatchKey.CompositeImplicitAutograd]
    for key in keys:
        ours._dispatch_cache[key] = key  # a cached entry the registration must clear
        assert ours.py_impl(key)(kernel) is kernel
        assert key not in ours._dispatch_cache
        torch_py_impl(theirs, key)(kernel)
    assert list(ours.py_kernels.items()) == list(theirs.py_kernels.items())
    checked = 0
    for key in keys:  # a second kernel for a key: the same error as torch's
        with pytest.raises(RuntimeError) as mine:
            ours.py_impl(key)(kernel)
        with pytest.raises(RuntimeError) as torch_error:
            torch_py_impl(theirs, key)(kernel)
        assert str(mine.value) == str(torch_error.value).replace("_torch", "")
        checked += 1
    with pytest.raises(AssertionError, match="Please register a mode"):
        ours.py_impl(DispatchKey.Python)(kernel)
    assert checked == len(keys)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
