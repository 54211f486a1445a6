"""Image classification shaped like MLPerf Tiny's ResNet-8: 32 x 32 x 3 images, 10 classes.

A model file for tinypte's executorch_model rule (python/tinypte/model/loading.py). The
architecture is MLPerf Tiny's ResNet-8 for CIFAR-10: a 3x3 convolution to 16 channels with batch
norm and ReLU, three residual stages (16, 32 and 64 channels; the second and third stride 2,
with 1x1 projection shortcuts), each two 3x3 convolutions with batch norm, then global average
pooling and a linear layer to 10 classes. Input: [1, 3, 32, 32].

Data (seeded, synthetic, nothing downloaded): each class is a colored oriented grating (its own
orientation, frequency and color), seen through a random phase, a random soft-edged window
position, contrast 0.6..1.4 and noise. Metric: test accuracy.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from tinypte.model.classifier import SyntheticClassifier

ACCEPTANCE = {"test_accuracy": (">=", 0.8)}
TOLERANCE = 2e-4  # float32 logits after seven convolutions
SIZE, CLASSES = 32, 10
TRAIN, TEST, EPOCHS, BATCH = 1024, 256, 6, 64
DATA_SEED = 3232


class Residual(nn.Module):
    """Two 3x3 convolutions with batch norm; a 1x1 projection shortcut when the shape changes."""

    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut: nn.Module = nn.Identity()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(y + self.shortcut(x))


def build() -> nn.Module:
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1, bias=False),
        nn.BatchNorm2d(16),
        nn.ReLU(),
        Residual(16, 16, 1),
        Residual(16, 32, 2),
        Residual(32, 64, 2),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(64, CLASSES),
    )


def _images(count: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    classes = torch.Generator().manual_seed(DATA_SEED)
    angle = torch.rand(CLASSES, generator=classes) * math.pi
    frequency = torch.rand(CLASSES, generator=classes) * 0.5 + 0.25
    color = torch.rand(CLASSES, 3, generator=classes) * 2.0 - 1.0
    labels = torch.randint(0, CLASSES, (count,), generator=generator)
    ys, xs = torch.meshgrid(
        torch.arange(SIZE, dtype=torch.float32), torch.arange(SIZE, dtype=torch.float32), indexing="ij"
    )
    a, f = angle[labels].view(-1, 1, 1), frequency[labels].view(-1, 1, 1)
    phase = torch.rand(count, 1, 1, generator=generator) * 2 * math.pi
    grating = torch.sin(f * (xs * torch.cos(a) + ys * torch.sin(a)) + phase)
    centre = torch.rand(count, 2, 1, 1, generator=generator) * 16 + 8
    window = torch.exp(-((xs - centre[:, 0]) ** 2 + (ys - centre[:, 1]) ** 2) / 120.0)
    contrast = torch.rand(count, 1, 1, 1, generator=generator) * 0.8 + 0.6
    image = contrast * color[labels].view(-1, 3, 1, 1) * (grating * window).unsqueeze(1)
    return image + 0.2 * torch.randn(count, 3, SIZE, SIZE, generator=generator), labels


train_set, test_set, train, evaluate, example_inputs, golden_inputs = SyntheticClassifier(
    _images, data_seed=DATA_SEED, train_count=TRAIN, test_count=TEST, epochs=EPOCHS, batch=BATCH, lr=3e-3,
    input_shape=(3, SIZE, SIZE), golden_count=4, name="resnet8").hooks()  # fmt: skip
