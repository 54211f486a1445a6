"""What model files' `evaluate()` and `golden_inputs()` often share: import them in a model file.

from tinypte.model.evaluation import accuracy, single_cases

def evaluate(model):
    return accuracy(model, *test_set())

def golden_inputs():
    return single_cases(test_set()[0], range(12))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def accuracy(model: Any, inputs: Any, labels: Any) -> dict[str, float]:
    """{"test_accuracy": the share of `inputs` whose largest output is their label}: `model`
    (anything callable, the int8 program too) runs on the whole batch, without gradients."""
    import torch

    with torch.no_grad():
        predicted = model(inputs).argmax(dim=1)
    return {"test_accuracy": float((predicted == labels).float().mean())}


def single_cases(inputs: Any, indices: Iterable[int]) -> list[tuple[Any, ...]]:
    """`inputs[i]` for each of `indices`, each a batch of one of its own (a golden case)."""
    return [(inputs[i : i + 1].clone(),) for i in indices]
