"""Make torch.export's decompositions cheap to run many times in one process.

Every `run_decompositions` (each `to_edge`) recomputes the set of operators whose
CompositeImplicitAutograd kernel may be preserved: torch 2.13 walks every operator namespace,
and for each one queries the C++ dispatcher's whole CompositeImplicitAutograd registration list
again (`_materialize_cpp_cia_ops`): about 0.4 s a call with ExecuTorch's namespaces loaded, for
a program that takes 0.1 s to lower. The set only changes when operators or kernels are
registered, so `install()` memoizes it, keyed by what it is computed from: the namespaces of
`torch.ops`, the number of operators the dispatcher knows and the number of
CompositeImplicitAutograd registrations (a registration of either kind gives a new key, and
the set is computed afresh). Each caller gets its own copy, as before.

`run_decompositions` then overrides the Python kernels of every one of those operators and
restores them: about 6,000 `OperatorBase.py_impl(DispatchKey)` calls an export, each of which
defines a function with `Callable[...]` annotations (evaluated at every call: new generic-alias
objects) and tests its key against classes and transform types before storing it. `install()`
gives py_impl a direct path for a `DispatchKey`, with torch's checks (no kernel for the Python
key, none registered twice) and effect (the kernel stored, the dispatch cache cleared); any other
key takes torch's own path.

Neither changes what torch computes: the conformance generators write bit-identical programs
and outputs with and without it (python/tests/export_cache_test.py checks one exported program
and the memoized set against torch's own). Together they cut a conformance case's export from
about 0.7 s to 0.3 s. Tied to torch 2.13's private functions: `install()` returns False and
changes nothing if those are not there (the test then fails, naming what moved).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable as AbcCallable
from typing import Any

_installed = False

# The torch modules that hold (or imported by name) the function the cache wraps.
CIA_MODULES = ("torch._export.utils", "torch.export.exported_program", "torch.export.decomp_utils")
CIA_FUNCTION = "_collect_all_valid_cia_ops"


def missing() -> list[str]:
    """What `install()` needs of torch and does not find (empty when it can install)."""
    absent = []
    for name in CIA_MODULES:
        module = importlib.import_module(name)
        if not callable(getattr(module, CIA_FUNCTION, None)):
            absent.append(f"{name}.{CIA_FUNCTION}")
    operator_base = getattr(importlib.import_module("torch._ops"), "OperatorBase", None)
    if not callable(getattr(operator_base, "py_impl", None)):
        absent.append("torch._ops.OperatorBase.py_impl")
    return absent


def install() -> bool:
    """Install both speed-ups (idempotent); False if this torch lacks what they replace."""
    global _installed
    if _installed:
        return True
    if missing():
        return False
    utils = importlib.import_module("torch._export.utils")
    cached = _memoized(getattr(utils, CIA_FUNCTION))
    for name in CIA_MODULES:
        setattr(importlib.import_module(name), CIA_FUNCTION, cached)
    operator_base: Any = importlib.import_module("torch._ops").OperatorBase
    operator_base.py_impl = _direct_py_impl(operator_base.py_impl)
    _installed = True
    return True


def registry_key() -> tuple[Any, ...]:
    """What the preservable-operator set is computed from: operator namespaces, operators,
    CompositeImplicitAutograd registrations."""
    import torch

    return (
        tuple(torch.ops._dir),
        len(torch._C._dispatch_get_all_op_names()),
        len(torch._C._dispatch_get_registrations_for_dispatch_key("CompositeImplicitAutograd")),
    )


def _memoized(compute: AbcCallable[[], set[Any]]) -> AbcCallable[[], set[Any]]:
    results: dict[tuple[Any, ...], frozenset[Any]] = {}

    @functools.wraps(compute)
    def collect() -> set[Any]:
        key = registry_key()
        found = results.get(key)
        if found is None:
            found = results[key] = frozenset(compute())
        return set(found)

    collect.uncached = compute  # type: ignore[attr-defined]
    return collect


def _direct_py_impl(torch_py_impl: AbcCallable[..., Any]) -> AbcCallable[..., Any]:
    """OperatorBase.py_impl with a direct path for a DispatchKey (see the module docstring)."""
    from torch._C import DispatchKey

    @functools.wraps(torch_py_impl)
    def py_impl(self: Any, key: Any) -> Any:
        if type(key) is not DispatchKey:
            return torch_py_impl(self, key)

        def register(kernel: Any) -> Any:
            if key == DispatchKey.Python:
                raise AssertionError("Please register a mode for the DispatchKey.Python key instead.")
            if key in self.py_kernels:
                raise RuntimeError(f"Trying to override a python impl for {key} on operator {self.name()}")
            self.py_kernels[key] = kernel
            self._dispatch_cache.clear()
            return kernel

        return register

    py_impl.torch_py_impl = torch_py_impl  # type: ignore[attr-defined]
    return py_impl
