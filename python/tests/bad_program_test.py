"""Programs tinypte cannot run fail at build time, naming the instruction and what to do.

- a program with a backend delegate (lowered with ExecuTorch's XNNPACK partitioner): the
  inspect stage refuses it, naming the instruction and the delegate;
- weights that do not fit a model file's build(): the train stage names the first parameter
  (models/notebook_weights:wrong_weights_fails_test covers the build's path; here the
  missing and the extra parameter).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
import torch

from tinypte.errors import TinypteError
from tinypte.inspect_pte.command import analyse
from tinypte.model import loading
from tinypte.programs.pte import program_of


def delegated_program() -> bytes:
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower

    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU()).eval()
    exported = torch.export.export(model, (torch.randn(1, 4),))
    edge = to_edge_transform_and_lower(exported, partitioner=[XnnpackPartitioner()])
    return bytes(edge.to_executorch().buffer)


def test_delegate_is_refused_naming_the_instruction() -> None:
    program = program_of(delegated_program(), "delegated.pte")
    with pytest.raises(TinypteError, match=r"instruction 0 calls backend delegate 'XnnpackBackend'.*partitioner"):
        analyse(program, "//x:delegated")


def test_weights_missing_a_parameter_name_it(tmp_path: Path) -> None:
    model = torch.nn.Linear(2, 3)
    state = {"weight": torch.zeros(3, 2)}
    with pytest.raises(TinypteError, match=r"it has no 'bias' \(\[3\]\)"):
        loading.load_weights(tmp_path / "model.py", model, state, tmp_path / "w.pt")


def test_weights_with_an_extra_parameter_name_it(tmp_path: Path) -> None:
    model = torch.nn.Linear(2, 3)
    buffer = io.BytesIO()
    torch.save({**model.state_dict(), "scale": torch.ones(1)}, buffer)
    state = torch.load(io.BytesIO(buffer.getvalue()), weights_only=True)
    with pytest.raises(TinypteError, match=r"it has 'scale', which build\(\)'s module does not"):
        loading.load_weights(tmp_path / "model.py", model, state, tmp_path / "w.pt")


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
