"""Lower a small PyTorch model for the Ethos-U55 the way ExecuTorch's Arm backend does, keeping
both halves of the lowering: the TOSA flatbuffer (for tosa_reference_model) and the delegate's
processed blob (Vela's command stream, weights, scratch size and I/O descriptors).

Tests and compare.py use this; the firmware flow itself lives in python/tinypte.
"""

from __future__ import annotations

import glob
import os
import tempfile
from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class Lowered:
    """One Ethos-U55 delegate: its TOSA graph and the blob Vela made of it."""

    tosa: bytes
    blob: bytes


def lower(model: torch.nn.Module, example_inputs: tuple[torch.Tensor, ...], target: str = "ethos-u55-128") -> Lowered:
    """Quantize `model` (int8, symmetric), partition it for the Ethos-U and return the single
    delegate's TOSA flatbuffer and blob; the model must lower to exactly one delegate."""
    from executorch.backends.arm.ethosu import EthosUCompileSpec, EthosUPartitioner
    from executorch.backends.arm.quantizer import EthosUQuantizer, get_symmetric_quantization_config
    from executorch.exir import EdgeCompileConfig, to_edge_transform_and_lower
    from executorch.exir._serialize._program import deserialize_pte_binary
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    with tempfile.TemporaryDirectory(prefix="npu-model-") as artifacts:
        spec = EthosUCompileSpec(target, system_config="Ethos_U55_High_End_Embedded", memory_mode="Shared_Sram")
        spec.dump_intermediate_artifacts_to(artifacts)
        quantizer = EthosUQuantizer(spec)
        quantizer.set_global(get_symmetric_quantization_config())
        graph = torch.export.export(model.eval(), example_inputs).module(check_guards=False)
        graph = prepare_pt2e(graph, quantizer)
        graph(*example_inputs)
        graph = convert_pt2e(graph)
        edge = to_edge_transform_and_lower(
            torch.export.export(graph, example_inputs),
            partitioner=[EthosUPartitioner(spec)],
            compile_config=EdgeCompileConfig(_check_ir_validity=False),
        )
        program = deserialize_pte_binary(edge.to_executorch().buffer).program
        if len(program.backend_delegate_data) != 1:
            raise ValueError(f"expected one Ethos-U delegate, got {len(program.backend_delegate_data)}")
        tosa_files = sorted(glob.glob(os.path.join(artifacts, "output_tag*.tosa")))
        if len(tosa_files) != 1:
            raise ValueError(f"expected one TOSA flatbuffer in the artifacts, got {tosa_files}")
        with open(tosa_files[0], "rb") as f:
            tosa = f.read()
        return Lowered(tosa=tosa, blob=bytes(program.backend_delegate_data[0].data))
