"""A dynamic tensor passed to a kernel that cannot resize fails at init, naming the operator,
and so fails the firmware build.

nonzero's out is a dynamic tensor (its row count depends on the data). tinypte's kernels that
take dynamic shapes carry TP_KERNEL_DYNAMIC_SHAPES; cumsum does not, so a program that runs
cumsum on nonzero's indices must be refused by tp_method_init with TP_ERR_UNSUPPORTED and the
operator's name, not run with stale sizes: by pte_run, and by pte_requirements, which every
firmware build runs on its program. A program whose dynamic tensors only meet flagged kernels
(nonzero -> sum) runs, as a control.

usage: dynamic_refusal_test.py PTE_RUN PTE_REQUIREMENTS
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import torch

from tinypte.export.pipeline import export_program


class NonzeroCumsum(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nonzero(x).cumsum(0)


class NonzeroSum(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nonzero(x).sum()


def run(pte_run: str, module: torch.nn.Module, work: Path) -> subprocess.CompletedProcess[str]:
    x = torch.tensor([[0, 3, 1], [2, 0, 0]], dtype=torch.int32)
    pte = work / f"{type(module).__name__}.pte"
    pte.write_bytes(export_program(module, (x,), True, pte))
    (work / "x.bin").write_bytes(x.numpy().tobytes())
    return subprocess.run(
        [pte_run, str(pte), str(work / "x.bin"), "--out", str(work)], capture_output=True, text=True, check=False
    )


def main() -> int:
    pte_run = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        refused = run(pte_run, NonzeroCumsum(), work)
        message = refused.stdout + refused.stderr
        if refused.returncode != 1 or "TP_ERR_UNSUPPORTED" not in message or "aten::cumsum" not in message:
            print(
                f"FAIL: nonzero -> cumsum was not refused naming aten::cumsum (exit {refused.returncode}):\n{message}"
            )
            return 1
        build = subprocess.run(
            [sys.argv[2], str(work / "NonzeroCumsum.pte")], capture_output=True, text=True, check=False
        )
        if build.returncode != 1 or "TP_ERR_UNSUPPORTED" not in build.stderr or "aten::cumsum" not in build.stderr:
            print(
                f"FAIL: pte_requirements (the build's check) accepted nonzero -> cumsum:\n{build.stdout}{build.stderr}"
            )
            return 1
        accepted = run(pte_run, NonzeroSum(), work)
        total = (
            int.from_bytes((work / "out0.bin").read_bytes(), "little", signed=True)
            if accepted.returncode == 0
            else None
        )
        if total != 0 + 1 + 0 + 2 + 1 + 0:  # indices of the non-zeros: (0, 1), (0, 2), (1, 0)
            print(f"FAIL: nonzero -> sum gave {total} (exit {accepted.returncode}): {accepted.stdout}{accepted.stderr}")
            return 1
    print(f"dynamic shapes: 2 of 2 programs checked; refused as expected: {build.stderr.strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
