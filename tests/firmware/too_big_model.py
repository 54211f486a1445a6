"""A model whose activations fit no board: one input broadcast to 5,000,000 features,
scaled and summed (tens of megabytes of planned activations, more than any board's largest
memory, the Corstone-300's 16 MiB of DDR; no weights, a one-number output).

Used by //tests/firmware:too_big_for_<board>_fails_test to show that building firmware
for a model that does not fit fails early, with the numbers. Nothing to train.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import nn

ACCEPTANCE: dict[str, tuple[str, float]] = {}
TOLERANCE = 1e-5
FEATURES = 5_000_000


class Broadcast(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (x.expand(1, FEATURES) * 2.0).sum(dim=1)


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
