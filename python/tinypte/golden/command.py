"""`tinypte golden`: a model's golden inputs and the reference outputs for them.

The inputs are the model file's `golden_inputs()`, the tolerance its `TOLERANCE`. The outputs
are PyTorch's: the trained float model run eagerly (`--weights`), or, for an int8 model,
the quantized edge program the quantize stage lowered to its .pte (`--edge-program`), whose
`cortex_m::*` operators run through the Cortex-M backend's reference implementations, or, for a
program with Ethos-U delegates, the .pte itself interpreted with each delegate's TOSA graph run
in tosa_reference_model (`--delegate-graphs`, delegates.py). An int8
program that takes and returns int8 (its .pte, `--program`, says how each is quantized) gets
its golden inputs quantized by the backend's own quantize, and int8 golden outputs.
A program made elsewhere (`--pte`, executorch_program) gets its golden data from
program_golden.py: the user's inputs or random ones, and ExecuTorch's runtime or the backend's
reference implementations. Written in the golden data format (format.py), and as JSON for
people.

usage: tinypte golden --model M.py (--weights W.pt | --edge-program P.edge --program P.pte
                                     | --delegate-graphs P.delegates.json --program P.pte)
           --out golden.bin [--json golden.json]
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
from tinypte.headers import dtypes
from tinypte.model import loading
from tinypte.program_files import edge_file, io_quantization
from tinypte.program_files.io_quantization import IoQuantization


def quantizer(quantization: list[IoQuantization | None]) -> Callable[[list[Any]], list[Any]]:
    """What makes a case of float golden inputs the inputs of a program whose inputs are
    quantized as `quantization` says: the Cortex-M backend's quantize, as the program itself
    did before its inputs became int8."""
    import torch

    from tinypte.golden.interpreter import register_operators

    register_operators()

    def convert(case: list[Any]) -> list[Any]:
        if len(case) != len(quantization):
            raise TinypteError(f"golden_inputs(): a case has {len(case)} inputs; the program takes {len(quantization)}")
        return [
            x if q is None else torch.ops.cortex_m.quantize_per_tensor(
                x, q.scale, q.zero_point, q.quant_min, q.quant_max, dtypes.by_name(q.dtype).torch)
            for x, q in zip(case, quantization, strict=True)
        ]  # fmt: skip

    return convert


def compute(
    model_path: Path, module: ModuleType, program: Callable[..., Any], quantization: list[IoQuantization] | None = None
) -> Golden:
    """Golden cases of the model file at `model_path` (loaded as `module`), with `program`'s outputs;
    `quantization`: how the program's inputs and outputs are quantized (none: all float)."""
    import torch

    golden = Golden(float(module.TOLERANCE))
    quantized = quantization or []
    cases = [list(case) for case in loading.call(model_path, "golden_inputs()", module.golden_inputs)]
    inputs = io_quantization.by_slot(quantized, "input", len(cases[0])) if cases else []
    prepare: Callable[[list[Any]], list[Any]] = quantizer(inputs) if any(inputs) else list
    for case in map(prepare, cases):
        with torch.no_grad():
            result = program(*case)
        results = result if isinstance(result, tuple) else (result,)
        golden.inputs.append([t.numpy() for t in case])
        golden.outputs.append([t.numpy() for t in results])
    if quantized and golden.inputs:
        golden.quantization = io_quantization.slot_pairs(quantized, len(golden.inputs[0]), len(golden.outputs[0]))
    return golden


def reference_program(args: argparse.Namespace, module: ModuleType) -> Any:
    """The trained float model, the quantized edge program, or a delegated program with its
    delegates' TOSA graphs, as a callable."""
    if args.delegate_graphs:
        from ethos_u55.aot.tosa_golden import TosaDelegates  # the delegated tool's only
        from tinypte.golden.interpreter import Interpreter

        if args.program is None:
            raise TinypteError("golden: --delegate-graphs needs --program, the delegated .pte")
        interpreter = Interpreter(
            args.program.read_bytes(), str(args.program), delegates=TosaDelegates(args.delegate_graphs)
        )

        def run(*inputs: Any) -> tuple[Any, ...]:
            return tuple(t.clone() for t in interpreter.run(list(inputs)))

        return run
    if args.edge_program:
        return edge_file.from_bytes(args.edge_program.read_bytes(), str(args.edge_program)).module()
    return loading.trained(args.model, module, args.weights)


def io_of(args: argparse.Namespace) -> list[IoQuantization]:
    """How the int8 program's inputs and outputs are quantized (none for a float model)."""
    if not args.edge_program and not args.delegate_graphs:
        return []
    if args.program is None:
        raise TinypteError("golden: --edge-program needs --program, the .pte lowered from it")
    from executorch.exir._serialize._program import deserialize_pte_binary

    return io_quantization.from_deserialized(deserialize_pte_binary(args.program.read_bytes()).program,
                                             str(args.program))  # fmt: skip


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", type=Path, help="model file: golden inputs and tolerance (not with --pte)")
    program = parser.add_mutually_exclusive_group(required=True)
    program.add_argument("--weights", type=Path, help="float: the trained state_dict, run eagerly")
    program.add_argument("--edge-program", type=Path, help="int8: the quantize stage's edge program")
    program.add_argument("--pte", type=Path, help="a program made elsewhere (executorch_program)")
    program.add_argument("--delegate-graphs", type=Path,
                         help="int8 with delegates: their TOSA graphs (tinypte quantize --delegate), run with --program")  # fmt: skip
    parser.add_argument("--program", type=Path, help="--edge-program: the .pte lowered from it (its I/O quantization)")
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
            raise TinypteError("golden: --model is needed with --weights, --edge-program and --delegate-graphs")
        module = loading.load(args.model)
        golden = compute(args.model, module, reference_program(args, module), io_of(args))
    args.out.write_bytes(golden.to_bytes())
    if args.json:
        doc = {"tolerance": golden.tolerance,
               "cases": [{"inputs": [a.tolist() for a in i], "outputs": [a.tolist() for a in o]}
                         for i, o in zip(golden.inputs, golden.outputs, strict=True)]}  # fmt: skip
        args.json.write_text(json.dumps(doc) + "\n")
    print(f"golden: {len(golden.inputs)} cases, tolerance {golden.tolerance:g} -> {args.out.name}")
