"""The seed model: sin(x) on [0, 2*pi] with a 1->16->16->1 ReLU MLP (321 parameters).

A model file for tinypte's executorch_model rule; see python/tinypte/model/loading.py for
the contract. Training is full-batch Adam on a fixed grid, seeded by the tool.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
from torch import nn

ACCEPTANCE = {"test_mse": ("<=", 2e-4)}
INT8_ACCEPTANCE = {"test_mse": ("<=", 1e-3)}  # //models/sine:sine_int8
TOLERANCE = 1e-5  # float32 outputs; the C runtime matches PyTorch to ~1e-6
STEPS = 6000


class SineMLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(1, 16)
        self.fc2 = nn.Linear(16, 16)
        self.fc3 = nn.Linear(16, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc3(torch.relu(self.fc2(torch.relu(self.fc1(x)))))


def build() -> nn.Module:
    return SineMLP()


def train(model: nn.Module, *, seed: int, log: Callable[[str], None]) -> None:
    generator = torch.Generator().manual_seed(seed)
    x = torch.rand(1000, 1, generator=generator) * 2 * math.pi
    y = torch.sin(x)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1500, gamma=0.5)
    for step in range(1, STEPS + 1):
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        scheduler.step()
        if step % 1000 == 0:
            log(f"sine: step {step}/{STEPS} train mse {loss.item():.3g}")


def evaluate(model: Callable[[torch.Tensor], torch.Tensor]) -> dict[str, float]:
    x = torch.linspace(0, 2 * math.pi, 997).unsqueeze(1)
    with torch.no_grad():
        mse = nn.functional.mse_loss(model(x), torch.sin(x)).item()
    return {"test_mse": mse}


def example_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.zeros(1, 1),)


def calibration_inputs() -> list[tuple[torch.Tensor, ...]]:
    """What the int8 quantizer observes: the training domain [0, 2*pi], ends included."""
    return [(torch.tensor([[2 * math.pi * i / 255]], dtype=torch.float32),) for i in range(256)]


def golden_inputs() -> list[tuple[torch.Tensor, ...]]:
    grid = [2 * math.pi * i / 63 for i in range(64)]
    return [(torch.tensor([[x]], dtype=torch.float32),) for x in [*grid, 0.0, 1.0, 3.0, 5.0]]


def plot_fit(model: nn.Module, axes) -> None:  # type: ignore[no-untyped-def]
    """The learned curve against sin(x) (used by `bazel run //models/sine:report`)."""
    x = torch.linspace(0, 2 * math.pi, 400).unsqueeze(1)
    with torch.no_grad():
        y = model(x)
    axes.plot(x.squeeze(1), torch.sin(x).squeeze(1), label="sin(x)")
    axes.plot(x.squeeze(1), y.squeeze(1), "--", label="model")
    axes.set_xlabel("x")
    axes.legend()
