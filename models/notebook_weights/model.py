"""A model trained outside the build, in a notebook: the build only loads its weights.

executorch_model(src = "model.py", weights = "weights.pt") needs just build(),
example_inputs() and golden_inputs() (python/tinypte/model/loading.py); evaluate() and
ACCEPTANCE, given here, check the weights before anything is exported. The weights are what
notebook.py saved: a 1-16-16-1 MLP fitted to sin(x) on [-pi, pi].
"""

from __future__ import annotations

import math

import torch

TOLERANCE = 1e-5
ACCEPTANCE = {"mse": ("<=", 1e-3)}


def build() -> torch.nn.Module:
    return torch.nn.Sequential(
        torch.nn.Linear(1, 16), torch.nn.ReLU(), torch.nn.Linear(16, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1)
    )


def example_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.zeros(1, 1),)


def golden_inputs() -> list[tuple[torch.Tensor, ...]]:
    return [(torch.tensor([[x]]),) for x in torch.linspace(-math.pi, math.pi, 24).tolist()]


def evaluate(model: torch.nn.Module) -> dict[str, float]:
    x = torch.linspace(-math.pi, math.pi, 256).unsqueeze(1)
    with torch.no_grad():
        return {"mse": float(torch.mean((model(x) - torch.sin(x)) ** 2))}
