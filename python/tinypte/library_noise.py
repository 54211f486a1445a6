"""Hide the few messages torch and torchao print on every run that say nothing about the user's model.

Importing ExecuTorch imports torchao, which logs two `Failed to load ...so` lines and makes
torch log a deprecation line; torch's export then raises a FutureWarning from inside its
own code. None of them is about tinypte or the model, and Bazel shows them in every action
that imports ExecuTorch. `install()` filters exactly those messages (library, logger or
warning category, and text); every other warning and log record still shows. Native code's
notes (tosa_reference_model's) are filtered around the call that prints them
(`native_stdout_without`).
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import re
import sys
import tempfile
import warnings
from collections.abc import Iterator


class _DropRecords(logging.Filter):
    """A logger filter that drops the records `matches` accepts and passes the rest."""

    def __init__(self, pattern: str, *, arg_module: str | None = None) -> None:
        super().__init__()
        self._pattern = re.compile(pattern)
        self._arg_module = arg_module

    def matches(self, record: logging.LogRecord) -> bool:
        if not self._pattern.fullmatch(str(record.msg)):
            return False
        if self._arg_module is None:
            return True
        args = record.args if isinstance(record.args, tuple) else ()
        module = getattr(args[0], "__module__", "") if args else ""
        return isinstance(module, str) and module.startswith(self._arg_module + ".")

    def filter(self, record: logging.LogRecord) -> bool:
        return not self.matches(record)


# torchao's __init__ loads its prebuilt C++ extensions and logs a warning for each that fails:
# these two hold CUDA-only kernels (MX fp8; CUTLASS for sm_90a, built for CPython 3.10) that
# cannot load with our CPU-only torch and that tinypte never calls.
TORCHAO_CUDA_EXTENSIONS = _DropRecords(
    r"Failed to load .*/torchao/_C_(mxfp8|cutlass_90a)\.[\w.-]*\.so: Could not load this library: .*"
)

# torchao registers its own Enum classes (KernelPreference) as pytree constants, which torch
# now calls deprecated: a note to torchao's developers, logged by torch.utils._pytree.
TORCHAO_ENUM_PYTREE_CONSTANTS = _DropRecords(
    r"%s is an Enum subclass and is now natively supported by torch\.compile as an opaque value type\. "
    r"Calling register_constant\(\) on Enum subclasses is deprecated and will be an error in a future release\.",
    arg_module="torchao",
)

# ExecuTorch's Cortex-M pass manager (int8 export) derives from exir's deprecated
# PassManager, which logs so each time one is made: a note to the backend's developers.
EXIR_PASS_MANAGER_DEPRECATED = _DropRecords(
    r"PassManager is deprecated\. Please use ExportedProgramPassManager instead\."
)

LOGGER_FILTERS = (
    ("torchao", TORCHAO_CUDA_EXTENSIONS),
    ("torch.utils._pytree", TORCHAO_ENUM_PYTREE_CONSTANTS),
    ("executorch.exir.pass_manager", EXIR_PASS_MANAGER_DEPRECATED),
)

# torch.export's run_decompositions deep-copies its module call graph, and copying a LeafSpec
# (through copyreg) trips torch's own deprecation of LeafSpec: nothing tinypte calls.
LEAF_SPEC_MESSAGE = r"`isinstance\(treespec, LeafSpec\)` is deprecated"
LEAF_SPEC_MODULE = r"copyreg\Z"


def install() -> None:
    """Install the filters above (idempotent); call it before torch or ExecuTorch is imported."""
    for logger_name, record_filter in LOGGER_FILTERS:
        logging.getLogger(logger_name).addFilter(record_filter)
    warnings.filterwarnings("ignore", message=LEAF_SPEC_MESSAGE, category=FutureWarning, module=LEAF_SPEC_MODULE)


# tosa_reference_model (C++) prints this on stdout for every graph ExecuTorch's Arm backend
# serialized: the graph is TOSA 1.0 and the reader 1.1, which reads 1.0. Nothing to act on.
TOSA_SPEC_VERSION_NOTE = re.compile(
    r"WARNING: Different TOSA spec in flatbuffer and serializer versions detected\. Read TOSA spec in flatbuffer "
    r"[\d.]+\w* is backward compatible with serializer version [\d.]+\w*"
)


@contextlib.contextmanager
def native_stdout_without(pattern: re.Pattern[str]) -> Iterator[None]:
    """Run the block with file descriptor 1 captured (what native code prints bypasses
    sys.stdout), then print every captured line except those `pattern` matches whole."""
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as captured:
        os.dup2(captured.fileno(), 1)
        try:
            yield
        finally:
            sys.stdout.flush()
            ctypes.CDLL(None).fflush(None)  # C's stdio buffer, before fd 1 points back
            os.dup2(saved, 1)
            os.close(saved)
            captured.seek(0)
            text = captured.read().decode(errors="replace")
    kept = [line for line in text.splitlines() if not pattern.fullmatch(line.strip())]
    if kept:
        print("\n".join(kept), flush=True)
