"""1-D layers through int8 (tinypte.quantize.one_d) and float activations as tables
(tinypte.quantize.tables): the rewrites compute what the model computed, every Conv1d and 1-D
pool of a sensor CNN ends up a cortex_m kernel, a tabulated activation is bit-identical to
the float chain it replaces, and what stays float or is refused names the model's layer."""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import pytest
import torch
from torch import nn

from tinypte.export.fusion_planning import operator_name
from tinypte.quantize import cortex_m as quantize
from tinypte.quantize import layers, one_d

CHECKED_INPUTS = 32


class Branches(nn.Module):
    """Every 1-D form one_d rewrites, with a residual add between two lifted branches."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Conv1d(4, 8, 5, stride=2, padding=2, dilation=1)
        self.norm = nn.BatchNorm1d(8)
        self.left = nn.Conv1d(8, 8, 3, padding="same", dilation=2, groups=2)
        self.right = nn.Conv1d(8, 8, 1)
        self.max = nn.MaxPool1d(3, stride=2, padding=1, ceil_mode=True)
        self.avg = nn.AvgPool1d(3, stride=1, padding=1)
        self.head = nn.AdaptiveAvgPool1d(4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.norm(self.stem(x)))
        y = nn.functional.leaky_relu(self.left(y), 0.1) + self.right(y)
        out: torch.Tensor = self.head(self.avg(self.max(y))).flatten(1)
        return out


def sensor_cnn() -> nn.Module:
    """The shape of the zoo's imu model (models/imu/model.py), smaller."""
    torch.manual_seed(0)
    return nn.Sequential(
        nn.Conv1d(3, 8, 5), nn.LeakyReLU(0.1), nn.MaxPool1d(2),
        nn.Conv1d(8, 8, 3, padding=1, groups=8), nn.ReLU(), nn.AvgPool1d(3, 2, 1),
        nn.Conv1d(8, 16, 3), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(16, 4),
    ).eval()  # fmt: skip


def calibration(shape: tuple[int, ...], count: int = 8) -> list[tuple[torch.Tensor, ...]]:
    generator = torch.Generator().manual_seed(1)
    return [(torch.randn(*shape, generator=generator),) for _ in range(count)]


def aten_names(module: Any) -> list[str]:
    return [name for name in (layers.aten_name(n) for n in module.graph.nodes) if name is not None]


def test_lifted_graph_computes_what_the_model_computes() -> None:
    torch.manual_seed(0)
    model = Branches().eval()
    with torch.no_grad():
        for stat, low, high in ((model.norm.running_mean, -1.0, 1.0), (model.norm.running_var, 0.5, 2.0)):
            assert stat is not None
            stat.uniform_(low, high)
    example = (torch.randn(1, 4, 40),)
    captured = torch.export.export(model, example).module(check_guards=False)
    assert one_d.lift_1d(captured) == 6
    names = aten_names(captured)
    assert not [n for n in names if n.endswith("1d")], names
    assert names.count("squeeze") == 0, names  # every squeeze met its unsqueeze or the flatten
    checked = 0
    for (x,) in calibration((1, 4, 40), CHECKED_INPUTS):
        assert torch.allclose(captured(x), model(x), rtol=1e-5, atol=1e-6)
        checked += 1
    assert checked == CHECKED_INPUTS


def test_a_sensor_cnn_is_int8_end_to_end() -> None:
    model = sensor_cnn()
    edge = quantize.quantize_program(copy.deepcopy(model), (torch.zeros(1, 3, 64),), calibration((1, 3, 64)))
    names = {str(operator_name(n)) for n in edge.exported_program().graph_module.graph.nodes}
    assert quantize.float_nodes(edge) == []
    for kernel in ("quantized_conv2d_nhwc", "quantized_depthwise_conv2d_nhwc", "quantized_max_pool2d_nhwc",
                   "quantized_avg_pool2d_nhwc", "quantized_activation", "quantized_linear"):  # fmt: skip
        assert any(kernel in name for name in names), (kernel, names)


def test_tabulated_activations_are_bit_identical_to_the_float_chain() -> None:
    model = nn.Sequential(nn.Linear(6, 16), nn.LeakyReLU(0.2), nn.Linear(16, 16), nn.ELU(), nn.Linear(16, 3)).eval()
    example, batches = (torch.zeros(1, 6),), calibration((1, 6))
    tabulated = quantize.quantize_program(copy.deepcopy(model), example, batches)
    chained = quantize.quantize_program(copy.deepcopy(model), example, batches, tabulate=False)
    assert quantize.float_nodes(tabulated) == []
    assert {n.operator for n in quantize.float_nodes(chained)} == {"aten::leaky_relu", "aten::elu"}
    fast, slow = tabulated.exported_program().module(), chained.exported_program().module()
    checked = 0
    for (x,) in calibration((1, 6), CHECKED_INPUTS):
        assert torch.equal(fast(x * 3), slow(x * 3))  # past the calibrated range too
        checked += 1
    assert checked == CHECKED_INPUTS


class Pooled(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.norm = nn.LayerNorm(16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = nn.functional.avg_pool2d(self.conv(x), 2, divisor_override=3)
        out: torch.Tensor = self.norm(y.flatten(2))
        return out


def test_what_stays_float_and_what_a_pipeline_refuses_name_the_model_s_layers() -> None:
    """A pool with divisor_override: the explicit-layout pipeline refuses the model, the default
    pipeline leaves the pool (and the layer norm) float; both messages name the layer and line
    (the model's file is this one)."""
    from tinypte.quantize import flow

    here = Path(__file__)
    module = type(sys)("pooled")
    module.golden_inputs = lambda: calibration((1, 3, 8, 8))  # type: ignore[attr-defined]
    result = flow.quantize_model(here, module, Pooled().eval(), (torch.zeros(1, 3, 8, 8),))
    refusal = result.pipeline["refused"]
    line = f"{here.name}:{Pooled.forward.__code__.co_firstlineno + 1}"
    assert result.pipeline["name"] == "default" and f"at {line}" in refusal, refusal
    left = {n.operator: n.layer for n in quantize.float_nodes(result.edge, here)}
    assert left["aten::avg_pool2d"] == f"at {line}", left
    assert left["aten::native_layer_norm"].startswith("layer `norm` (LayerNorm) at "), left


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
