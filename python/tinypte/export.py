"""Train a model file and export it with ExecuTorch to a .pte (and its trained weights).

Pipeline: build -> train (seeded) -> evaluate against ACCEPTANCE -> torch.export.export
-> to_edge -> constant_prop_pass (folds weight transposes into constants) -> squeezes as
views (views.py) -> to_executorch (memory planning; views elided) -> nonzero's outs row-major
(nonzero_layout.py) -> .pte bytes. Same model
file and seed, same bytes.

Memory planning places every activation, inputs and outputs included, in one arena:
`--memory-planning greedy` (default; shares space between tensors whose lifetimes do not
overlap) or `naive` (no sharing: one slot per tensor, for debugging), with offsets and
constants aligned to `--alignment` bytes (default 16). Either keeps a fusable producer's
inputs apart from its activation's out (fusion_planning.py), so the runtime can fuse them.

`--quantize int8` exports the int8 program instead (int8_flow.py: ExecuTorch's Cortex-M
quantizer, calibrated on the model file's inputs), checks the quantized program's metrics
against `INT8_ACCEPTANCE` (or `ACCEPTANCE`) of the model file and writes `--quant-report`:
float vs int8 metrics, constant and arena bytes, and the nodes left in float.

usage: tinypte export --model M.py --pte OUT.pte --weights OUT.pt [--seed 0]
           [--no-constant-prop] [--alignment 16] [--memory-planning greedy|naive]
           [--quantize int8 --quant-report OUT.json]
"""

from __future__ import annotations

import argparse
import hashlib
import io
import sys
from pathlib import Path
from typing import Any

from tinypte import fusion_planning, int8_flow, model_loading, nonzero_layout, views
from tinypte.errors import TinypteError

PLANNERS = ("greedy", "naive")


def backend_config(alignment: int, planner: str) -> Any:
    """to_executorch's configuration: memory planning algorithm and alignments."""
    from executorch.exir import ExecutorchBackendConfig
    from executorch.exir.memory_planning import MemoryPlanningAlgorithmSuite, greedy, naive
    from executorch.exir.passes import MemoryPlanningPass

    algorithm = fusion_planning.fusion_aware({"greedy": greedy, "naive": naive}[planner])
    planning = MemoryPlanningPass(
        memory_planning_algo=MemoryPlanningAlgorithmSuite(algo_list=[algorithm]),
        alloc_graph_input=True,
        alloc_graph_output=True,
        alignment=alignment,
    )
    return ExecutorchBackendConfig(memory_planning_pass=planning, constant_tensor_alignment=alignment)


def export_program(
    model: Any,
    example_inputs: tuple[Any, ...],
    constant_prop: bool,
    path: Path,
    alignment: int = 16,
    planner: str = "greedy",
) -> bytes:
    """ExecuTorch .pte bytes of an eval-mode module."""
    import torch
    from executorch.exir import to_edge
    from executorch.exir.passes.constant_prop_pass import constant_prop_pass

    if alignment < 1 or alignment & (alignment - 1):
        raise TinypteError(f"--alignment {alignment}: must be a power of two")
    try:
        exported = torch.export.export(model, example_inputs)
        edge = to_edge(exported)
        if constant_prop:
            edge._edge_programs["forward"] = constant_prop_pass(edge.exported_program())
        views.squeezes_as_views(edge.exported_program())
        config = backend_config(alignment, planner)
        return nonzero_layout.serialize(edge.to_executorch(config), config)
    except Exception as error:  # export failures are the user's model
        where = model_loading.where(error, path)
        first_line = str(error).splitlines()[0] if str(error) else ""
        raise TinypteError(
            f"{where}: ExecuTorch export failed: {type(error).__name__}: {first_line}"
            " (an op may have no ExecuTorch out-variant, or forward() uses Python control flow on tensor values)"
        ) from error


def state_dict_bytes(model: Any) -> bytes:
    import torch

    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    return buffer.getvalue()


SUMMARY = "Train a model file and export it to .pte."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", type=Path, required=True, help="model file (see tinypte.model_loading)")
    parser.add_argument("--pte", type=Path, required=True, help=".pte to write")
    parser.add_argument("--weights", type=Path, required=True, help="trained state_dict to write (torch.save)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-constant-prop", dest="constant_prop", action="store_false")
    parser.add_argument("--alignment", type=int, default=16, help="planned and constant tensor alignment (bytes)")
    parser.add_argument("--memory-planning", choices=PLANNERS, default="greedy", help="arena planning algorithm")
    parser.add_argument("--quantize", choices=["none", "int8"], default="none", help="export the int8 program")
    parser.add_argument("--quant-report", type=Path, help="int8: float vs int8 report to write (JSON)")


def run(args: argparse.Namespace) -> None:
    path: Path = args.model
    module = model_loading.load(path)
    model_loading.deterministic(args.seed)
    model = model_loading.call(path, "build()", module.build)
    model_loading.call(
        path, "train()", module.train, model, seed=args.seed, log=lambda line: print(line, file=sys.stderr)
    )
    model.eval()
    metrics = model_loading.call(path, "evaluate()", module.evaluate, model)
    model_loading.check_acceptance(path, metrics, module.ACCEPTANCE)
    example = model_loading.call(path, "example_inputs()", module.example_inputs)
    pte = export_program(model, tuple(example), args.constant_prop, path, args.alignment, args.memory_planning)
    if args.quantize == "int8":
        pte, report = int8_flow.export_int8(
            path, module, model, tuple(example), metrics, pte, args.alignment, args.memory_planning
        )
        metrics = report["int8"]["metrics"]
        which = "INT8_ACCEPTANCE" if hasattr(module, "INT8_ACCEPTANCE") else "ACCEPTANCE"
        model_loading.check_acceptance(path, metrics, getattr(module, which), f"{which} (int8 program)")
        if args.quant_report:
            int8_flow.write_report(report, args.quant_report)
    args.pte.write_bytes(pte)
    args.weights.write_bytes(state_dict_bytes(model))
    shown = ", ".join(f"{k}={v:.6g}" for k, v in sorted(metrics.items()))
    digest = hashlib.sha256(pte).hexdigest()[:16]
    kind = " int8" if args.quantize == "int8" else ""
    print(f"export: {path.name}{kind}: {shown}; {args.pte.name} {len(pte)} B sha256:{digest}")
