"""The sine model's artifacts, checked against ExecuTorch's own view and its runtime.

- ops.json lists exactly aten::addmm.out and aten::relu.out (after constant propagation),
  the same operators ExecuTorch's gen_oplist finds, and the plan is <= 256 bytes;
- ExecuTorch's host runtime, running the .pte, reproduces the golden (PyTorch) outputs
  within 1e-6.

usage: sine_test.py PTE OPS_JSON PLAN_JSON GOLDEN_BIN MODEL_PY   (models/zoo.bzl: program_test)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from tinypte.golden.format import Golden
from tinypte.oracle import program_checks
from tinypte.oracle.executorch_host import first_outputs, gen_oplist_operators


def test_operators_and_plan() -> None:
    ops = json.loads(program_checks.path("OPS").read_text())
    names = [(o["name"], o["overload"], o["dtypes"]) for o in ops["operators"]]
    assert names == [("aten::addmm", "out", ["float32"]), ("aten::relu", "out", ["float32"])]
    plan = json.loads(program_checks.path("PLAN").read_text())
    assert sum(plan["non_const_buffer_sizes"]) <= 256
    for tensor in plan["tensors"]:
        assert tensor["offset"] + tensor["nbytes"] <= plan["non_const_buffer_sizes"][tensor["memory_id"]]


def test_operators_match_executorch_gen_oplist(tmp_path: Path) -> None:
    ours = {f"{o['name']}.{o['overload']}" for o in json.loads(program_checks.path("OPS").read_text())["operators"]}
    assert gen_oplist_operators(program_checks.path("PTE"), tmp_path) == ours


def test_executorch_runtime_reproduces_golden() -> None:
    golden = Golden.from_bytes(program_checks.path("GOLDEN").read_bytes())
    assert len(golden.inputs) >= 64
    results = first_outputs(program_checks.path("PTE"), golden.inputs)
    worst = max(
        float(np.max(np.abs(result - outputs[0]))) for result, outputs in zip(results, golden.outputs, strict=True)
    )
    print(f"max |ExecuTorch - PyTorch| = {worst:.3g}")
    assert worst <= 1e-6


if __name__ == "__main__":
    sys.exit(program_checks.main(__file__, sys.argv[1:]))
