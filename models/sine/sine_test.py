"""The sine model's artifacts, checked against ExecuTorch's own view and its runtime.

- ops.json lists exactly aten::addmm.out and aten::relu.out (after constant propagation),
  the same operators ExecuTorch's gen_oplist finds, and the plan is <= 256 bytes;
- ExecuTorch's host runtime, running the .pte, reproduces the golden (PyTorch) outputs
  within 1e-6.

usage: sine_test.py PTE OPS_JSON PLAN_JSON GOLDEN_BIN
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from tinypte.executorch_host import first_outputs, gen_oplist_operators
from tinypte.golden import Golden


def arg(name: str) -> Path:
    return Path(os.environ[f"TINYPTE_TEST_{name}"])


def test_operators_and_plan() -> None:
    ops = json.loads(arg("OPS").read_text())
    names = [(o["name"], o["overload"], o["dtypes"]) for o in ops["operators"]]
    assert names == [("aten::addmm", "out", ["float32"]), ("aten::relu", "out", ["float32"])]
    plan = json.loads(arg("PLAN").read_text())
    assert sum(plan["non_const_buffer_sizes"]) <= 256
    for tensor in plan["tensors"]:
        assert tensor["offset"] + tensor["nbytes"] <= plan["non_const_buffer_sizes"][tensor["memory_id"]]


def test_operators_match_executorch_gen_oplist(tmp_path: Path) -> None:
    ours = {f"{o['name']}.{o['overload']}" for o in json.loads(arg("OPS").read_text())["operators"]}
    assert gen_oplist_operators(arg("PTE"), tmp_path) == ours


def test_executorch_runtime_reproduces_golden() -> None:
    golden = Golden.from_bytes(arg("GOLDEN").read_bytes())
    assert len(golden.inputs) >= 64
    results = first_outputs(arg("PTE"), golden.inputs)
    worst = max(
        float(np.max(np.abs(result - outputs[0]))) for result, outputs in zip(results, golden.outputs, strict=True)
    )
    print(f"max |ExecuTorch - PyTorch| = {worst:.3g}")
    assert worst <= 1e-6


def main() -> int:
    for name, value in zip(("PTE", "OPS", "PLAN", "GOLDEN"), sys.argv[1:], strict=True):
        os.environ[f"TINYPTE_TEST_{name}"] = value
    return pytest.main([__file__, "-q", "-s", "-p", "no:cacheprovider"])


if __name__ == "__main__":
    sys.exit(main())
