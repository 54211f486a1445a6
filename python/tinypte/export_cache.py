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

`run_decompositions` then overrides the Python kernels of every one of those operators for the
time of the decomposition (`_override_composite_implicit_decomp`): 23 `py_impl` registrations an
operator, each through torch's generic checks, a new closure per autograd key, about 6,000
registrations and 75 ms an export. `install()` replaces that context manager with
`override_cia_decompositions`: the same kernels in the same tables (the autograd keys' "not
implemented" kernel, the operator's decomposition for CompositeImplicitAutograd, its original
CompositeImplicitAutograd behaviour for the backend keys, the fake-tensor rule), written
directly, the per-operator "not implemented" kernel made once, and the same restoration on exit.

Neither changes what torch computes: the conformance generators write bit-identical programs
and outputs with and without it (python/tests/export_cache_test.py checks one exported program
and the memoized set against torch's own). Together they cut a conformance case's export from
about 0.7 s to 0.2 s. Tied to torch 2.13's private functions: `install()` returns False and
changes nothing if those are not there (the test then fails, naming what moved).
"""

from __future__ import annotations

import contextlib
import functools
import importlib
from collections.abc import Callable as AbcCallable
from collections.abc import Iterator
from typing import Any

_installed = False

# The torch modules that hold (or imported by name) the function the cache wraps.
CIA_MODULES = ("torch._export.utils", "torch.export.exported_program", "torch.export.decomp_utils")
CIA_FUNCTION = "_collect_all_valid_cia_ops"
# What override_cia_decompositions replaces, and what it uses, in torch.export.exported_program.
OVERRIDE_MODULE = "torch.export.exported_program"
OVERRIDE_FUNCTION = "_override_composite_implicit_decomp"
OVERRIDE_USES = (
    "_AUTOGRAD_ALIAS_BACKEND_KEYS_TO_OVERRIDE",
    "_BACKEND_KEYS_TO_OVERRIDE",
    "_get_decomp_for_cia",
    "_is_op_registered_to_fake_rule",
    "_deregister_op_impl",
    "autograd_not_implemented",
    "register_op_impl",
)


def missing() -> list[str]:
    """What `install()` needs of torch and does not find (empty when it can install)."""
    absent = []
    for name in CIA_MODULES:
        module = importlib.import_module(name)
        if not callable(getattr(module, CIA_FUNCTION, None)):
            absent.append(f"{name}.{CIA_FUNCTION}")
    exported_program = importlib.import_module(OVERRIDE_MODULE)
    for name in (OVERRIDE_FUNCTION, *OVERRIDE_USES):
        if not hasattr(exported_program, name):
            absent.append(f"{OVERRIDE_MODULE}.{name}")
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
    exported_program = importlib.import_module(OVERRIDE_MODULE)
    override_cia_decompositions.torch_override = getattr(exported_program, OVERRIDE_FUNCTION)  # type: ignore[attr-defined]
    setattr(exported_program, OVERRIDE_FUNCTION, override_cia_decompositions)
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


# An operator's "autograd not implemented" kernel (stateless: made once per operator).
_not_implemented: dict[Any, Any] = {}


def _run_original_cia(fake_mode: Any, op: Any, *args: Any, original_callable: Any, **kwargs: Any) -> Any:
    """The fake-tensor rule of an overridden operator: its original CompositeImplicitAutograd
    behaviour, run under the fake mode (so device-dependent decompositions see fake tensors)."""
    with fake_mode:
        return original_callable(*args, **kwargs)


@contextlib.contextmanager
def override_cia_decompositions(cia_ops_to_callable: dict[Any, Any]) -> Iterator[None]:
    """torch's `_override_composite_implicit_decomp`, with the same effect written directly:
    for each operator, a "not implemented" kernel for every autograd key it has no kernel for,
    `decomposition` as its CompositeImplicitAutograd kernel, a fake-tensor rule running its
    original CompositeImplicitAutograd behaviour (unless it has one), and that behaviour for
    every backend key it has no kernel for; on exit its kernel table restored, its dispatch
    cache cleared and its fake-tensor rule removed (as torch does)."""
    import torch

    ep: Any = importlib.import_module(OVERRIDE_MODULE)
    cia = torch._C.DispatchKey.CompositeImplicitAutograd
    saved: dict[Any, dict[Any, Any]] = {}
    try:
        for op, decomposition in cia_ops_to_callable.items():
            kernels = op.py_kernels
            saved[op] = kernels.copy()
            not_implemented = _not_implemented.get(op)
            if not_implemented is None:
                not_implemented = _not_implemented[op] = ep.autograd_not_implemented(op, deferred_error=True)
            for key in ep._AUTOGRAD_ALIAS_BACKEND_KEYS_TO_OVERRIDE:
                if key not in kernels:
                    kernels[key] = not_implemented
            original = ep._get_decomp_for_cia(op)
            kernels.pop(cia, None)
            kernels[cia] = decomposition
            if not ep._is_op_registered_to_fake_rule(op):
                ep.register_op_impl(op)(functools.partial(_run_original_cia, original_callable=original))
            for key in ep._BACKEND_KEYS_TO_OVERRIDE:
                if key not in kernels:
                    kernels[key] = original
            op._dispatch_cache.clear()
        yield
    finally:
        for op, kernels in saved.items():
            op.py_kernels.clear()
            op.py_kernels.update(kernels)
            op._dispatch_cache.clear()
            ep._deregister_op_impl(op)
