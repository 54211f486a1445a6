"""A model whose activations cannot fit a Pico 2 W: 1 -> 160000 features (640 KB planned).

Used by //tests/firmware:too_big_for_pico2w_fails_test to show that building firmware
for a model that does not fit fails early, with the numbers. Not trained: the weights are
the seeded initial ones.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import nn

ACCEPTANCE: dict[str, tuple[str, float]] = {}
TOLERANCE = 1e-5
FEATURES = 160_000


def build() -> nn.Module:
    return nn.Linear(1, FEATURES)


def train(model: nn.Module, *, seed: int, log: Callable[[str], None]) -> None:
    log(f"too_big: no training ({sum(p.numel() for p in model.parameters())} parameters, seed {seed})")


def evaluate(model: nn.Module) -> dict[str, float]:
    return {}


def example_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.zeros(1, 1),)


def golden_inputs() -> list[tuple[torch.Tensor, ...]]:
    return [(torch.ones(1, 1),)]
