"""The small PyTorch models npu_model_test.py lowers for the Ethos-U55 and runs on both the NPU
model and tosa_reference_model: one per operator form Vela emits (strided, padded, 1x1 and
depthwise convolutions, pools, elementwise arithmetic, linear layers) plus small networks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import nn


@dataclass(frozen=True)
class Case:
    """A model and the shapes of its float inputs."""

    name: str
    build: Callable[[], nn.Module]
    input_shapes: tuple[tuple[int, ...], ...]


class Residual(nn.Module):
    """conv + conv + add of the block's input, then relu: ResNet's basic block."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.conv1(x))
        out: torch.Tensor = torch.relu(self.conv2(y) + x)
        return out


class Binary(nn.Module):
    """An elementwise operator of two inputs, each after a convolution of its own."""

    def __init__(self, op: Callable[[torch.Tensor, torch.Tensor], torch.Tensor], channels: int) -> None:
        super().__init__()
        self.op = op
        self.a = nn.Conv2d(channels, channels, 1)
        self.b = nn.Conv2d(channels, channels, 1)

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.op(self.a(x), self.b(y))
        return out


class Add(nn.Module):
    """x + y of the raw inputs."""

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return x + y


class DsCnn(nn.Module):
    """A small DS-CNN (keyword spotting): conv, depthwise-separable blocks, global average, linear."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Conv2d(1, 16, (5, 3), stride=2, padding=(2, 1))
        blocks: list[nn.Module] = []
        for _ in range(2):
            blocks += [nn.Conv2d(16, 16, 3, padding=1, groups=16), nn.ReLU(), nn.Conv2d(16, 16, 1), nn.ReLU()]
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(16, 12)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.blocks(torch.relu(self.stem(x)))
        out: torch.Tensor = self.fc(x.mean(dim=(2, 3)))
        return out


class Block(nn.Module):
    """ResNet-8's block: two 3x3 convolutions, a 1x1 strided shortcut when the shape changes."""

    def __init__(self, inputs: int, outputs: int, stride: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(inputs, outputs, 3, stride=stride, padding=1)
        self.conv2 = nn.Conv2d(outputs, outputs, 3, padding=1)
        self.shortcut: nn.Module = nn.Identity() if stride == 1 else nn.Conv2d(inputs, outputs, 1, stride=stride)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = torch.relu(self.conv2(torch.relu(self.conv1(x))) + self.shortcut(x))
        return out


class ResNet8(nn.Module):
    """MLPerf Tiny's image classification ResNet-8 (32x32x3, 16/32/64 channels, 12.5M MACs)."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, padding=1)
        self.blocks = nn.Sequential(Block(16, 16, 1), Block(16, 32, 2), Block(32, 64, 2))
        self.fc = nn.Linear(64, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.blocks(torch.relu(self.stem(x)))
        out: torch.Tensor = self.fc(x.mean(dim=(2, 3)))
        return out


class Linear(nn.Module):
    """A fully connected layer (with relu) on a flat input."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(40, 24)
        self.fc2 = nn.Linear(24, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.fc2(torch.relu(self.fc1(x)))
        return out


CASES: tuple[Case, ...] = (
    Case("conv3x3_s1_p1", lambda: nn.Sequential(nn.Conv2d(8, 16, 3, padding=1)), ((1, 8, 12, 12),)),
    Case("conv3x3_s2", lambda: nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU()), ((1, 8, 15, 15),)),
    Case("conv1x1", lambda: nn.Sequential(nn.Conv2d(32, 24, 1), nn.ReLU6()), ((1, 32, 7, 9),)),
    Case("conv_dilated", lambda: nn.Sequential(nn.Conv2d(8, 8, 3, padding=2, dilation=2)), ((1, 8, 11, 11),)),
    Case(
        "conv_odd_channels", lambda: nn.Sequential(nn.Conv2d(3, 5, 3, padding=1), nn.Conv2d(5, 17, 3)), ((1, 3, 10, 9),)
    ),
    Case("depthwise3x3_s1", lambda: nn.Sequential(nn.Conv2d(16, 16, 3, padding=1, groups=16)), ((1, 16, 10, 10),)),
    Case(
        "depthwise3x3_s2",
        lambda: nn.Sequential(nn.Conv2d(17, 17, 3, stride=2, padding=1, groups=17), nn.ReLU()),
        ((1, 17, 13, 13),),
    ),
    Case("avg_pool", lambda: nn.Sequential(nn.Conv2d(4, 16, 1), nn.AvgPool2d(2)), ((1, 4, 8, 8),)),
    Case("avg_pool_3x3_s1", lambda: nn.Sequential(nn.Conv2d(4, 8, 1), nn.AvgPool2d(3, stride=1)), ((1, 4, 9, 9),)),
    Case("max_pool", lambda: nn.Sequential(nn.Conv2d(4, 16, 1), nn.MaxPool2d(2)), ((1, 4, 8, 8),)),
    Case(
        "max_pool_3x3_s2_p1",
        lambda: nn.Sequential(nn.Conv2d(5, 5, 1), nn.MaxPool2d(3, stride=2, padding=1)),
        ((1, 5, 9, 9),),
    ),
    Case("add_raw", Add, ((1, 8, 6, 6), (1, 8, 6, 6))),
    Case("add", lambda: Binary(torch.add, 8), ((1, 8, 6, 6), (1, 8, 6, 6))),
    Case("sub", lambda: Binary(torch.sub, 8), ((1, 8, 6, 6), (1, 8, 6, 6))),
    Case("mul", lambda: Binary(torch.mul, 8), ((1, 8, 6, 6), (1, 8, 6, 6))),
    Case("minimum", lambda: Binary(torch.minimum, 8), ((1, 8, 6, 6), (1, 8, 6, 6))),
    Case("maximum", lambda: Binary(torch.maximum, 8), ((1, 8, 6, 6), (1, 8, 6, 6))),
    Case("residual", lambda: Residual(16), ((1, 16, 8, 8),)),
    Case("linear", Linear, ((1, 40),)),
    Case("ds_cnn", DsCnn, ((1, 1, 49, 10),)),
    Case("resnet8", ResNet8, ((1, 3, 32, 32),)),
)
