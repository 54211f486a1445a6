"""The reference of a program's backend delegates: each delegate's TOSA graph run in
`tosa_reference_model` (tosa-tools), TOSA's own executable specification.

The quantize stage keeps the TOSA graph that ExecuTorch's Arm backend handed to Vela for each
Ethos-U delegate (ethos_u55.aot.lowering.tosa_graphs, a JSON file). The interpreter calls
`TosaDelegates.run` for a DelegateCall: the call's first values are the graph's inputs, in the
graph's order, the rest its outputs, which are filled in place.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tinypte.errors import TinypteError
from tinypte.library_noise import TOSA_SPEC_VERSION_NOTE, native_stdout_without


@dataclass(frozen=True)
class TosaGraph:
    """One delegate's TOSA graph: its bytes and its inputs' and outputs' shapes."""

    flatbuffer: bytes
    input_shapes: list[list[int]]
    output_shapes: list[list[int]]


def _shapes(block: Any, names: list[bytes]) -> list[list[int]]:
    tensors = {block.Tensors(i).Name(): block.Tensors(i) for i in range(block.TensorsLength())}
    return [[int(d) for d in tensors[n].ShapeAsNumpy()] for n in names]


def read_graph(flatbuffer: bytes, what: str) -> TosaGraph:
    from tosa.TosaGraph import TosaGraph as Root  # type: ignore[import-untyped]

    try:
        block = Root.GetRootAs(flatbuffer, 0).Regions(0).Blocks(0)
        inputs = [block.Inputs(i) for i in range(block.InputsLength())]
        outputs = [block.Outputs(i) for i in range(block.OutputsLength())]
        return TosaGraph(flatbuffer, _shapes(block, inputs), _shapes(block, outputs))
    except Exception as error:  # a damaged file fails anywhere in the flatbuffer reader
        raise TinypteError(f"{what}: not a TOSA graph ({type(error).__name__}: {error})") from error


class TosaDelegates:
    """The delegates of one method, by delegate index."""

    def __init__(self, path: Path, method: str = "forward") -> None:
        try:
            doc = json.loads(path.read_text())
            entries = [g for g in doc["graphs"] if g["method"] == method]
            self.graphs = {
                int(g["delegate"]): read_graph(base64.b64decode(g["tosa"]), f"{path}: delegate {g['delegate']}")
                for g in entries
            }
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise TinypteError(f"{path}: not the delegate graphs of `tinypte quantize --delegate`: {error}") from error
        self.path = path
        self.calls = 0

    def run(self, index: int, tensors: list[Any]) -> None:
        """Run delegate `index` on the call's tensors (inputs, then outputs, filled in place)."""
        import numpy as np
        import tosa_reference_model  # type: ignore[import-untyped]

        graph = self.graphs.get(index)
        if graph is None:
            raise TinypteError(f"{self.path}: no TOSA graph for delegate {index}")
        count = len(graph.input_shapes)
        if len(tensors) != count + len(graph.output_shapes):
            raise TinypteError(
                f"delegate {index}: the call passes {len(tensors)} values; its TOSA graph has {count} inputs "
                f"and {len(graph.output_shapes)} outputs"
            )
        inputs = [np.ascontiguousarray(t.contiguous().numpy()).reshape(s)
                  for t, s in zip(tensors[:count], graph.input_shapes, strict=True)]  # fmt: skip
        with native_stdout_without(TOSA_SPEC_VERSION_NOTE):
            results, status = tosa_reference_model.run(graph.flatbuffer, inputs)
        if str(status) != str(tosa_reference_model.GraphStatus.TOSA_VALID):
            raise TinypteError(f"delegate {index}: tosa_reference_model returned {status}")
        for out, result in zip(tensors[count:], results, strict=True):
            import torch

            data = np.ascontiguousarray(result).view(out.numpy().dtype).reshape(tuple(out.shape))
            out.copy_(torch.from_numpy(data.copy()))
        self.calls += 1
