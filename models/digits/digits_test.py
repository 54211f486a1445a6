"""The digits model's artifacts, checked against ExecuTorch's own view and its runtime.

- ops.json holds the CNN's operators (convolution, pooling, linear, softmax) in float32;
  ExecuTorch's gen_oplist finds the same;
- plan.json is consistent: one [1, 1, 8, 8] float32 input and one [1, 10] float32 output,
  every tensor inside its planned buffer, no two live tensors sharing bytes, a few KiB;
- ExecuTorch's host runtime, running the .pte, reproduces the golden (PyTorch) outputs
  within 1e-6, they are probabilities, and their argmax is PyTorch's class and, for all
  but a few of the golden images, the true digit (model.py's golden_labels()).

usage: digits_test.py PTE OPS_JSON PLAN_JSON GOLDEN_BIN MODEL_PY   (models/zoo.bzl: program_test)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from tinypte.golden.format import Golden
from tinypte.model import loading as model_loading
from tinypte.oracle import program_checks
from tinypte.oracle.executorch_host import first_outputs, gen_oplist_operators

ARENA_LIMIT = 8 * 1024  # bytes of planned activations; the Cortex-M33 has 520 KiB of SRAM
PTE_LIMIT = 64 * 1024


def test_operators() -> None:
    ops = json.loads(program_checks.path("OPS").read_text())["operators"]
    names = {o["name"] for o in ops}
    assert "aten::convolution" in names
    assert names & {"aten::max_pool2d_with_indices", "aten::avg_pool2d"}
    assert names & {"aten::addmm", "aten::linear", "aten::mm"}
    assert "aten::_softmax" in names
    for op in ops:
        assert "float32" in op["dtypes"] and set(op["dtypes"]) <= {"float32", "int64"}, op


def test_operators_match_executorch_gen_oplist(tmp_path: Path) -> None:
    ours = {f"{o['name']}.{o['overload']}" for o in json.loads(program_checks.path("OPS").read_text())["operators"]}
    assert gen_oplist_operators(program_checks.path("PTE"), tmp_path) == ours


def test_plan_is_consistent() -> None:
    plan = json.loads(program_checks.path("PLAN").read_text())
    sizes = plan["non_const_buffer_sizes"]
    assert 0 < sum(sizes) <= ARENA_LIMIT
    assert program_checks.path("PTE").stat().st_size <= PTE_LIMIT
    tensors: list[dict[str, Any]] = plan["tensors"]
    by_evalue = {t["evalue"]: t for t in tensors}
    assert len(plan["inputs"]) == 1 and len(plan["outputs"]) == 1
    source, result = by_evalue[plan["inputs"][0]], by_evalue[plan["outputs"][0]]
    assert (source["shape"], source["dtype"], source["role"]) == ([1, 1, 8, 8], "float32", "input")
    assert (result["shape"], result["dtype"], result["role"]) == ([1, 10], "float32", "output")
    for t in tensors:
        assert 0 < t["memory_id"] < len(sizes)
        assert t["offset"] >= 0 and t["offset"] + t["nbytes"] <= sizes[t["memory_id"]], t
        assert -1 <= t["first_use"] <= t["last_use"] <= plan["instructions"], t
    # Tensors alive at the same time must not share bytes (exact aliases, i.e. views, may).
    for i, a in enumerate(tensors):
        for b in tensors[i + 1 :]:
            same_buffer = a["memory_id"] == b["memory_id"]
            alias = (a["offset"], a["nbytes"]) == (b["offset"], b["nbytes"])
            in_time = a["first_use"] <= b["last_use"] and b["first_use"] <= a["last_use"]
            in_space = a["offset"] < b["offset"] + b["nbytes"] and b["offset"] < a["offset"] + a["nbytes"]
            assert not (same_buffer and in_time and in_space and not alias), (a, b)


def test_executorch_runtime_reproduces_golden() -> None:
    golden = Golden.from_bytes(program_checks.path("GOLDEN").read_bytes())
    module = model_loading.load(program_checks.path("MODEL"))
    labels: list[int] = module.golden_labels()
    assert len(golden.inputs) == len(labels) >= 20
    assert golden.tolerance <= 1e-5
    results = first_outputs(program_checks.path("PTE"), golden.inputs)
    worst, wrong = 0.0, []
    cases = zip(golden.inputs, golden.outputs, labels, results, strict=True)
    for case, (inputs, outputs, label, probabilities) in enumerate(cases):
        assert inputs[0].shape == (1, 1, 8, 8) and inputs[0].min() >= 0.0 and inputs[0].max() <= 1.0
        worst = max(worst, float(np.max(np.abs(probabilities - outputs[0]))))
        assert abs(float(probabilities.sum()) - 1.0) <= 1e-5 and probabilities.min() >= 0.0
        assert int(np.argmax(probabilities)) == int(np.argmax(outputs[0])), (
            f"case {case}: ExecuTorch and PyTorch disagree"
        )
        if int(np.argmax(probabilities)) != label:
            wrong.append(f"case {case}: digit {label}, predicted {int(np.argmax(probabilities))}")
    print(f"max |ExecuTorch - PyTorch| = {worst:.3g}; {len(labels) - len(wrong)}/{len(labels)} golden digits right")
    print("\n".join(wrong))
    assert worst <= 1e-6
    # The golden images are test images, so a few may be misread (ACCEPTANCE is 95% overall).
    assert len(wrong) <= len(labels) // 10


if __name__ == "__main__":
    sys.exit(program_checks.main(__file__, sys.argv[1:]))
