"""The int8 path of `tinypte export --quantize int8`: calibrate, quantize, measure, compare.

After the float model is trained (export.py), this
  1. takes calibration inputs from the model file: `calibration_inputs()` when it defines
     one, else batches of one from its training inputs (`train_set()[0]`), else its
     golden inputs;
  2. equalizes the ranges of consecutive linear layers (equalization.py: exact in float,
     on a copy of the model), quantizes with ExecuTorch's Cortex-M backend (quantize.py)
     and exports the .pte;
  3. evaluates the quantized program with the model file's own `evaluate`, run through the
     backend's reference implementations one sample at a time (the program's shapes are
     the example inputs');
  4. exports the float program as well, to report what int8 saves: a JSON report of float
     vs int8 metrics, constant and arena bytes, and the nodes that stayed float (and why),
     which `tinypte inspect_pte --quant-report` appends to the model summary.

`reference_module(model, example, calibration)` is the oracle golden.py runs for int8 models.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from tinypte import equalization, model_loading, quantize
from tinypte.errors import TinypteError


def calibration_inputs(path: Path, module: ModuleType) -> list[tuple[Any, ...]]:
    """The batches the quantizer observes (see the module docstring for the defaults)."""
    if hasattr(module, "calibration_inputs"):
        batches = model_loading.call(path, "calibration_inputs()", module.calibration_inputs)
    elif hasattr(module, "train_set"):
        inputs = model_loading.call(path, "train_set()", module.train_set)[0]
        batches = [(inputs[i : i + 1],) for i in range(len(inputs))]
    else:
        batches = model_loading.call(path, "golden_inputs()", module.golden_inputs)
    if not batches:
        raise TinypteError(f"{path}: no calibration inputs (define calibration_inputs() for int8 export)")
    return [tuple(b) for b in batches]


class PerSample:
    """Calls a program module on each sample of a batch and concatenates the results: the
    exported program has the example inputs' batch size (one), a model file's `evaluate`
    passes whole test sets."""

    def __init__(self, program: Callable[..., Any], batch: int) -> None:
        self.program = program
        self.batch = batch

    def __call__(self, *inputs: Any) -> Any:
        import torch

        count = int(inputs[0].shape[0])
        parts = [self.program(*(x[i : i + self.batch] for x in inputs)) for i in range(0, count, self.batch)]
        return torch.cat(parts) if parts else self.program(*inputs)

    def eval(self) -> PerSample:
        return self


def quantize_model(path: Path, module: ModuleType, model: Any, example: tuple[Any, ...]) -> Any:
    """The int8 edge program of the trained `model` (quantize.quantize_program)."""
    try:
        model = copy.deepcopy(model)
        equalization.equalize(model, example)
        return quantize.quantize_program(model, example, calibration_inputs(path, module))
    except TinypteError:
        raise
    except Exception as error:  # the quantizer's failures are about the user's model
        first = str(error).splitlines()[0] if str(error) else ""
        raise TinypteError(
            f"{model_loading.where(error, path)}: int8 quantization failed: {type(error).__name__}: {first}"
        ) from error


def reference_module(path: Path, module: ModuleType, model: Any, example: tuple[Any, ...]) -> PerSample:
    """The quantized program as a callable running the backend's reference implementations."""
    edge = quantize_model(path, module, model, example)
    return PerSample(edge.exported_program().module(), int(example[0].shape[0]))


def _sizes(pte: bytes) -> dict[str, int]:
    from executorch.exir._serialize._program import deserialize_pte_binary

    from tinypte import inspect_pte  # which imports this module for its summary lines

    program = deserialize_pte_binary(pte).program
    arena = sum(int(s) for s in program.execution_plan[0].non_const_buffer_sizes)
    return {"pte_bytes": len(pte), "constant_bytes": inspect_pte.constant_sizes(program)[1], "arena_bytes": arena}


def export_int8(
    path: Path, module: ModuleType, model: Any, example: tuple[Any, ...], float_metrics: dict[str, float],
    float_pte: bytes, alignment: int, planner: str,
) -> tuple[bytes, dict[str, Any]]:  # fmt: skip
    """(.pte bytes, report) of the int8 program of the trained float `model`."""
    edge = quantize_model(path, module, model, example)
    left_float = quantize.float_nodes(edge)
    program = PerSample(edge.exported_program().module(), int(example[0].shape[0]))
    int8_metrics = model_loading.call(path, "evaluate() of the int8 program", module.evaluate, program)
    pte = quantize.export_int8_program(edge, alignment, planner)
    report = {
        "float": {"metrics": float_metrics, **_sizes(float_pte)},
        "int8": {"metrics": int8_metrics, **_sizes(pte)},
        "float_nodes": [{"name": n.name, "operator": n.operator, "reason": n.reason} for n in left_float],
    }
    return pte, report


def summary_lines(report: dict[str, Any]) -> list[str]:
    """The int8-vs-float lines of a model summary."""
    f, q = report["float"], report["int8"]

    def ratio(key: str) -> str:
        return f"{q[key]} B int8 vs {f[key]} B float ({100 * q[key] / max(f[key], 1):.0f} %)"

    lines = ["  int8 (ExecuTorch Cortex-M quantizer):", f"    constants: {ratio('constant_bytes')}",
             f"    arena: {ratio('arena_bytes')}"]  # fmt: skip
    for metric in sorted(q["metrics"]):
        lines.append(
            f"    {metric}: {q['metrics'][metric]:.6g} int8 vs {f['metrics'].get(metric, float('nan')):.6g} float"
        )
    nodes = report["float_nodes"]
    lines.append(f"    nodes left in float32: {len(nodes)}" + ("" if nodes else " (fully quantized)"))
    lines += [f"      {n['name']} ({n['operator']}): {n['reason']}" for n in nodes]
    return lines


def write_report(report: dict[str, Any], out: Path) -> None:
    out.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
