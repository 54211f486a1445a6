"""Anomaly detection, shaped like MLPerf Tiny's: a fully connected autoencoder on 640 inputs.

A model file for tinypte's executorch_model rule (python/tinypte/model/loading.py). The
architecture is MLPerf Tiny's ToyADMOS autoencoder: 640 -> 128 -> 128 -> 128 -> 128 -> 8 ->
128 -> 128 -> 128 -> 128 -> 640, each hidden layer linear + batch norm + ReLU (269,992
parameters, 264,320 MACs). Its input is 5 frames x 128 log-mel bins of a machine's sound.

Data (seeded, synthetic, nothing downloaded): a "normal" machine's spectrogram frames are
mixtures of 6 fixed spectral shapes (smooth bumps over the 128 bins) with random weights
that hold steady over the window, plus noise; an anomalous one adds a narrow-band tone (3 bins) at a random frequency. The model is
trained to reconstruct normal frames only; the anomaly score is the reconstruction MSE, and
the metric is the ROC AUC of that score separating normal from anomalous test windows.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

import torch
from torch import nn

from tinypte.model.evaluation import single_cases
from tinypte.model.training import minibatch_epochs

ACCEPTANCE = {"test_auc": (">=", 0.9)}
TOLERANCE = 1e-4  # float32 reconstruction through ten 128-wide layers
FRAMES, BINS, COMPONENTS = 5, 128, 6
INPUTS, HIDDEN, BOTTLENECK = FRAMES * BINS, 128, 8
TRAIN, TEST, EPOCHS, BATCH = 2048, 256, 40, 64
DATA_SEED = 640  # the spectral shapes and the test set, whatever the training seed


def _layer(inputs: int, outputs: int) -> list[nn.Module]:
    return [nn.Linear(inputs, outputs), nn.BatchNorm1d(outputs), nn.ReLU()]


def build() -> nn.Module:
    widths = [INPUTS, HIDDEN, HIDDEN, HIDDEN, HIDDEN, BOTTLENECK, HIDDEN, HIDDEN, HIDDEN, HIDDEN]
    layers = [m for a, b in pairwise(widths) for m in _layer(a, b)]
    return nn.Sequential(*layers, nn.Linear(HIDDEN, INPUTS))


def _shapes() -> torch.Tensor:
    generator = torch.Generator().manual_seed(DATA_SEED)
    centres = torch.rand(COMPONENTS, 1, generator=generator) * BINS
    widths = torch.rand(COMPONENTS, 1, generator=generator) * 20 + 8
    bins = torch.arange(BINS, dtype=torch.float32)
    return torch.exp(-(((bins - centres) / widths) ** 2))  # [COMPONENTS, BINS]


def _windows(count: int, anomalous: bool, generator: torch.Generator) -> torch.Tensor:
    # A steady machine: one mixture per window, jittering a little from frame to frame.
    weights = torch.rand(count, 1, COMPONENTS, generator=generator)
    weights = weights + 0.05 * torch.randn(count, FRAMES, COMPONENTS, generator=generator)
    frames = weights @ _shapes() + 0.05 * torch.randn(count, FRAMES, BINS, generator=generator)
    if anomalous:
        tone = torch.randint(0, BINS, (count, 1, 1), generator=generator)
        frames = frames + 0.8 * ((torch.arange(BINS).view(1, 1, BINS) - tone).abs() <= 1).float()
    return frames.reshape(count, INPUTS)


def train_set() -> tuple[torch.Tensor]:
    return (_windows(TRAIN, False, torch.Generator().manual_seed(DATA_SEED + 1)),)


def test_set() -> tuple[torch.Tensor, torch.Tensor]:
    generator = torch.Generator().manual_seed(DATA_SEED + 2)
    return _windows(TEST // 2, False, generator), _windows(TEST // 2, True, generator)


def train(model: nn.Module, *, seed: int, log: Callable[[str], None]) -> None:
    (x,) = train_set()  # an autoencoder: the targets are the inputs
    minibatch_epochs(model, x, x, nn.functional.mse_loss, seed=seed, epochs=EPOCHS, batch=BATCH, lr=3e-3, log=log,
                     name="anomaly", log_every=10)  # fmt: skip


def _auc(normal: torch.Tensor, anomalous: torch.Tensor) -> float:
    """P(score of an anomalous window > score of a normal one), ties counting half."""
    greater = (anomalous.view(-1, 1) > normal.view(1, -1)).float().mean()
    ties = (anomalous.view(-1, 1) == normal.view(1, -1)).float().mean()
    return float(greater + 0.5 * ties)


def evaluate(model: Callable[[torch.Tensor], torch.Tensor]) -> dict[str, float]:
    normal, anomalous = test_set()
    with torch.no_grad():
        scores = [((model(x) - x) ** 2).mean(dim=1) for x in (normal, anomalous)]
    return {"test_auc": _auc(scores[0], scores[1]), "normal_mse": float(scores[0].mean())}


def example_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.zeros(1, INPUTS),)


def golden_inputs() -> list[tuple[torch.Tensor, ...]]:
    normal, anomalous = test_set()
    return single_cases(normal, range(4)) + single_cases(anomalous, range(4))
