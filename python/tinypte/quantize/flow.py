"""The int8 path: calibrate, quantize, measure, compare (the quantize stage's work).

Starting from the trained float model (the train stage's weights), this
  1. takes calibration inputs from the model file: `calibration_inputs()` when it defines
     one, else batches of one from its training inputs (`train_set()[0]`), else its
     golden inputs;
  2. equalizes the ranges of consecutive linear layers (equalization.py: exact in float,
     on a copy of the model), quantizes with ExecuTorch's Cortex-M backend (cortex_m.py)
     and exports the .pte;
  3. evaluates the quantized program with the model file's own `evaluate`, run through the
     backend's reference implementations one sample at a time (the program's shapes are
     the example inputs'), its convolutions' requantization vectorized (vectorized_reference.py);
  4. reports what int8 saves against the float program (the export stage's .pte): float vs
     int8 metrics, constant and arena bytes, and the nodes that stayed float (and why),
     which `tinypte inspect_pte --quant-report` appends to the model summary;
  5. makes the program take and return int8 (io.py: the first quantize and the last
     dequantize leave the program, their parameters stay in it as ExecuTorch's config
     methods), unless float I/O is asked for;
  6. keeps the quantized edge program (tinypte.program_files.edge_file), which the golden stage
     runs: the int8 oracle is the very program the .pte was lowered from.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from tinypte.errors import TinypteError, innermost
from tinypte.model import loading
from tinypte.program_files import edge_file
from tinypte.program_files import pte as pte_file
from tinypte.quantize import cortex_m, equalization, io, layers, vectorized_reference


def calibration_inputs(path: Path, module: ModuleType) -> list[tuple[Any, ...]]:
    """The batches the quantizer observes (see the module docstring for the defaults)."""
    if hasattr(module, "calibration_inputs"):
        batches = loading.call(path, "calibration_inputs()", module.calibration_inputs)
    elif hasattr(module, "train_set"):
        inputs = loading.call(path, "train_set()", module.train_set)[0]
        batches = [(inputs[i : i + 1],) for i in range(len(inputs))]
    else:
        batches = loading.call(path, "golden_inputs()", module.golden_inputs)
    if not batches:
        raise TinypteError(f"{path}: no calibration inputs (define calibration_inputs() for int8 export)")
    return [tuple(b) for b in batches]


class PerSample:
    """Calls a program module on each sample of a batch and concatenates the results: the
    exported program has the example inputs' batch size (one), a model file's `evaluate`
    passes whole test sets. The backend's convolutions run with their requantization
    vectorized (vectorized_reference.py: the reference's integers, faster)."""

    def __init__(self, program: Callable[..., Any], batch: int) -> None:
        self.program = program
        self.batch = batch

    def __call__(self, *inputs: Any) -> Any:
        import torch

        count = int(inputs[0].shape[0])
        with vectorized_reference.vectorized():
            parts = [self.program(*(x[i : i + self.batch] for x in inputs)) for i in range(0, count, self.batch)]
            return torch.cat(parts) if parts else self.program(*inputs)

    def eval(self) -> PerSample:
        return self


# What the explicit-layout pipeline says of a model it cannot lay out NHWC (a pool with ceil
# mode, a transposed or 3-D convolution, ...): the backend's default pipeline takes those.
EXPLICIT_LAYOUT_REFUSAL = "Use the legacy layout pipeline"


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else ""


def _layers_named(path: Path, model: Any, example: tuple[Any, ...], message: str) -> list[str]:
    """The model's layers whose operator `message` names (tinypte.quantize.layers.named_in)."""
    try:
        graph = cortex_m.capture(copy.deepcopy(model), example).graph
    except Exception:  # noqa: BLE001 (naming is best effort: the failure itself is what gets reported)
        return []
    return layers.named_in(message, graph, path)


@dataclass(frozen=True)
class Quantized:
    """An int8 edge program and the backend pipeline that lowered it."""

    edge: Any
    pipeline: dict[str, Any]  # {"name": "explicit-layout" | "default", "refused": why the first refused}


def quantize_model(path: Path, module: ModuleType, model: Any, example: tuple[Any, ...]) -> Quantized:
    """The int8 edge program of the trained `model` (quantize.quantize_program): with the
    backend's explicit-layout pipeline (NHWC operators), or, for a model that pipeline refuses,
    with its default pipeline (channels-last tensors, which the runtime reads in place); the
    refusal names the model's layers that caused it."""
    calibration = calibration_inputs(path, module)
    refused = ""
    for explicit in (True, False):
        try:
            candidate = copy.deepcopy(model)
            equalization.equalize(candidate, example)
            edge = cortex_m.quantize_program(candidate, example, calibration, explicit=explicit)
            return Quantized(edge, {"name": "explicit-layout" if explicit else "default", "refused": refused})
        except TinypteError:
            raise
        except Exception as error:  # the quantizer's failures are about the user's model
            cause = innermost(error)
            named = _layers_named(path, model, example, str(cause))
            if explicit and EXPLICIT_LAYOUT_REFUSAL in str(cause):
                refused = "the explicit-layout pipeline cannot lay out " + (", ".join(named) or _first_line(cause))
                continue
            culprit = f" ({'; '.join(named)})" if named else ""
            raise TinypteError(
                f"{loading.where(error, path)}: int8 quantization failed{culprit}: {type(cause).__name__}: "
                f"{_first_line(cause)}. The Cortex-M backend quantizes Linear, Conv1d/Conv2d (and depthwise), pools, "
                "add, mul and common activations; a layer it cannot quantize stays float (see the int8 report), "
                "and one it cannot lower stops the build: change that layer, or build the float program"
            ) from error
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class Int8Export:
    """What the quantize stage makes of a trained model."""

    pte: bytes  # the int8 program
    edge_program: bytes  # the quantized edge program it was lowered from (tinypte.program_files.edge_file)
    report: dict[str, Any]  # float vs int8: metrics, sizes, the nodes left in float


def export_int8(
    path: Path, module: ModuleType, model: Any, example: tuple[Any, ...], float_metrics: dict[str, float],
    float_pte: bytes, alignment: int, planner: str, float_io: bool = False, delegate: str | None = None,
) -> Int8Export:  # fmt: skip
    """The int8 program of the trained float `model`, the edge program behind it and the report
    comparing it with the float program `float_pte` (whose metrics are `float_metrics`); with
    int8 inputs and outputs unless `float_io`. With `delegate` (an Ethos-U55 configuration,
    ethos_u55.configs.TARGETS), what the NPU takes becomes Ethos-U delegates (export_delegated)."""
    if delegate is not None:
        return export_delegated(path, module, model, example, float_metrics, float_pte, alignment, planner,
                                float_io, delegate)  # fmt: skip
    quantized = quantize_model(path, module, model, example)
    edge = quantized.edge
    left_float = cortex_m.float_nodes(edge, path)
    reference = PerSample(edge.exported_program().module(), int(example[0].shape[0]))
    int8_metrics = loading.call(path, "evaluate() of the int8 program", module.evaluate, reference)
    converted = io.IoResult([], ["float I/O asked for"]) if float_io else io.quantize_io(edge)
    edge_program = edge_file.to_bytes(edge.exported_program())
    pte = cortex_m.export_int8_program(edge, alignment, planner)  # consumes edge
    report = {
        "float": {"metrics": float_metrics, **pte_file.sizes(float_pte, "the float program")},
        "int8": {"metrics": int8_metrics, **pte_file.sizes(pte, "the int8 program")},
        "float_nodes": [
            {"name": n.name, "operator": n.operator, "reason": n.reason, "layer": n.layer} for n in left_float
        ],
        "pipeline": quantized.pipeline,
        "io": {
            "quantized": [dataclasses.asdict(q) for q in converted.quantized],
            "float": converted.left_float,
        },
    }
    return Int8Export(pte, edge_program, report)


def export_delegated(
    path: Path, module: ModuleType, model: Any, example: tuple[Any, ...], float_metrics: dict[str, float],
    float_pte: bytes, alignment: int, planner: str, float_io: bool, target: str,
) -> Int8Export:  # fmt: skip
    """export_int8 for the Ethos-U55 (ethos_u55.aot.lowering). The int8 metrics are those of the
    quantized PyTorch module the partitioner lowered (a delegate does not run in PyTorch); the
    golden stage runs each delegate's TOSA graph instead. `edge_program` holds those graphs
    (lowering.tosa_graphs, JSON).

    The Ethos-U side is imported here, not at the top: only the quantize stage's delegated tool
    (//backends/ethos_u55/aot:quantize_tool) holds it, so that editing it reruns only the
    delegated programs' quantization."""
    from ethos_u55.aot import lowering as ethos_u

    candidate = copy.deepcopy(model)
    equalization.equalize(candidate, example)
    try:
        captured = cortex_m.capture(candidate, example)
        calibration = calibration_inputs(path, module)
        spec = ethos_u.compile_spec(target)
        converted = cortex_m.calibrated(captured, ethos_u.quantizer(spec), calibration)
        lowered = ethos_u.lower(converted, example, spec)
    except TinypteError:
        raise
    except Exception as error:  # the backend's and Vela's failures are about the user's model
        cause = innermost(error)
        named = _layers_named(path, model, example, str(cause))
        culprit = f" ({'; '.join(named)})" if named else ""
        raise TinypteError(
            f"{loading.where(error, path)}: lowering to the {target} failed{culprit}: {type(cause).__name__}: "
            f"{_first_line(cause)}. The NPU takes int8 convolutions, depthwise convolutions, pools, linear layers, "
            "elementwise add/mul and common activations; build without `delegate` to run the model on the CPU"
        ) from error
    reference = PerSample(lowered.quantized_module, int(example[0].shape[0]))
    int8_metrics = loading.call(path, "evaluate() of the int8 program", module.evaluate, reference)
    edge = lowered.edge
    cortex_m.size_scratch(edge.exported_program())
    converted = io.IoResult([], ["float I/O asked for"]) if float_io else io.quantize_io(edge)
    pte = cortex_m.export_int8_program(edge, alignment, planner)
    report = {
        "float": {"metrics": float_metrics, **pte_file.sizes(float_pte, "the float program")},
        "int8": {"metrics": int8_metrics, **pte_file.sizes(pte, "the int8 program")},
        "float_nodes": [],
        "pipeline": {"name": "ethos-u", "refused": ""},
        "delegate": ethos_u.delegate_report(pte, lowered, target),
        "io": {
            "quantized": [dataclasses.asdict(q) for q in converted.quantized],
            "float": converted.left_float,
        },
    }
    graphs = json.dumps(ethos_u.tosa_graphs(pte, lowered), sort_keys=True).encode()
    return Int8Export(pte, graphs, report)


def write_report(report: dict[str, Any], out: Path) -> None:
    out.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
