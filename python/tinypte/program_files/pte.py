"""Read a .pte: its program as JSON (ExecuTorch's flatc and program.fbs), and the sizes of what it holds.

ExecuTorch's Python deserializer needs all of `executorch.exir` (torch included: seconds to
import); the program is a FlatBuffer, and the wheel ships the `flatc` its deserializer runs and
the schema. This runs that `flatc` directly: a program is a dict as the schema names it
(`forward_plan(program)["values"][i]` is `{"val_type": "Tensor", "val": {...}}`). Used by the
inspect stage (operators, memory plan, summary) and the quantize stage (what int8 saves
against the float program).
"""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from tinypte.errors import TinypteError
from tinypte.headers import dtypes

Program = dict[str, Any]


def _executorch_dir() -> Path:
    """The installed executorch package (found, not imported)."""
    spec = importlib.util.find_spec("executorch")
    if spec is None or not spec.submodule_search_locations:
        raise TinypteError("the executorch package is not installed (python/requirements.lock has it)")
    return Path(next(iter(spec.submodule_search_locations)))


def load_program(pte: Path) -> Program:
    """The program of a .pte file; a user error if it is not one."""
    return program_of(pte.read_bytes(), str(pte))


def program_of(data: bytes, what: str) -> Program:
    """The program of .pte bytes (`what` names them in errors)."""
    if len(data) < 8 or data[4:6] != b"ET":
        raise TinypteError(f"{what}: not an ExecuTorch program (no ET.. identifier at byte 4)")
    executorch = _executorch_dir()
    schema = executorch / "schema"
    with tempfile.TemporaryDirectory(prefix="tinypte-pte-") as tmp:
        binary = Path(tmp) / "program.pte"
        binary.write_bytes(data)
        command = [str(executorch / "data" / "bin" / "flatc"), "--json", "--strict-json", "--defaults-json",
                   "--raw-binary", "-I", str(schema), "-o", tmp, str(schema / "program.fbs"), "--", str(binary)]  # fmt: skip
        run = subprocess.run(command, capture_output=True, text=True, check=False)
        output = Path(tmp) / "program.json"
        if run.returncode != 0 or not output.is_file():
            detail = run.stderr.strip() or f"flatc exited with status {run.returncode}"
            raise TinypteError(f"{what}: cannot be read as an ExecuTorch program: {detail}")
        program: Program = json.loads(output.read_text())
    if not program.get("execution_plan"):
        raise TinypteError(f"{what}: cannot be read as an ExecuTorch program: it has no execution plan")
    return program


def forward_plan(program: Program) -> dict[str, Any]:
    """The execution plan of method "forward" (the first one if none has that name): a program
    also holds config methods (input0_scale, ...) as execution plans of their own."""
    plans = program["execution_plan"]
    return next((plan for plan in plans if plan.get("name") == "forward"), plans[0])


def is_tensor(value: dict[str, Any]) -> bool:
    return value.get("val_type") == "Tensor"


def is_planned(value: dict[str, Any]) -> bool:
    """A tensor the memory plan places (constants have no allocation_info)."""
    return is_tensor(value) and value["val"].get("allocation_info") is not None


def tensor_info(tensor: dict[str, Any]) -> tuple[str, list[int], int]:
    """(dtype name, shape, bytes) of a program's Tensor (a value's "val")."""
    dtype = dtypes.by_fbs_name(tensor["scalar_type"])
    shape = [int(s) for s in tensor["sizes"]]
    return dtype.name, shape, math.prod(shape) * dtype.size


def constant_sizes(program: Program) -> tuple[int, int]:
    """(elements, bytes) of the program's constant tensors."""
    values = forward_plan(program)["values"]
    constants = [v["val"] for v in values if is_tensor(v) and not is_planned(v)]
    return sum(math.prod(t["sizes"]) for t in constants), sum(tensor_info(t)[2] for t in constants)


def sizes(data: bytes, what: str) -> dict[str, int]:
    """The .pte's bytes, its constants' bytes and its planned arena's bytes."""
    program = program_of(data, what)
    arena = sum(int(s) for s in forward_plan(program)["non_const_buffer_sizes"])
    return {"pte_bytes": len(data), "constant_bytes": constant_sizes(program)[1], "arena_bytes": arena}
