"""The example workspace's own model: cos(x) on [-pi, pi] with a 1->12->12->1 ReLU MLP.

A model file as tinypte's executorch_model takes it (build, train, evaluate, example_inputs,
golden_inputs, ACCEPTANCE, TOLERANCE; calibration_inputs and INT8_ACCEPTANCE for the int8
program). Training is full-batch Adam on seeded random points with the toolkit's loop
(tinypte.model.training, importable from a model file anywhere); the tools pass the seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
from torch import nn

from tinypte.model.training import full_batch_steps

ACCEPTANCE = {"test_mse": ("<=", 1e-3)}
INT8_ACCEPTANCE = {"test_mse": ("<=", 5e-3)}
TOLERANCE = 1e-5  # float32 outputs


def build() -> nn.Module:
    return nn.Sequential(nn.Linear(1, 12), nn.ReLU(), nn.Linear(12, 12), nn.ReLU(), nn.Linear(12, 1))


def train(model: nn.Module, *, seed: int, log: Callable[[str], None]) -> None:
    """Adam on 800 seeded points of [-pi, pi], the whole set each step (tinypte's training loop)."""
    generator = torch.Generator().manual_seed(seed)
    x = (torch.rand(800, 1, generator=generator) * 2 - 1) * math.pi
    full_batch_steps(
        model, x, torch.cos(x), nn.functional.mse_loss, steps=3000, lr=0.01, log=log, name="cosine", log_every=1000
    )


def evaluate(model: Callable[[torch.Tensor], torch.Tensor]) -> dict[str, float]:
    x = torch.linspace(-math.pi, math.pi, 501).unsqueeze(1)
    with torch.no_grad():
        mse = nn.functional.mse_loss(model(x), torch.cos(x)).item()
    return {"test_mse": mse}


def example_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.zeros(1, 1),)


def calibration_inputs() -> list[tuple[torch.Tensor, ...]]:
    """What the int8 quantizer observes: the training domain [-pi, pi], ends included."""
    return [(torch.tensor([[math.pi * (2 * i / 127 - 1)]], dtype=torch.float32),) for i in range(128)]


def golden_inputs() -> list[tuple[torch.Tensor, ...]]:
    grid = [math.pi * (2 * i / 31 - 1) for i in range(32)]
    return [(torch.tensor([[x]], dtype=torch.float32),) for x in grid]
