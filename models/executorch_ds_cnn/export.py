"""Write a .pte the way an ExecuTorch user does, with no tinypte in the loop.

The MLPerf Tiny keyword-spotting DS-CNN as ExecuTorch ships it
(executorch.examples.models.mlperf_tiny.ds_cnn), with random weights from a fixed seed,
quantized and lowered by the Cortex-M backend's documented flow: CortexMQuantizer ->
to_edge(cortex_m_edge_compile_config()) -> CortexMPassManager -> to_executorch() with
ExecuTorch's own memory planning. Its input is channels-last, as the backend's tests feed it.
Also writes the golden inputs (torch.save of a list of one-tensor tuples), so the build's
golden data comes from inputs the user chose, as it would for their own program.

usage: export.py --pte ds_cnn.pte --inputs ds_cnn_inputs.pt
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

CASES = 3


def lower(model: torch.nn.Module, example: tuple[torch.Tensor, ...], calibration: list[torch.Tensor]) -> bytes:
    from executorch.backends.cortex_m.edge_compile_config import cortex_m_edge_compile_config
    from executorch.backends.cortex_m.passes.cortex_m_pass_manager import CortexMPassManager
    from executorch.backends.cortex_m.quantizer.quantizer import CortexMQuantizer
    from executorch.exir import to_edge
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    captured = torch.export.export(model, example).module(check_guards=False)
    prepared = prepare_pt2e(captured, CortexMQuantizer())
    with torch.no_grad():
        for x in calibration:
            prepared(x)
    converted = convert_pt2e(prepared)
    edge = to_edge(torch.export.export(converted, example), compile_config=cortex_m_edge_compile_config())
    edge._edge_programs["forward"] = CortexMPassManager(edge.exported_program()).transform()
    return bytes(edge.to_executorch().buffer)


def main(argv: list[str] | None = None) -> int:
    from executorch.examples.models.mlperf_tiny.ds_cnn import DSCNNKWS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pte", type=Path, required=True)
    parser.add_argument("--inputs", type=Path, required=True)
    args = parser.parse_args(argv)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = DSCNNKWS().eval()
    features = [torch.randn(1, 1, 49, 10).to(memory_format=torch.channels_last) for _ in range(8)]
    args.pte.write_bytes(lower(model, (features[0],), features))
    torch.save([(x,) for x in features[:CASES]], args.inputs)
    print(f"export: ds_cnn.pte {args.pte.stat().st_size} B, written by ExecuTorch's Cortex-M flow")
    return 0


if __name__ == "__main__":
    sys.exit(main())
