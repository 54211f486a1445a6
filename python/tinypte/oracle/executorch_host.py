"""ExecuTorch's own view of a .pte, for tests that check tinypte against it: the operators
its selective-build tool lists, and the outputs its host runtime computes.

Imported by tests only (it loads executorch's runtime on first use).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy.typing as npt

OPLIST_ENTRY = re.compile(r"^  (aten::[a-z_0-9]+\.[a-z_0-9]+):", re.MULTILINE)


def gen_oplist_operators(pte: Path, workdir: Path) -> set[str]:
    """The `aten::name.overload` operators ExecuTorch's gen_oplist finds in `pte`."""
    out = workdir / "ops.yaml"
    command = [sys.executable, "-m", "executorch.codegen.tools.gen_oplist", f"--model_file_path={pte}"]
    subprocess.run([*command, f"--output_path={out}"], check=True, capture_output=True)
    return set(OPLIST_ENTRY.findall(out.read_text()))


def first_outputs(pte: Path, cases: Sequence[Sequence[npt.NDArray[Any]]]) -> list[npt.NDArray[Any]]:
    """Output 0 of method "forward" for each case's inputs, run by ExecuTorch's host runtime."""
    import torch
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(pte)  # keep referenced while its method is used
    method = program.load_method("forward")
    return [method.execute([torch.from_numpy(a) for a in inputs])[0].numpy() for inputs in cases]
