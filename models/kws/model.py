"""Keyword spotting, shaped like MLPerf Tiny's: a DS-CNN on 49 x 10 MFCC features, 12 classes.

A model file for tinypte's executorch_model rule (python/tinypte/model/loading.py). The
architecture is MLPerf Tiny's DS-CNN (small): conv 10x4 stride 2 (1 -> 64 channels) with
batch norm and ReLU, four depthwise-separable blocks (depthwise 3x3 + BN + ReLU, pointwise
1x1 64 -> 64 + BN + ReLU), global average pooling and a linear layer to 12 classes (10
keywords, "silence", "unknown"). Input: [1, 1, 49, 10] (49 frames of 10 MFCCs).

Data (seeded, synthetic, nothing downloaded): each keyword is a fixed template, a sequence of
four formant-like blobs at keyword-specific (frame, coefficient) positions; an utterance is its
template shifted by up to +-4 frames, scaled by 0.7..1.3, plus noise. "silence" is noise
only; "unknown" utterances use templates of other random words. Metric: test accuracy.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import nn

from tinypte.model.evaluation import accuracy, single_cases
from tinypte.model.training import minibatch_epochs

ACCEPTANCE = {"test_accuracy": (">=", 0.9)}
TOLERANCE = 1e-4  # float32 logits after five convolutions
FRAMES, COEFFICIENTS, CLASSES, CHANNELS = 49, 10, 12, 64
TRAIN, TEST, EPOCHS, BATCH = 1536, 384, 8, 64
DATA_SEED = 4910  # templates and the test set, whatever the training seed


def _block(channels: int) -> list[nn.Module]:
    return [
        nn.Conv2d(channels, channels, 3, padding=1, groups=channels, bias=False),
        nn.BatchNorm2d(channels),
        nn.ReLU(),
        nn.Conv2d(channels, channels, 1, bias=False),
        nn.BatchNorm2d(channels),
        nn.ReLU(),
    ]


def build() -> nn.Module:
    return nn.Sequential(
        nn.Conv2d(1, CHANNELS, (10, 4), stride=2, padding=(5, 1), bias=False),
        nn.BatchNorm2d(CHANNELS),
        nn.ReLU(),
        *[m for _ in range(4) for m in _block(CHANNELS)],
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(CHANNELS, CLASSES),
    )


def _templates(count: int, generator: torch.Generator) -> torch.Tensor:
    frames = torch.arange(FRAMES, dtype=torch.float32).view(1, 1, FRAMES, 1)
    coefficients = torch.arange(COEFFICIENTS, dtype=torch.float32).view(1, 1, 1, COEFFICIENTS)
    centre_t = torch.rand(count, 4, 1, 1, generator=generator) * 30 + 8
    centre_c = torch.rand(count, 4, 1, 1, generator=generator) * COEFFICIENTS
    sign = torch.randint(0, 2, (count, 4, 1, 1), generator=generator) * 2.0 - 1.0
    blobs = sign * torch.exp(-(((frames - centre_t) / 3.0) ** 2) - ((coefficients - centre_c) / 1.5) ** 2)
    return blobs.sum(dim=1)  # [count, FRAMES, COEFFICIENTS]


def _utterances(count: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    keywords = _templates(CLASSES - 2, torch.Generator().manual_seed(DATA_SEED))
    labels = torch.randint(0, CLASSES, (count,), generator=generator)
    others = _templates(count, generator)  # "unknown": words that are not keywords
    shapes = torch.zeros(count, FRAMES, COEFFICIENTS)
    known = labels < CLASSES - 2
    shapes[known] = keywords[labels[known]]
    shapes[labels == CLASSES - 1] = others[labels == CLASSES - 1]
    shifts = torch.randint(-4, 5, (count,), generator=generator)
    shifted = torch.stack([torch.roll(s, int(k), dims=0) for s, k in zip(shapes, shifts, strict=True)])
    gain = torch.rand(count, 1, 1, generator=generator) * 0.6 + 0.7
    x = gain * shifted + 0.15 * torch.randn(count, FRAMES, COEFFICIENTS, generator=generator)
    return x.unsqueeze(1), labels


def train_set() -> tuple[torch.Tensor, torch.Tensor]:
    return _utterances(TRAIN, torch.Generator().manual_seed(DATA_SEED + 1))


def test_set() -> tuple[torch.Tensor, torch.Tensor]:
    return _utterances(TEST, torch.Generator().manual_seed(DATA_SEED + 2))


def train(model: nn.Module, *, seed: int, log: Callable[[str], None]) -> None:
    x, y = train_set()
    minibatch_epochs(model, x, y, nn.functional.cross_entropy, seed=seed, epochs=EPOCHS, batch=BATCH, lr=3e-3, log=log,
                     name="kws")  # fmt: skip


def evaluate(model: Callable[[torch.Tensor], torch.Tensor]) -> dict[str, float]:
    return accuracy(model, *test_set())


def example_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.zeros(1, 1, FRAMES, COEFFICIENTS),)


def golden_inputs() -> list[tuple[torch.Tensor, ...]]:
    return single_cases(test_set()[0], range(12))
