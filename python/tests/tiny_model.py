"""A tiny model file (2 -> 3 -> 1 MLP, 20 SGD steps) for tests of the toolkit's commands.

`TINY` is its text, written by `write_model` where a test needs a model file; tests that
check error reports derive broken variants from it.
"""

from __future__ import annotations

from pathlib import Path

TINY = """
import torch
from torch import nn
ACCEPTANCE = {"loss": ("<=", 10.0)}
TOLERANCE = 1e-6
def build():
    return nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
def train(model, *, seed, log):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(32, 2)
    for step in range(20):
        opt.zero_grad(); loss = (model(x) - x.sum(1, keepdim=True)).pow(2).mean(); loss.backward(); opt.step()
    log("tiny: trained")
def evaluate(model):
    return {"loss": 1.0}
def example_inputs():
    return (torch.zeros(1, 2),)
def golden_inputs():
    return [(torch.tensor([[float(i), 1.0]]),) for i in range(5)]
"""


def write_model(tmp_path: Path, text: str = TINY) -> Path:
    path = tmp_path / "model.py"
    path.write_text(text)
    return path
