"""Golden data of a program made elsewhere (a prebuilt .pte): its inputs and reference outputs.

The inputs are the user's (`--inputs`: a file torch.save wrote, holding a tensor, a tuple of
tensors for one case, or a list of such tuples) or random ones of each input's shape and dtype
(seeded). The reference is ExecuTorch's own host runtime for a program of portable operators,
and, for a program calling `cortex_m::*` operators (which that runtime lacks), the program run
in PyTorch with the Cortex-M backend's reference implementations (interpreter.py). Inputs and
outputs are stored in the memory order of the program's tensors (a channels-last one as NHWC
bytes), which is how the app hands them to the runtime and compares them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tinypte.errors import TinypteError
from tinypte.golden.format import Golden
from tinypte.golden.interpreter import Interpreter
from tinypte.program_files import io_quantization
from tinypte.program_files.layout import in_memory_order


def random_inputs(interpreter: Interpreter, cases: int, seed: int) -> list[list[Any]]:
    """`cases` cases of random inputs of the program's shapes and dtypes (the same for a seed)."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    result = []
    for _ in range(cases):
        case: list[Any] = []
        for sizes, dtype, _order in interpreter.input_specs():
            if dtype.is_floating_point:
                case.append(torch.randn(sizes, generator=generator).to(dtype))
            elif dtype == torch.bool:
                case.append(torch.rand(sizes, generator=generator) > 0.5)
            else:
                info = torch.iinfo(dtype)
                low, high = max(info.min, -128), min(info.max, 127) + 1
                case.append(torch.randint(low, high, sizes, generator=generator, dtype=torch.int64).to(dtype))
        result.append(case)
    return result


def given_inputs(path: Path) -> list[list[Any]]:
    """The cases of a torch.save file: a tensor, a tuple of tensors, or a list of tuples."""
    import torch

    loaded = torch.load(path, weights_only=True)
    if isinstance(loaded, torch.Tensor):
        return [[loaded]]
    if isinstance(loaded, tuple):
        return [list(loaded)]
    if isinstance(loaded, list) and all(isinstance(case, (tuple, list)) for case in loaded):
        return [list(case) for case in loaded]
    raise TinypteError(f"{path}: expected a tensor, a tuple of tensors (one case) or a list of tuples (cases)")


def _check_inputs(interpreter: Interpreter, cases: list[list[Any]], what: str) -> None:
    import torch

    specs = interpreter.input_specs()
    for number, case in enumerate(cases):
        if len(case) != len(specs):
            raise TinypteError(f"{what}: case {number} has {len(case)} inputs; the program takes {len(specs)}")
        for index, (given, (sizes, dtype, _order)) in enumerate(zip(case, specs, strict=True)):
            if not isinstance(given, torch.Tensor) or list(given.shape) != sizes or given.dtype != dtype:
                got = f"{given.dtype} {list(given.shape)}" if isinstance(given, torch.Tensor) else type(given).__name__
                raise TinypteError(f"{what}: case {number} input {index} is {got}; the program takes {dtype} {sizes}")


def uses_cortex_m(interpreter: Interpreter) -> bool:
    return any(op.name.startswith("cortex_m::") for op in interpreter.plan.operators)


def reference_outputs(pte: bytes, interpreter: Interpreter, case: list[Any]) -> tuple[list[Any], str]:
    """The outputs for one case and which reference computed them."""
    if uses_cortex_m(interpreter):
        return interpreter.run(case), "the Cortex-M backend's reference implementations"
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(pte)
    method = program.load_method("forward")
    if method is None:
        raise TinypteError("the program has no forward method")
    outputs = [o.clone() for o in method.execute([c for c in case if c is not None])]
    return outputs, "ExecuTorch's host runtime"


def compute(pte_path: Path, inputs: Path | None, cases: int, seed: int, tolerance: float) -> tuple[Golden, str]:
    """Golden data for the program at `pte_path`, and which reference computed it."""
    pte = pte_path.read_bytes()
    interpreter = Interpreter(pte, str(pte_path))
    scalars = [i for i, (_s, dtype, _o) in enumerate(interpreter.input_specs()) if dtype is None]
    if scalars:
        raise TinypteError(f"{pte_path}: input {scalars[0]} is a scalar (export baked its value in); "
                           "tinypte's firmware feeds tensors: export with tensor inputs only")  # fmt: skip
    chosen = given_inputs(inputs) if inputs is not None else random_inputs(interpreter, cases, seed)
    _check_inputs(interpreter, chosen, str(inputs or pte_path))
    in_orders = [order for _sizes, _dtype, order in interpreter.input_specs()]
    out_orders = interpreter.output_dim_orders()
    quantized = io_quantization.from_deserialized(interpreter.program, str(pte_path))
    golden = Golden(tolerance, quantization=io_quantization.slot_pairs(quantized, len(in_orders), len(out_orders)))
    reference = ""
    for case in chosen:
        outputs, reference = reference_outputs(pte, interpreter, case)
        golden.inputs.append([in_memory_order(t, o) for t, o in zip(case, in_orders, strict=True)])
        golden.outputs.append([in_memory_order(t, o) for t, o in zip(outputs, out_orders, strict=True)])
    return golden, reference
