"""tinypte.quantize.vectorized_reference gives the backend's reference convolutions' outputs.

Random convolutions (grouped and not, strided, padded, with and without bias, every
shift from left 4 to right 20, offsets across the int8 range) of all four operators, each run by
the backend's reference implementation and inside `vectorized()`: the int8 outputs must be the
same bits. Then two small int8 programs (the explicit-layout pipeline, NHWC operators, and the
default one, on a channels-last model) run on random inputs both ways.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import executorch.backends.cortex_m.passes  # noqa: F401 (defines torch.ops.cortex_m, then its passes)
import pytest
import torch

from tinypte.quantize import cortex_m
from tinypte.quantize.vectorized_reference import requantize_channels, vectorized

# Random operator cases per operator, and program inputs per pipeline (the tests fail below them).
MIN_CASES = 60
MIN_PROGRAM_INPUTS = 8


def requantize_parameters(rng: random.Random, channels: int) -> tuple[torch.Tensor, torch.Tensor]:
    multipliers = torch.tensor([rng.randint(1 << 30, (1 << 31) - 1) for _ in range(channels)], dtype=torch.int32)
    shifts = torch.tensor([rng.randint(-20, 4) for _ in range(channels)], dtype=torch.int32)
    return multipliers, shifts


def int8(generator: torch.Generator, *shape: int) -> torch.Tensor:
    return torch.randint(-128, 128, shape, generator=generator, dtype=torch.int8)


def conv_case(rng: random.Random, generator: torch.Generator, nhwc: bool) -> tuple[Any, tuple[Any, ...]]:
    groups = rng.choice([1, 1, 2])
    in_per_group, out_channels = rng.randint(1, 5), groups * rng.randint(1, 6)
    kernel, size = rng.choice([1, 3]), rng.randint(3, 9)
    image = int8(generator, 2, in_per_group * groups, size, size)
    weight = int8(generator, out_channels, kernel, kernel, in_per_group)
    bias = None if rng.random() < 0.3 else torch.randint(-5000, 5000, (out_channels,), generator=generator)
    multipliers, shifts = requantize_parameters(rng, out_channels)
    stride, padding, dilation = (
        [rng.randint(1, 2)] * 2,
        [rng.randint(0, kernel // 2)] * 2,
        [1, 1],
    )  # torch: no int dilation
    if nhwc:
        image = image.permute(0, 2, 3, 1).contiguous()
    op = torch.ops.cortex_m.quantized_conv2d_nhwc if nhwc else torch.ops.cortex_m.quantized_conv2d
    args = (image, weight, bias.to(torch.int32) if bias is not None else None, stride, padding, dilation,
            rng.randint(-127, 128), rng.randint(-128, 127), multipliers, shifts, -128, rng.choice([127, 100]),
            torch.empty(0, dtype=torch.int8))  # fmt: skip
    return op.default, args


def depthwise_case(rng: random.Random, generator: torch.Generator, nhwc: bool) -> tuple[Any, tuple[Any, ...]]:
    channels, kernel, size = rng.randint(1, 12), rng.choice([3, 5]), rng.randint(5, 10)
    image = int8(generator, 1, channels, size, size)
    weight = int8(generator, 1, kernel, kernel, channels)
    bias = None if rng.random() < 0.3 else torch.randint(-5000, 5000, (channels,), generator=generator)
    multipliers, shifts = requantize_parameters(rng, channels)
    stride, padding = [rng.randint(1, 2)] * 2, [rng.randint(0, kernel // 2)] * 2
    if nhwc:
        image = image.permute(0, 2, 3, 1).contiguous()
    op = torch.ops.cortex_m.quantized_depthwise_conv2d_nhwc if nhwc else torch.ops.cortex_m.quantized_depthwise_conv2d
    args = (image, weight, bias.to(torch.int32) if bias is not None else None, stride, padding, [1, 1], 1,
            rng.randint(-127, 128), rng.randint(-128, 127), multipliers, shifts, -128, 127,
            torch.empty(0, dtype=torch.int8))  # fmt: skip
    return op.default, args


@pytest.mark.parametrize("make", [conv_case, depthwise_case])
@pytest.mark.parametrize("nhwc", [False, True])
def test_operators_match_reference(make: Any, nhwc: bool) -> None:
    rng = random.Random(f"{make.__name__}{nhwc}")
    generator = torch.Generator().manual_seed(rng.randint(0, 1 << 30))
    checked = 0
    for index in range(MIN_CASES):
        op, args = make(rng, generator, nhwc)
        reference = op(*args)
        mode = vectorized()
        with mode:
            ours = op(*args)
        assert mode.calls == 1
        assert ours.dtype == reference.dtype and ours.shape == reference.shape, f"case {index}"
        assert ours.stride() == reference.stride(), f"case {index}: another memory layout"
        assert torch.equal(ours, reference), f"case {index}: {op} differs"
        checked += 1
    assert checked >= MIN_CASES


def test_requantize_extremes() -> None:
    from executorch.backends.cortex_m.passes.passes_utils import requantize_cmsis

    acc = torch.tensor([-(1 << 31), -(1 << 20), -3, -1, 0, 1, 2, 3, 1 << 20, (1 << 31) - 1], dtype=torch.int32)
    acc = acc.view(1, 1, 1, -1).expand(1, 4, 1, -1).contiguous()
    multipliers = torch.tensor([1 << 30, (1 << 31) - 1, 1518500250, 1 << 30], dtype=torch.int32)
    shifts = torch.tensor([-31, 0, 3, -1], dtype=torch.int32)
    ours = requantize_channels(acc, multipliers, shifts)
    for channel in range(4):
        expected = requantize_cmsis(acc[:, channel], int(multipliers[channel]), int(shifts[channel]))
        assert torch.equal(ours[:, channel], expected), f"channel {channel}"


class Net(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.depthwise = torch.nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.pointwise = torch.nn.Conv2d(8, 6, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.pointwise(torch.relu(self.depthwise(torch.relu(self.conv(x)))))
        return out


@pytest.mark.parametrize("explicit", [True, False])
def test_programs_match_reference(explicit: bool) -> None:
    # The default pipeline quantizes the convolutions of a channels-last model.
    layout = torch.contiguous_format if explicit else torch.channels_last
    torch.manual_seed(3)
    model: Any = Net().eval()
    model = model.to(memory_format=layout)
    example = (torch.randn(1, 3, 12, 12).to(memory_format=layout),)
    calibration = [(torch.randn(1, 3, 12, 12).to(memory_format=layout),) for _ in range(8)]
    module = cortex_m.quantize_program(model, example, calibration, explicit=explicit).exported_program().module()
    checked = 0
    mode = vectorized()
    for _ in range(MIN_PROGRAM_INPUTS):
        x = (torch.randn(1, 3, 12, 12) * 2).to(memory_format=layout)
        reference = module(x)
        with mode:
            ours = module(x)
        assert torch.equal(ours, reference)
        checked += 1
    assert checked >= MIN_PROGRAM_INPUTS
    assert mode.calls >= 3 * MIN_PROGRAM_INPUTS, f"only {mode.calls} convolutions ran vectorized"


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
