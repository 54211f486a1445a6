"""A model the Ethos-U55 takes only in part: two convolutions, a top-k the NPU has no operation for,
then a linear layer. ExecuTorch's Ethos-U partitioner makes two NPU graphs (the convolutions; the
linear layer) and leaves the top-k on the CPU, where tinypte's portable kernel runs it between
the two delegate calls: the test of a program that mixes delegates and kernels.

Trained (seeded, a few hundred steps) to imitate a fixed random teacher of the same shape, so
its weights and activations are those of a fitted model, not of an initialization.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

TOLERANCE = 1e-4
ACCEPTANCE = {"test_mse": ("<=", 0.5)}
STEPS = 300


class Mixed(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = torch.nn.Sequential(
            torch.nn.Conv2d(2, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.Conv2d(8, 4, 1), torch.nn.ReLU()
        )
        self.head = torch.nn.Linear(4 * 8 * 3, 6)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        strongest = torch.topk(self.features(x), 3, dim=3).values  # the three largest of each row
        out: torch.Tensor = self.head(strongest.flatten(1))
        return out


def build() -> torch.nn.Module:
    return Mixed()


def _inputs(count: int, seed: int) -> torch.Tensor:
    return torch.randn(count, 2, 8, 8, generator=torch.Generator().manual_seed(seed))


def _teacher() -> torch.nn.Module:
    torch.manual_seed(1234)
    return Mixed().eval()


def train_set() -> tuple[torch.Tensor, torch.Tensor]:
    inputs = _inputs(256, 1)
    with torch.no_grad():
        return inputs, _teacher()(inputs)


def train(model: torch.nn.Module, *, seed: int, log: Callable[[str], None]) -> None:
    inputs, targets = train_set()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(STEPS):
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(inputs), targets)
        loss.backward()
        optimizer.step()
    log(f"mixed: {STEPS} steps, train mse {loss.item():.3g} (seed {seed})")


def example_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.zeros(1, 2, 8, 8),)


def golden_inputs() -> list[tuple[torch.Tensor, ...]]:
    return [(x.unsqueeze(0),) for x in _inputs(6, 7)]


def evaluate(model: object) -> dict[str, float]:
    inputs = _inputs(64, 3)
    with torch.no_grad():
        predicted = model(inputs)  # type: ignore[operator]
        return {"test_mse": float(torch.mean((predicted - _teacher()(inputs)) ** 2))}
