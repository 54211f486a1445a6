"""Handwritten digits: scikit-learn's 8x8 digits with a small CNN (1,898 parameters).

A model file for tinypte's executorch_model rule; see python/tinypte/model/loading.py for
the contract. The data is `sklearn.datasets.load_digits()` (1797 images of 8x8 pixels with
values 0..16, ten classes; it ships with scikit-learn, so nothing is downloaded). Pixels
are scaled to [0, 1] here, in the data preparation, so the exported program takes scaled
pixels as a float32 [1, 1, 8, 8] tensor and returns the ten class probabilities (softmax),
which the firmware prints as class and score.

Split: a fixed permutation of the 1797 images (its own generator, SPLIT_SEED, independent
of the training seed, so evaluate() and golden_inputs() see the same test set) gives 1400
training and 397 test images. Training is AdamW on minibatches of 50 in a seeded order on
CPU, with cross-entropy on the logits; the softmax is only in forward(), the exported graph.

Architecture: conv3x3(1->8) -> ReLU -> maxpool2 -> conv3x3(8->16) -> ReLU -> maxpool2 ->
flatten (64) -> linear(64->10) -> softmax. The .pte calls aten::convolution,
max_pool2d_with_indices, relu, addmm (the linear) and _softmax, all `.out`; the flatten is a
view that the memory plan aliases to the pooled tensor, so it calls no kernel.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import torch
from torch import nn

ACCEPTANCE = {"test_accuracy": (">=", 0.95)}
INT8_ACCEPTANCE = {
    "test_accuracy": (">=", 0.95)
}  # //models/digits:digits_int8; its test also wants <= 1 point below float
TOLERANCE = 1e-5  # float32 probabilities; ExecuTorch's portable kernels match PyTorch to < 1e-6
SPLIT_SEED = 1797  # fixes which images train and which test, whatever the training seed
TRAIN_SIZE = 1400  # 1400 images train; the remaining 397 test
EPOCHS = 40
BATCH = 50  # 28 minibatches an epoch, in a seeded order
LEARNING_RATE = 0.01
WEIGHT_DECAY = 1e-3
LOG_EVERY = 5  # epochs
GOLDEN_CASES = 32  # every 12th test image (all ten digits appear)


class DigitsCNN(nn.Module):
    """[N, 1, 8, 8] pixels in [0, 1] -> [N, 10] class probabilities."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, kernel_size=3, padding=1)  # 8x8 -> 8x8, pooled to 4x4
        self.conv2 = nn.Conv2d(8, 16, kernel_size=3, padding=1)  # 4x4 -> 4x4, pooled to 2x2
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(16 * 2 * 2, 10)

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        x = self.pool(torch.relu(self.conv1(x)))
        x = self.pool(torch.relu(self.conv2(x)))
        return self.fc(torch.flatten(x, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.logits(x), dim=1)


@cache
def _dataset() -> tuple[torch.Tensor, torch.Tensor]:
    """All 1797 images, shuffled by SPLIT_SEED: float32 [N, 1, 8, 8] in [0, 1], int64 labels [N]."""
    from sklearn.datasets import load_digits

    digits = load_digits()
    images = torch.tensor(digits.images, dtype=torch.float32).unsqueeze(1) / 16.0
    labels = torch.tensor(digits.target, dtype=torch.int64)
    order = torch.randperm(len(labels), generator=torch.Generator().manual_seed(SPLIT_SEED))
    return images[order], labels[order]


def train_set() -> tuple[torch.Tensor, torch.Tensor]:
    images, labels = _dataset()
    return images[:TRAIN_SIZE], labels[:TRAIN_SIZE]


def test_set() -> tuple[torch.Tensor, torch.Tensor]:
    images, labels = _dataset()
    return images[TRAIN_SIZE:], labels[TRAIN_SIZE:]


def _logits(model: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor) -> torch.Tensor:
    """The CNN's logits; for an exported program (which returns probabilities, e.g. the int8
    one) the log-probabilities, which differ from the logits by a constant per row: the same
    predictions and the same cross-entropy."""
    if isinstance(model, DigitsCNN):
        return model.logits(x)
    return torch.log(model(x).clamp_min(1e-12))


def build() -> nn.Module:
    return DigitsCNN()


def train(model: nn.Module, *, seed: int, log: Callable[[str], None]) -> None:
    # The tool seeded torch with `seed` before build(), which fixed the initial weights; the
    # minibatch order comes from its own generator with the same seed.
    generator = torch.Generator().manual_seed(seed)
    x, y = train_set()
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=LEARNING_RATE, weight_decay=WEIGHT_DECAY)
    steps = EPOCHS * (len(x) // BATCH)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=steps)
    step = 0
    for epoch in range(1, EPOCHS + 1):
        order = torch.randperm(len(x), generator=generator)
        for start in range(0, len(x) - BATCH + 1, BATCH):
            batch = order[start : start + BATCH]
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(_logits(model, x[batch]), y[batch])
            loss.backward()
            optimizer.step()
            scheduler.step()
            step += 1
        if epoch % LOG_EVERY == 0:
            with torch.no_grad():
                full = nn.functional.cross_entropy(_logits(model, x), y).item()
            log(f"digits: epoch {epoch}/{EPOCHS} (step {step}/{steps}) train loss {full:.4f}")
    model.eval()


def _predict(model: Callable[[torch.Tensor], torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(logits, predicted classes, true labels) on the test set."""
    x, y = test_set()
    with torch.no_grad():
        logits = _logits(model, x)
    return logits, logits.argmax(dim=1), y


def evaluate(model: Callable[[torch.Tensor], torch.Tensor]) -> dict[str, float]:
    logits, predicted, labels = _predict(model)
    return {
        "test_accuracy": (predicted == labels).float().mean().item(),
        "test_loss": nn.functional.cross_entropy(logits, labels).item(),
    }


def example_inputs() -> tuple[torch.Tensor, ...]:
    return (torch.zeros(1, 1, 8, 8),)


def _golden_indices() -> range:
    return range(0, 12 * GOLDEN_CASES, 12)


def golden_inputs() -> list[tuple[torch.Tensor, ...]]:
    x, _ = test_set()
    return [(x[i : i + 1].clone(),) for i in _golden_indices()]


def golden_labels() -> list[int]:
    """True classes of golden_inputs(), in order (not part of the contract; tests use it)."""
    _, y = test_set()
    return [int(y[i]) for i in _golden_indices()]


def plot_fit(model: nn.Module, axes: Any) -> None:
    """Per-class accuracy on the test set (used by `bazel run //models/digits:report`)."""
    _, predicted, labels = _predict(model)
    classes = list(range(10))
    totals = [int((labels == c).sum()) for c in classes]
    correct = [int(((labels == c) & (predicted == c)).sum()) for c in classes]
    accuracy = [k / n for k, n in zip(correct, totals, strict=True)]
    overall = sum(correct) / sum(totals)
    axes.bar(classes, accuracy, color="tab:blue", alpha=0.8)
    for c, k, n in zip(classes, correct, totals, strict=True):
        axes.text(c, k / n, f"{k}/{n}", ha="center", va="bottom", fontsize=7)
    axes.axhline(
        overall, color="tab:red", linestyle="--", label=f"overall {overall:.1%} ({sum(correct)}/{sum(totals)})"
    )
    axes.set_xticks(classes)
    axes.set_xlabel(f"digit (test set: {sum(totals)} images)")
    axes.set_ylabel("accuracy")
    axes.set_ylim(min(0.8, min(accuracy) - 0.05), 1.05)
    axes.legend(loc="lower right")
