"""Visual wake words shaped like MLPerf Tiny's: MobileNetV1 with width 0.25 on 96 x 96 x 3
images, 2 classes (person / no person).

A model file for tinypte's executorch_model rule (python/tinypte/model/loading.py). The
architecture is MobileNetV1-0.25: a 3x3 stride-2 convolution to 8 channels, thirteen
depthwise-separable blocks (depthwise 3x3 + batch norm + ReLU, pointwise 1x1 + batch norm + ReLU)
widening to 256 channels with stride 2 at blocks 2, 4, 6 and 12, global average pooling and a
linear layer to 2 classes. Input: [1, 3, 96, 96].

Data (seeded, synthetic, nothing downloaded): a "person" is a standing figure, a vertical
ellipse for the body under a circle for the head, at a random position, scale and color; every
image has a cluttered background of random soft blobs and horizontal bars (no-person images
only that). Metric: test accuracy.
"""

from __future__ import annotations

import torch
from torch import nn

from tinypte.model.classifier import SyntheticClassifier

ACCEPTANCE = {"test_accuracy": (">=", 0.8)}
TOLERANCE = 2e-4  # float32 logits after fourteen convolutions
SIZE, CLASSES = 96, 2
TRAIN, TEST, EPOCHS, BATCH = 768, 192, 5, 32
DATA_SEED = 9696
# (output channels, stride) of the thirteen depthwise-separable blocks, width 0.25.
BLOCKS = [(16, 1), (32, 2), (32, 1), (64, 2), (64, 1), (128, 2)] + [(128, 1)] * 5 + [(256, 2), (256, 1)]


def _separable(cin: int, cout: int, stride: int) -> list[nn.Module]:
    return [
        nn.Conv2d(cin, cin, 3, stride=stride, padding=1, groups=cin, bias=False),
        nn.BatchNorm2d(cin),
        nn.ReLU(),
        nn.Conv2d(cin, cout, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(),
    ]


def build() -> nn.Module:
    layers: list[nn.Module] = [nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU()]
    channels = 8
    for cout, stride in BLOCKS:
        layers += _separable(channels, cout, stride)
        channels = cout
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(channels, CLASSES))


def _ellipse(
    xs: torch.Tensor, ys: torch.Tensor, cx: torch.Tensor, cy: torch.Tensor, rx: torch.Tensor, ry: torch.Tensor
) -> torch.Tensor:
    """Soft-edged filled ellipses, one per image: [count, SIZE, SIZE] in [0, 1]."""
    d = ((xs - cx) / rx) ** 2 + ((ys - cy) / ry) ** 2
    return torch.sigmoid((1.0 - d) * 6.0)


def _images(count: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    def rand(*shape: int) -> torch.Tensor:
        return torch.rand(count, *shape, 1, 1, generator=generator).squeeze(-1).squeeze(-1).view(count, 1, 1)

    ys, xs = torch.meshgrid(
        torch.arange(SIZE, dtype=torch.float32), torch.arange(SIZE, dtype=torch.float32), indexing="ij"
    )
    labels = torch.randint(0, CLASSES, (count,), generator=generator)
    image = 0.3 * torch.randn(count, 3, SIZE, SIZE, generator=generator) * 0.3
    for _ in range(4):  # clutter: round blobs and horizontal bars
        blob = _ellipse(xs, ys, rand() * SIZE, rand() * SIZE, rand() * 10 + 4, rand() * 10 + 4)
        bar = _ellipse(xs, ys, rand() * SIZE, rand() * SIZE, rand() * 20 + 10, rand() * 3 + 2)
        tint = torch.rand(count, 3, 1, 1, generator=generator) * 2 - 1
        image += tint * (blob + bar).unsqueeze(1) * 0.6
    scale = rand() * 0.5 + 0.75
    cx, cy = rand() * 50 + 23, rand() * 30 + 40
    body = _ellipse(xs, ys, cx, cy, 7 * scale, 20 * scale)
    head = _ellipse(xs, ys, cx, cy - 27 * scale, 6 * scale, 6 * scale)
    color = torch.rand(count, 3, 1, 1, generator=generator) * 1.2 + 0.4
    person = (labels == 1).float().view(count, 1, 1, 1)
    image += person * color * (body + head).clamp(max=1.0).unsqueeze(1)
    return image, labels


train_set, test_set, train, evaluate, example_inputs, golden_inputs = SyntheticClassifier(
    _images, data_seed=DATA_SEED, train_count=TRAIN, test_count=TEST, epochs=EPOCHS, batch=BATCH, lr=3e-3,
    input_shape=(3, SIZE, SIZE), golden_count=2, name="vww").hooks()  # fmt: skip
