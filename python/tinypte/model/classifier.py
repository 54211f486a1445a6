"""The hooks of a model file that classifies seeded synthetic data, from the one function that
draws its examples: import it in a model file whose hooks are no more than that.

    from tinypte.model.classifier import SyntheticClassifier

    def _images(count, generator):  # `count` inputs and their labels, drawn with `generator`
        ...

    train_set, test_set, train, evaluate, example_inputs, golden_inputs = SyntheticClassifier(
        _images, data_seed=DATA_SEED, train_count=TRAIN, test_count=TEST, epochs=EPOCHS, batch=BATCH,
        lr=3e-3, input_shape=(3, SIZE, SIZE), golden_count=4, name="resnet8").hooks()

The training set is drawn with a generator seeded `data_seed + 1`, the test set with one seeded
`data_seed + 2`: the same sets whatever the training seed. Training is `minibatch_epochs` with
cross entropy (training.py), the metric `accuracy` on the test set, the golden cases the first
`golden_count` test inputs (evaluation.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tinypte.model.evaluation import accuracy, single_cases
from tinypte.model.training import minibatch_epochs

Examples = Callable[[int, Any], tuple[Any, Any]]
Hooks = tuple[
    Callable[[], tuple[Any, Any]],
    Callable[[], tuple[Any, Any]],
    Callable[..., None],
    Callable[[Any], dict[str, float]],
    Callable[[], tuple[Any, ...]],
    Callable[[], list[tuple[Any, ...]]],
]


@dataclass(frozen=True)
class SyntheticClassifier:
    """`examples(count, generator)` gives (inputs, labels); the rest are the model's numbers:
    set sizes, training (epochs, minibatch size, learning rate), one input's shape without the
    batch dimension, how many golden cases, and the name training logs."""

    examples: Examples
    data_seed: int
    train_count: int
    test_count: int
    epochs: int
    batch: int
    lr: float
    input_shape: tuple[int, ...]
    golden_count: int
    name: str

    def train_set(self) -> tuple[Any, Any]:
        import torch

        return self.examples(self.train_count, torch.Generator().manual_seed(self.data_seed + 1))

    def test_set(self) -> tuple[Any, Any]:
        import torch

        return self.examples(self.test_count, torch.Generator().manual_seed(self.data_seed + 2))

    def train(self, model: Any, *, seed: int, log: Callable[[str], None]) -> None:
        import torch

        x, y = self.train_set()
        minibatch_epochs(model, x, y, torch.nn.functional.cross_entropy, seed=seed, epochs=self.epochs,
                         batch=self.batch, lr=self.lr, log=log, name=self.name)  # fmt: skip

    def evaluate(self, model: Callable[[Any], Any]) -> dict[str, float]:
        return accuracy(model, *self.test_set())

    def example_inputs(self) -> tuple[Any, ...]:
        import torch

        return (torch.zeros(1, *self.input_shape),)

    def golden_inputs(self) -> list[tuple[Any, ...]]:
        return single_cases(self.test_set()[0], range(self.golden_count))

    def hooks(self) -> Hooks:
        """train_set, test_set, train, evaluate, example_inputs, golden_inputs: the model file's."""
        return self.train_set, self.test_set, self.train, self.evaluate, self.example_inputs, self.golden_inputs
