"""Programs tinypte cannot run fail at build time, naming the instruction and what to do.

- a program with a delegate to a backend tinypte has no runtime for (ExecuTorch's XNNPACK
  partitioner): the inspect stage lists the delegate in its ops.json and summary, and the
  kernel selection refuses it, naming the delegate, the program and the backends there are;
- weights that do not fit a model file's build(): the train stage names the first parameter
  (models/notebook_weights:wrong_weights_fails_test covers the build's path; here the
  missing and the extra parameter).
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
import torch

from tinypte.errors import TinypteError
from tinypte.inspect_pte.command import analyse
from tinypte.kernels import registry
from tinypte.model import loading
from tinypte.program_files.pte import program_of


def delegated_program() -> bytes:
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower

    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU()).eval()
    exported = torch.export.export(model, (torch.randn(1, 4),))
    edge = to_edge_transform_and_lower(exported, partitioner=[XnnpackPartitioner()])
    return bytes(edge.to_executorch().buffer)


def test_delegate_without_backend_is_refused_naming_it(tmp_path: Path) -> None:
    program = program_of(delegated_program(), "delegated.pte")
    ops, _, summary = analyse(program, "//x:delegated")
    assert ops["delegates"] == ["XnnpackBackend"]
    assert "  delegates to: XnnpackBackend\n" in summary
    ops_json = tmp_path / "delegated.ops.json"
    ops_json.write_text(json.dumps(ops))
    with pytest.raises(TinypteError, match=r"no backend for delegate 'XnnpackBackend', used by //x:delegated\. "
                       r"tinypte's backends \(runtime/backends/\): EthosUBackend\. Lower the model"):  # fmt: skip
        registry.select_backends({"EthosUBackend": "ethos_u/ethos_u_backend.c"}, registry.used_backends([ops_json]))


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
