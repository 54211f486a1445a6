"""Run an Ethos-U delegate on the NPU model and its TOSA flatbuffer on tosa_reference_model, on
the same seeded random inputs, and compare the outputs byte for byte.

usage: compare.py --tosa FILE --blob FILE [--seed N]
       bazel run //backends/ethos_u55/npu_model:compare -- --tosa FILE --blob FILE
Prints `npu_model: <n> outputs, <m> bytes, exact`, or the first mismatch (output, index,
values) with exit status 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ethos_u55.aot import vela_blob
from ethos_u55.npu_model.blob_runner import run_blob

_DTYPES: dict[int, type[np.signedinteger[Any]]] = {1: np.int8, 2: np.int16, 4: np.int32}


@dataclass(frozen=True)
class Report:
    """How many outputs, bytes and values were compared, and the first mismatch if any."""

    outputs: int
    nbytes: int
    values: int
    mismatch: str | None
    unsaturated: int = 0  # values strictly inside their integer type's range (not clamped)


def seeded_inputs(blob: bytes, seed: int) -> list[NDArray[Any]]:
    """Random inputs of the blob's input shapes and element sizes (full integer range)."""
    rng = np.random.default_rng(seed)
    inputs: list[NDArray[Any]] = []
    for io in vela_blob.parse(blob).inputs:
        dtype = _DTYPES[io.element_size]
        info = np.iinfo(dtype)
        shape = tuple(io.shape)
        while len(shape) > 1 and shape[0] == 1:
            shape = shape[1:]
        inputs.append(rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype))
    return inputs


def compare_outputs(got: list[NDArray[Any]], expected: list[NDArray[Any]]) -> Report:
    """Compare as bytes, output by output; report the first differing element."""
    nbytes = values = unsaturated = 0
    if len(got) != len(expected):
        return Report(len(got), 0, 0, f"npu_model has {len(got)} outputs, the reference {len(expected)}")
    for i, (g, e) in enumerate(zip(got, expected, strict=True)):
        if g.size != e.size or g.dtype.itemsize != e.dtype.itemsize:
            return Report(len(got), nbytes, values, f"output {i}: {g.size}x{g.dtype} vs reference {e.size}x{e.dtype}")
        flat_g, flat_e = g.ravel(), e.ravel().astype(g.dtype)
        differ = np.flatnonzero(flat_g != flat_e)
        if differ.size:
            k = int(differ[0])
            return Report(
                len(got),
                nbytes,
                values,
                f"output {i} index {k}: npu_model {flat_g[k]} reference {flat_e[k]} ({differ.size} of {g.size} differ)",
            )
        nbytes += g.nbytes
        values += g.size
        if np.issubdtype(g.dtype, np.integer):
            info = np.iinfo(g.dtype)
            unsaturated += int(np.count_nonzero((flat_g > info.min) & (flat_g < info.max)))
    return Report(len(got), nbytes, values, None, unsaturated)


def check(tosa: bytes, blob: bytes, inputs: list[NDArray[Any]]) -> Report:
    """The blob on the NPU model and the TOSA graph on tosa_reference_model, on `inputs`,
    compared (a reference that does not run is a mismatch too)."""
    import tosa_reference_model  # type: ignore[import-untyped]

    from tinypte.library_noise import TOSA_SPEC_VERSION_NOTE, native_stdout_without

    got = run_blob(blob, inputs)
    with native_stdout_without(TOSA_SPEC_VERSION_NOTE):
        expected, status = tosa_reference_model.run(tosa, inputs)
    if status != tosa_reference_model.GraphStatus.TOSA_VALID:
        return Report(len(got), 0, 0, f"tosa_reference_model returned {status}")
    return compare_outputs(got, [np.asarray(e) for e in expected])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tosa", type=Path, required=True, help="the delegate's TOSA flatbuffer")
    parser.add_argument("--blob", type=Path, required=True, help="the delegate's processed Ethos-U blob")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    # `bazel run` starts in the runfiles: relative paths are the caller's.
    caller = os.environ.get("BUILD_WORKING_DIRECTORY")
    if caller:
        args.tosa, args.blob = Path(caller) / args.tosa, Path(caller) / args.blob
    blob = args.blob.read_bytes()
    report = check(args.tosa.read_bytes(), blob, seeded_inputs(blob, args.seed))
    if report.mismatch is not None:
        print(f"npu_model: mismatch: {report.mismatch}")
        return 1
    print(f"npu_model: {report.outputs} outputs, {report.nbytes} bytes, exact")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
