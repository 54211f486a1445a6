"""Run every conformance case through pte_run and compare with ExecuTorch's outputs.

usage: host_conformance_test.py PTE_RUN CASES_DIR

Each case's program and inputs come from CASES_DIR (generate.py's output); pte_run writes
the outputs, which must match ExecuTorch's within the case's tolerance
(|got - expected| <= abs + rel * |expected|; integers exactly). Prints the number of
cases and outputs checked and the operators covered; exits non-zero on any mismatch.

Activation fusion is checked too: `pte_run --info` must report the activation fused for every
case named in FUSED (with how many), and for no other case named fuse_* (FUSED must be
complete for those).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from case_minimum import exit_status, min_cases

from tinypte.headers import dtypes

# Cases whose activations the runtime must fuse into the kernel before them, and how many.
FUSED = {
    "fuse_linear_relu": 1,
    "fuse_linear_shared": 0,  # the product's out has a second reader: no fusion
    "fuse_conv_relu": 1,
    "fuse_pointwise_hardtanh": 1,
    "fuse_bmm_clamp": 1,
    "model_mlp": 2,
    "model_cnn": 2,  # the batch norm folded into conv1 at export: conv1 -> relu and pointwise -> relu
}


def fusion_problems(pte_run: str, root: Path, case: dict[str, Any]) -> list[str]:
    """The case's fused-activation count against FUSED."""
    name = case["name"]
    if name not in FUSED:
        return [f"{name}: a fuse_* case missing from FUSED"] if name.startswith("fuse_") else []
    info = subprocess.run([pte_run, str(root / case["pte"]), "--info"], capture_output=True, text=True, check=False)
    fused = info.stdout.count("(fused into the instruction before it)")
    return [] if fused == FUSED[name] else [f"{name}: {fused} activations fused, expected {FUSED[name]}"]


def ulp_distance(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> npt.NDArray[np.int64]:
    """float32 values between a and b, element-wise (0 when equal)."""

    def ordered(x: npt.NDArray[np.float32]) -> npt.NDArray[np.int64]:
        bits = x.view(np.int32).astype(np.int64)
        result: npt.NDArray[np.int64] = np.where(bits < 0, -(bits & 0x7FFFFFFF), bits)
        return result

    distance: npt.NDArray[np.int64] = np.abs(ordered(a) - ordered(b))
    return distance


def check_case(pte_run: str, root: Path, case: dict[str, Any], out_dir: Path) -> list[str]:
    """Problems with one case (empty when it matches)."""
    inputs = [str(root / i["file"]) for i in case["inputs"]]
    run = subprocess.run(
        [pte_run, str(root / case["pte"]), *inputs, "--out", str(out_dir)], capture_output=True, text=True
    )
    if run.returncode != 0:
        return [f"{case['name']}: pte_run failed: {run.stderr.strip()}"]
    problems = []
    tolerance = case["tolerance"]
    for index, output in enumerate(case["outputs"]):
        dtype = dtypes.by_name(output["dtype"]).numpy
        expected = np.fromfile(root / output["file"], dtype=dtype)
        got = np.fromfile(out_dir / f"out{index}.bin", dtype=dtype)
        if got.shape != expected.shape:
            problems.append(f"{case['name']}: output {index} has {got.size} elements, expected {expected.size}")
        elif dtype == np.float32:
            close = np.isclose(got, expected, rtol=tolerance["rel"], atol=tolerance["abs"], equal_nan=True)
            close |= ulp_distance(got, expected) <= tolerance.get("ulps", 0)
            if not close.all():
                worst = int(np.argmax(np.abs(got - expected)))
                problems.append(
                    f"{case['name']}: output {index}[{worst}] = {got[worst]!r}, ExecuTorch {expected[worst]!r}"
                )
        elif not np.array_equal(got, expected):
            problems.append(f"{case['name']}: output {index} differs from ExecuTorch's")
    return problems


def main(argv: list[str]) -> int:
    pte_run, root = argv[0], Path(argv[1])
    minimum = min_cases(argv)
    manifest = json.loads((root / "manifest.json").read_text())
    problems: list[str] = []
    outputs = 0
    operators: set[str] = set()
    with tempfile.TemporaryDirectory() as tmp:
        for case in manifest["cases"]:
            problems += check_case(pte_run, root, case, Path(tmp))
            problems += fusion_problems(pte_run, root, case)
            outputs += len(case["outputs"])
            operators.update(case["operators"])
    for problem in problems:
        print(problem)
    cases = len(manifest["cases"])
    print(f"host conformance: {cases} cases, {outputs} outputs, {len(operators)} operators, {len(problems)} failed")
    checked = sum(1 for case in manifest["cases"] if case["name"] in FUSED)
    print(f"host conformance: fusion checked in {checked} cases")
    if checked != len(FUSED) and minimum > 1:  # --min-cases=1: a subset (check_family.sh)
        print(f"host conformance: FAIL fusion checked in {checked} cases, FUSED names {len(FUSED)}")
        return 1
    return exit_status(problems, cases, minimum, "host conformance: ", "cases in the manifest")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
