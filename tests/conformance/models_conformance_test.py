"""The example models through pte_run, compared with ExecuTorch's host runtime.

usage: models_conformance_test.py PTE_RUN MODEL.pte MODEL.golden.bin [MODEL.pte MODEL.golden.bin ...]

For every golden input of each model, tinypte's runtime (pte_run, all kernels) and
ExecuTorch's runtime run the same .pte; their outputs must agree within 1e-6 relative
(+1e-7 absolute, for outputs near zero). Prints the worst difference per model.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tinypte.golden.format import Golden
from tinypte.oracle.executorch_host import first_outputs

REL = 1e-6
ABS = 1e-7


def run_tinypte(pte_run: str, pte: Path, inputs: list[npt.NDArray[Any]], work: Path) -> list[npt.NDArray[Any]]:
    files = []
    for index, array in enumerate(inputs):
        path = work / f"in{index}.bin"
        np.ascontiguousarray(array).tofile(path)
        files.append(str(path))
    subprocess.run([pte_run, str(pte), *files, "--out", str(work)], check=True, capture_output=True, text=True)
    return [np.fromfile(work / "out0.bin", dtype=np.float32)]


def check_model(pte_run: str, pte: Path, golden_path: Path) -> int:
    """Run every golden input through both runtimes; raises on a mismatch, returns the count."""
    golden = Golden.from_bytes(golden_path.read_bytes())
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for case, (inputs, result) in enumerate(zip(golden.inputs, first_outputs(pte, golden.inputs), strict=True)):
            expected = result.ravel()
            got = run_tinypte(pte_run, pte, list(inputs), Path(tmp))[0]
            if got.shape != expected.shape or not np.allclose(got, expected, rtol=REL, atol=ABS):
                raise AssertionError(f"{pte.name} case {case}: tinypte {got[:8]} vs ExecuTorch {expected[:8]}")
            worst = max(worst, float(np.max(np.abs(got - expected))))
    print(f"{pte.name}: {len(golden.inputs)} inputs, max |tinypte - ExecuTorch| = {worst:.3g}")
    return len(golden.inputs)


# Golden inputs each model must have been checked on, and models checked (sine, digits).
MIN_INPUTS_PER_MODEL = 20
MIN_MODELS = 2


def main(argv: list[str]) -> int:
    pte_run, pairs = argv[0], argv[1:]
    models = 0
    for pte, golden in zip(pairs[::2], pairs[1::2], strict=True):
        inputs = check_model(pte_run, Path(pte), Path(golden))
        if inputs < MIN_INPUTS_PER_MODEL:
            raise AssertionError(
                f"{pte}: only {inputs} golden inputs checked, at least {MIN_INPUTS_PER_MODEL} required"
            )
        models += 1
    if models < MIN_MODELS:
        raise AssertionError(f"only {models} models checked, at least {MIN_MODELS} required")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
