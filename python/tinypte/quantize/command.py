"""`tinypte quantize`: a model file and its trained weights become an int8 .pte.

ExecuTorch's Cortex-M quantizer, calibrated on the model file's inputs (flow.py), with
tinypte's memory planning. The quantized program's metrics must meet the model file's
`INT8_ACCEPTANCE` (else `ACCEPTANCE`). Writes the .pte, the float-vs-int8 report (JSON; the
float side from the train stage's metrics and the export stage's .pte) and the quantized
edge program the golden stage runs. Same model file and weights, same bytes.

usage: tinypte quantize --model M.py --weights W.pt --metrics W.json --float-pte F.pte
           --pte OUT.pte --report OUT.json --edge-program OUT.edge [--seed 0]
           [--alignment 16] [--memory-planning best|greedy|lowest_offset|naive] [--float-io]
           [--delegate ethos-u55-128]

The program takes and returns int8 (its inputs' and outputs' scales and zero points are its
config methods, tinypte.quantize.io); `--float-io` keeps float32 inputs and outputs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from tinypte.errors import TinypteError
from tinypte.export.pipeline import add_program_arguments, trained_model
from tinypte.model import loading
from tinypte.quantize import flow


def float_metrics(path: Path) -> dict[str, float]:
    """The trained float model's metrics, from the train stage's JSON."""
    try:
        return {str(k): float(v) for k, v in json.loads(path.read_text())["metrics"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise TinypteError(f"{path}: not the metrics file of `tinypte train`: {error}") from error


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_program_arguments(parser, pte="int8 .pte to write")
    parser.add_argument("--metrics", type=Path, required=True, help="the trained model's metrics (tinypte train)")
    parser.add_argument("--float-pte", type=Path, required=True, help="the float program, to report what int8 saves")
    parser.add_argument("--report", type=Path, required=True, help="float vs int8 report to write (JSON)")
    parser.add_argument("--edge-program", type=Path, required=True, help="quantized edge program to write")
    parser.add_argument("--float-io", action="store_true", help="keep float32 inputs and outputs")
    parser.add_argument(
        "--delegate", metavar="ethos-u55-<MACs>",
        help="lower what an Ethos-U55 of this configuration takes to it (--edge-program then gets the delegates' TOSA "
             "graphs); needs the Ethos-U side (//backends/ethos_u55/aot:quantize_tool), which checks the name",
    )  # fmt: skip


def run(args: argparse.Namespace) -> None:
    path: Path = args.model
    module, model, example = trained_model(args)
    result = flow.export_int8(
        path, module, model, example, float_metrics(args.metrics), args.float_pte.read_bytes(),
        args.alignment, args.memory_planning, args.float_io, args.delegate,
    )  # fmt: skip
    metrics = result.report["int8"]["metrics"]
    which = "INT8_ACCEPTANCE" if hasattr(module, "INT8_ACCEPTANCE") else "ACCEPTANCE"
    loading.check_acceptance(path, metrics, getattr(module, which), f"{which} (int8 program)")
    args.pte.write_bytes(result.pte)
    args.edge_program.write_bytes(result.edge_program)
    flow.write_report(result.report, args.report)
    shown = ", ".join(f"{k}={v:.6g}" for k, v in sorted(metrics.items()))
    digest = hashlib.sha256(result.pte).hexdigest()[:16]
    print(f"quantize: {path.name} int8: {shown}; {args.pte.name} {len(result.pte)} B sha256:{digest}")
    if args.delegate:
        from ethos_u55.aot import lowering as ethos_u  # the delegated tool's only (flow.export_delegated)

        print(ethos_u.summary_line(result.report["delegate"]))
