"""The example workspace's own model: cos(x) on [-pi, pi] with a 1->12->12->1 ReLU MLP.

A model file as tinypte's executorch_model takes it (build, train, evaluate, example_inputs,
golden_inputs, ACCEPTANCE, TOLERANCE; calibration_inputs and INT8_ACCEPTANCE for the int8
program). Training is full-batch Adam on seeded random points; the tools pass the seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
from torch import nn

ACCEPTANCE = {"test_mse": ("<=", 1e-3)}
INT8_ACCEPTANCE = {"test_mse": ("<=", 5e-3)}
TOLERANCE = 1e-5  # float32 outputs
STEPS = 3000


class CosineMLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(1, 12)
        self.fc2 = nn.Linear(12, 12)
        self.fc3 = nn.Linear(12, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc3(torch.relu(self.fc2(torch.relu(self.fc1(x)))))


def build() -> nn.Module:
    return CosineMLP()


def train(model: nn.Module, *, seed: int, log: Callable[[str], None]) -> None:
    generator = torch.Generator().manual_seed(seed)
    x = (torch.rand(800, 1, generator=generator) * 2 - 1) * math.pi
    y = torch.cos(x)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1000, gamma=0.3)
    for step in range(1, STEPS + 1):
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        scheduler.step()
        if step % 1000 == 0:
            log(f"cosine: step {step}/{STEPS} train mse {loss.item():.3g}")


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
