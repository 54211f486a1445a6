"""Unit tests of tinypte.library_noise: each filter hides its one message and nothing else."""

from __future__ import annotations

import enum
import logging
import sys
import warnings

import pytest

from tinypte import library_noise

SO = "/venv/lib/python3.11/site-packages/torchao/_C_mxfp8.cpython-310-x86_64-linux-gnu.so"
ENUM_MESSAGE = (
    "%s is an Enum subclass and is now natively supported by torch.compile as an opaque value type. "
    "Calling register_constant() on Enum subclasses is deprecated and will be an error in a future release."
)
LEAF_SPEC = (
    "`isinstance(treespec, LeafSpec)` is deprecated, use `isinstance(treespec, TreeSpec) and treespec.is_leaf()` "
    "instead."
)


def enum_from(module: str) -> type[enum.Enum]:
    class KernelPreference(enum.Enum):
        AUTO = "auto"

    KernelPreference.__module__ = module
    return KernelPreference


def logged(caplog: pytest.LogCaptureFixture, logger: str, message: str, *args: object) -> bool:
    """Whether a WARNING logged with `message % args` on `logger` reaches the handlers."""
    caplog.clear()
    library_noise.install()
    with caplog.at_level(logging.WARNING):
        logging.getLogger(logger).warning(message, *args)
    return len(caplog.records) == 1


def test_torchao_cuda_extensions_are_hidden(caplog: pytest.LogCaptureFixture) -> None:
    cutlass = SO.replace("_C_mxfp8.cpython-310-x86_64-linux-gnu", "_C_cutlass_90a.abi3")
    for so in (SO, cutlass):
        assert not logged(caplog, "torchao", f"Failed to load {so}: Could not load this library: {so}")


def test_other_torchao_warnings_show(caplog: pytest.LogCaptureFixture) -> None:
    other_so = SO.replace("_C_mxfp8", "_C_cpu_kernels")
    assert logged(caplog, "torchao", f"Failed to load {other_so}: Could not load this library: {other_so}")
    assert logged(caplog, "torchao", f"Failed to load {SO}: undefined symbol: _ZN3c10")
    assert logged(caplog, "torchao", "Skipping import of cpp extensions due to incompatible torch version.")
    assert logged(caplog, "torchao.quantization", f"Failed to load {SO}: Could not load this library: {SO}")


def test_torchao_enum_pytree_constants_are_hidden(caplog: pytest.LogCaptureFixture) -> None:
    preference = enum_from("torchao.quantization.quantize_.common.kernel_preference")
    assert not logged(caplog, "torch.utils._pytree", ENUM_MESSAGE, preference)


def test_other_pytree_warnings_show(caplog: pytest.LogCaptureFixture) -> None:
    assert logged(caplog, "torch.utils._pytree", ENUM_MESSAGE, enum_from("model"))
    assert logged(caplog, "torch.utils._pytree", "%s is deprecated", enum_from("torchao.x"))


def warns(message: str, category: type[Warning], module: str) -> bool:
    """Whether a warning attributed to `module` is shown with the filters installed."""
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        library_noise.install()
        warnings.warn_explicit(message, category, filename=f"{module}.py", lineno=1, module=module)
    return len(shown) == 1


def test_leaf_spec_copy_warning_is_hidden() -> None:
    assert not warns(LEAF_SPEC, FutureWarning, "copyreg")


def test_other_warnings_show() -> None:
    assert warns(LEAF_SPEC, FutureWarning, "model")  # code that uses LeafSpec itself
    assert warns(LEAF_SPEC, DeprecationWarning, "copyreg")
    assert warns("`torch.foo` is deprecated", FutureWarning, "copyreg")


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
