"""Activity recognition from a 6-axis IMU: a 1-D CNN on windows of 128 samples, 6 classes.

A model file for tinypte's executorch_model rule (python/tinypte/model/loading.py). Input:
[1, 6, 128] (accelerometer x/y/z and gyroscope x/y/z, 2.56 s at 50 Hz). Architecture:
conv1d(6 -> 16, k 5) + LeakyReLU(0.1) + maxpool 2, conv1d(16 -> 32, k 5) + LeakyReLU + maxpool 2,
conv1d(32 -> 32, k 3) + LeakyReLU, global average pooling, linear(32 -> 6).

Data (seeded, synthetic, nothing downloaded): each activity (still, walk, run, stairs up,
stairs down, cycling) is a sum of sinusoids per axis at an activity-specific base frequency
and harmonics, with a gravity offset, random phase, amplitude jitter and noise. Metric: test
accuracy.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
from torch import nn

from tinypte.model.evaluation import accuracy, single_cases
from tinypte.model.training import minibatch_epochs

ACCEPTANCE = {"test_accuracy": (">=", 0.9)}
TOLERANCE = 1e-4
AXES, SAMPLES, CLASSES, RATE = 6, 128, 6, 50.0
TRAIN, TEST, EPOCHS, BATCH = 1200, 300, 15, 50
DATA_SEED = 6128
# Per activity: step frequency (Hz) and movement amplitude.
ACTIVITIES = [(0.0, 0.02), (1.8, 0.6), (2.8, 1.4), (1.5, 0.8), (1.6, 1.0), (1.2, 0.5)]


def build() -> nn.Module:
    return nn.Sequential(
        nn.Conv1d(AXES, 16, 5),
        nn.LeakyReLU(0.1),
        nn.MaxPool1d(2),
        nn.Conv1d(16, 32, 5),
        nn.LeakyReLU(0.1),
        nn.MaxPool1d(2),
        nn.Conv1d(32, 32, 3),
        nn.LeakyReLU(0.1),
        nn.AdaptiveAvgPool1d(1),
        nn.Flatten(),
        nn.Linear(32, CLASSES),
    )


def _windows(count: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    # Fixed per-activity axis mixes: how strongly each axis moves at the base and 2x frequency.
    mix = torch.rand(CLASSES, AXES, 2, generator=torch.Generator().manual_seed(DATA_SEED)) + 0.2
    gravity = torch.tensor([0.0, 0.0, 1.0, 0.0, 0.0, 0.0]).view(1, AXES, 1)
    labels = torch.randint(0, CLASSES, (count,), generator=generator)
    t = torch.arange(SAMPLES, dtype=torch.float32).view(1, 1, SAMPLES) / RATE
    table = torch.tensor(ACTIVITIES)
    frequency = table[labels, 0].view(count, 1, 1) * (torch.rand(count, 1, 1, generator=generator) * 0.2 + 0.9)
    amplitude = table[labels, 1].view(count, 1, 1) * (torch.rand(count, 1, 1, generator=generator) * 0.4 + 0.8)
    phase = torch.rand(count, AXES, 1, generator=generator) * 2 * math.pi
    weights = mix[labels]  # [count, AXES, 2]
    signal = weights[..., :1] * torch.sin(2 * math.pi * frequency * t + phase)
    signal = signal + weights[..., 1:] * torch.sin(4 * math.pi * frequency * t + 2 * phase)
    x = gravity + amplitude * signal + 0.05 * torch.randn(count, AXES, SAMPLES, generator=generator)
    return x, labels


def train_set() -> tuple[torch.Tensor, torch.Tensor]:
    return _windows(TRAIN, torch.Generator().manual_seed(DATA_SEED + 1))


def test_set() -> tuple[torch.Tensor, torch.Tensor]:
    return _windows(TEST, torch.Generator().manual_seed(DATA_SEED + 2))


def train(model: nn.Module, *, seed: int, log: Callable[[str], None]) -> None:
    x, y = train_set()
    minibatch_epochs(model, x, y, nn.functional.cross_entropy, seed=seed, epochs=EPOCHS, batch=BATCH, lr=3e-3, log=log,
                     name="imu", log_every=5)  # fmt: skip


def evaluate(model: Callable[[torch.Tensor], torch.Tensor]) -> dict[str, float]:
    return accuracy(model, *test_set())


def example_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.zeros(1, AXES, SAMPLES),)


def golden_inputs() -> list[tuple[torch.Tensor, ...]]:
    return single_cases(test_set()[0], range(12))
