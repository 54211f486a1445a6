"""In-place planning (tinypte.quantize.in_place): which int8 calls store their out over
their dying input, the ring their scratch gets, and the arena that saves.

A small int8 network through ExecuTorch's Cortex-M flow and tinypte's planning has each case:
a convolution over the program input (kept apart), one whose input a later add still reads
(kept apart), a 3 x 3 one and a depthwise one over dying inputs (in place, ring in scratch), an
add of two dying inputs (in place) and a strided convolution (kept apart). That the kernels
compute the same bytes in place is checked by runtime/kernels/tests/s8_conv_paths (every board) and
end to end by the zoo's int8 firmware tests (kws_int8 and resnet8_int8 run in place).
"""

from __future__ import annotations

import sys
from typing import Any

import pytest
import torch
from torch import nn

from tinypte.export.fusion_planning import operator_name
from tinypte.export.pipeline import backend_config
from tinypte.quantize import cortex_m as quantize
from tinypte.quantize import in_place, scratch


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.keep = nn.Conv2d(8, 8, 3, padding=1)
        self.over = nn.Conv2d(8, 8, 3, padding=1)
        self.depthwise = nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.strided = nn.Conv2d(8, 4, 3, stride=2, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        a = torch.relu(self.stem(x))
        b = torch.relu(self.keep(a))
        c = torch.relu(self.over(b))
        d = torch.relu(self.depthwise(c))
        out: torch.Tensor = self.strided(torch.relu(d + a))
        return out


def planned(share: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The int8 program of Block after to_executorch, planned with or without in-place outs."""
    torch.manual_seed(0)
    model = Block().eval()
    generator = torch.Generator().manual_seed(1)
    calibration = [(torch.randn(1, 3, 12, 10, generator=generator),) for _ in range(4)]
    edge = quantize.quantize_program(model, calibration[0], calibration)
    if not share:
        monkeypatch.setattr(in_place, "share_in_place_outs", lambda graph_module, specs=(): 0)
    return edge.to_executorch(backend_config(16, "best", in_place.in_place_aware))


def calls(program: Any) -> list[Any]:
    return [
        n
        for n in program.exported_program().graph_module.graph.nodes
        if (operator_name(n) or "").startswith("cortex_m::quantized_")
    ]


def test_ring_bytes() -> None:
    ring = in_place.ring_bytes
    assert ring((1, 32, 32, 16), (1, 32, 32, 16), (1, 1), (1, 1)) == 2 * 512  # resnet8's block: a row waits
    assert ring((1, 25, 5, 64), (1, 25, 5, 64), (1, 1), (1, 1)) == 2 * 320  # kws depthwise: a band of one row
    assert ring((1, 25, 5, 64), (1, 25, 5, 64), (1, 1), (0, 0)) == 1 * 320  # kws pointwise: nothing waits
    assert ring((1, 25, 5, 64), (1, 25, 5, 64), (1, 1), (1, 1), budget=1818) == 5 * 320  # a band of 4 rows
    assert ring((1, 25, 5, 64), (1, 25, 5, 64), (1, 1), (0, 0), budget=10**6) == 25 * 320  # at most all rows
    assert ring((1, 4, 4, 200), (1, 4, 4, 200), (1, 1), (2, 2), budget=100) == 3 * 800  # at least one band row
    assert ring((1, 8, 8, 8), (1, 8, 8, 8), (1, 1), (1, 1)) == 2 * 64
    assert ring((1, 8, 8, 8), (1, 4, 4, 8), (2, 2), (1, 1)) is None  # strided along the height
    assert ring((2, 8, 8, 8), (2, 8, 8, 8), (1, 1), (1, 1)) is None  # two batches
    assert ring((1, 8, 8, 8), (1, 8, 8, 16), (1, 1), (1, 1)) is None  # out rows longer than input rows
    assert ring((1, 8, 8, 8), (1, 10, 8, 4), (1, 1), (2, 0)) is None  # more out rows than input rows


def test_calls_over_dying_inputs_run_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    from executorch.exir import memory

    program = planned(True, monkeypatch)
    found = calls(program)
    names = [str(operator_name(n)).removeprefix("cortex_m::") for n in found]
    assert names == ["quantized_conv2d_nhwc"] * 3 + ["quantized_depthwise_conv2d_nhwc", "quantized_add",
                                                     "quantized_conv2d_nhwc"]  # fmt: skip
    stored_over = [n.meta["spec"].storage_base is not None for n in found]
    # stem (program input), keep (the add reads its input), over, depthwise, add, strided
    assert stored_over == [False, False, True, True, True, False]
    for node, shared in zip(found, stored_over, strict=True):
        if shared:  # stored exactly over an input of the call
            inputs = [a.meta["spec"] for a in node.args if hasattr(a, "meta") and "spec" in a.meta]
            assert any(node.meta["spec"].storage_base is spec for spec in inputs)
    for node in found[:4]:  # the ring is in the scratch of those that run in place, only
        allocs = [a for a in node.args if getattr(a, "target", None) is memory.alloc]
        shapes = [tuple(a.meta["spec"].shape) if hasattr(a, "meta") and "spec" in a.meta else a for a in node.args]
        need = scratch.scratch_sizes(str(operator_name(node)), shapes)
        assert need is not None and len(allocs) == 1
        have = allocs[0].meta["spec"].shape[0]
        smallest = in_place.in_place_ring(node)
        assert (smallest is not None) == (node in found[2:4])
        if smallest is None:
            assert have == need[0]
        else:  # at least the smallest ring; at most all out rows and the waiting ones
            out_rows = node.meta["spec"].shape[1]
            row = node.meta["spec"].shape[2] * node.meta["spec"].shape[3]
            assert need[0] + smallest <= have <= need[0] + (out_rows + 1) * row


def test_in_place_shrinks_the_arena(monkeypatch: pytest.MonkeyPatch) -> None:
    with_in_place = planned(True, monkeypatch).executorch_program.execution_plan[0].non_const_buffer_sizes
    apart = planned(False, monkeypatch).executorch_program.execution_plan[0].non_const_buffer_sizes
    # Block's peak is at the 3 x 3 convolution over `b` (a, b, its out live): in place, the out
    # shares b's 8 x 12 x 10 bytes.
    assert sum(with_in_place) < sum(apart)
    assert sum(apart) - sum(with_in_place) >= 8 * 12 * 10 - 2 * 8 * 10


def test_firmware_links_the_in_place_routine_for_calls_in_place_only() -> None:
    from tinypte.inspect_pte import extensions

    def tensor(offset: int | None) -> dict[str, Any]:
        info = None if offset is None else {"memory_id": 1, "memory_offset_low": offset, "memory_offset_high": 0}
        return {"val_type": "Tensor", "val": {"scalar_type": "CHAR", "sizes": [1], "allocation_info": info}}

    values = [tensor(0), tensor(None), tensor(512), tensor(0), {"val_type": "Int", "val": {"int_val": 1}}]
    conv = ("cortex_m::quantized_conv2d_nhwc", "out")
    over_input = {"args": [0, 1, 4, 2, 3, 3]}  # input, weight, int, scratch, out, out: out over the input
    apart = {"args": [0, 1, 4, 2, 2, 2]}
    assert extensions.needed(*conv, over_input, values) == {extensions.S8_CONV_IN_PLACE}
    assert extensions.needed("cortex_m::quantized_depthwise_conv2d_nhwc", "out", over_input, values) == {
        extensions.S8_CONV_IN_PLACE
    }
    assert extensions.needed(*conv, apart, values) == set()
    assert extensions.needed("cortex_m::quantized_add", "out", over_input, values) == set()  # exact anyway


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
