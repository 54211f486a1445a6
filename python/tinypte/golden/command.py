"""`tinypte golden`: a model's golden inputs and the reference outputs for them.

The inputs are the model file's `golden_inputs()`, the tolerance its `TOLERANCE`. The outputs
are PyTorch's: the trained float model run eagerly (`--weights`), or, for an int8 model,
the quantized edge program the quantize stage lowered to its .pte (`--edge-program`), whose
`cortex_m::*` operators run through the Cortex-M backend's reference implementations.
A program made elsewhere (`--pte`, executorch_program) gets its golden data from
program_golden.py: the user's inputs or random ones, and ExecuTorch's runtime or the backend's
reference implementations. Written in the golden data format (format.py), and as JSON for
people.

usage: tinypte golden --model M.py (--weights W.pt | --edge-program P.edge) --out golden.bin
           [--json golden.json]
       tinypte golden --pte P.pte [--inputs I.pt | --cases N --seed S] [--tolerance T]
           --out golden.bin [--json golden.json]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from tinypte.errors import TinypteError
from tinypte.golden.format import Golden
from tinypte.model import loading
from tinypte.programs import edge_file


def compute(model_path: Path, module: ModuleType, program: Callable[..., Any]) -> Golden:
    """Golden cases of the model file at `model_path` (loaded as `module`), with `program`'s outputs."""
    import torch

    golden = Golden(float(module.TOLERANCE))
    for case in loading.call(model_path, "golden_inputs()", module.golden_inputs):
        with torch.no_grad():
            result = program(*case)
        results = result if isinstance(result, tuple) else (result,)
        golden.inputs.append([t.numpy() for t in case])
        golden.outputs.append([t.numpy() for t in results])
    return golden


def reference_program(args: argparse.Namespace, module: ModuleType) -> Any:
    """The trained float model, or the quantized edge program, as a callable."""
    if args.edge_program:
        return edge_file.from_bytes(args.edge_program.read_bytes(), str(args.edge_program)).module()
    return loading.trained(args.model, module, args.weights)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", type=Path, help="model file: golden inputs and tolerance (not with --pte)")
    program = parser.add_mutually_exclusive_group(required=True)
    program.add_argument("--weights", type=Path, help="float: the trained state_dict, run eagerly")
    program.add_argument("--edge-program", type=Path, help="int8: the quantize stage's edge program")
    program.add_argument("--pte", type=Path, help="a program made elsewhere (executorch_program)")
    parser.add_argument("--inputs", type=Path, help="--pte: the inputs (torch.save of a tensor, tuple or list)")
    parser.add_argument("--cases", type=int, default=4, help="--pte without --inputs: random cases")
    parser.add_argument("--seed", type=int, default=0, help="--pte without --inputs: their seed")
    parser.add_argument("--tolerance", type=float, default=1e-5, help="--pte: float outputs' tolerance")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--json", type=Path)


def run(args: argparse.Namespace) -> None:
    if args.pte:
        from tinypte.golden import program_golden

        golden, reference = program_golden.compute(args.pte, args.inputs, args.cases, args.seed, args.tolerance)
        print(f"golden: outputs from {reference}")
    else:
        if args.model is None:
            raise TinypteError("golden: --model is needed with --weights and --edge-program")
        module = loading.load(args.model)
        golden = compute(args.model, module, reference_program(args, module))
    args.out.write_bytes(golden.to_bytes())
    if args.json:
        doc = {"tolerance": golden.tolerance,
               "cases": [{"inputs": [a.tolist() for a in i], "outputs": [a.tolist() for a in o]}
                         for i, o in zip(golden.inputs, golden.outputs, strict=True)]}  # fmt: skip
        args.json.write_text(json.dumps(doc) + "\n")
    print(f"golden: {len(golden.inputs)} cases, tolerance {golden.tolerance:g} -> {args.out.name}")
