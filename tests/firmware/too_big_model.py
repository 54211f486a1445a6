"""A model whose activations fit no board: one input broadcast to 1,000,000 features and
scaled (megabytes of planned activations, no weights).

Used by //tests/firmware:too_big_for_<board>_fails_test to show that building firmware
for a model that does not fit fails early, with the numbers. Nothing to train.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import nn

ACCEPTANCE: dict[str, tuple[str, float]] = {}
TOLERANCE = 1e-5
FEATURES = 1_000_000


class Broadcast(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.expand(1, FEATURES) * 2.0


def build() -> nn.Module:
    return Broadcast()


def train(model: nn.Module, *, seed: int, log: Callable[[str], None]) -> None:
    log(f"too_big: nothing to train (seed {seed})")


def evaluate(model: nn.Module) -> dict[str, float]:
    return {}


def example_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.zeros(1, 1),)


def golden_inputs() -> list[tuple[torch.Tensor, ...]]:
    return [(torch.ones(1, 1),)]
