"""tinypte.histogram_search finds the same calibration range as torch's HistogramObserver.

Observers are fed random batches of many shapes of distribution (normal, uniform, skewed,
outliers, constant, sparse, several batches widening the range), and both searches run on each:
the (min, max) must be the same bits. The premise of the fast search, that torch compares a
float32 tensor with a Python float in float32, is checked on values where float64 would differ.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable

import pytest
import torch

from tinypte import histogram_search

# Observers whose range both searches must agree on (the test fails below it).
MIN_OBSERVERS = 150
# Comparisons of the float32 premise.
MIN_COMPARISONS = 2000


def distributions(rng: random.Random) -> list[Callable[[torch.Generator], torch.Tensor]]:
    size = rng.choice([16, 100, 1000, 5000])
    return [
        lambda g: torch.randn(size, generator=g) * rng.uniform(0.01, 50),
        lambda g: torch.rand(size, generator=g) * rng.uniform(0.1, 10) - rng.uniform(0, 5),
        lambda g: torch.randn(size, generator=g).exp(),
        lambda g: torch.cat([torch.randn(size, generator=g), torch.tensor([rng.uniform(50, 500)])]),
        lambda g: torch.full((size,), rng.uniform(-3, 3)),
        lambda g: torch.relu(torch.randn(size, generator=g)) * (torch.rand(size, generator=g) < 0.1),
        lambda g: torch.randint(-128, 128, (size,), generator=g).float(),
    ]


def test_search_picks_torchs_range() -> None:
    classes = histogram_search.observer_classes()
    assert classes, "torch changed: no HistogramObserver with _non_linear_param_search"
    histogram_search.install()
    rng = random.Random(41)
    generator = torch.Generator().manual_seed(41)
    checked = 0
    for index in range(MIN_OBSERVERS):
        cls = classes[index % len(classes)]
        observer = cls(bins=rng.choice([64, 256, 2048]))
        for _ in range(rng.randint(1, 3)):
            observer(rng.choice(distributions(rng))(generator))
        if observer.min_val.item() == observer.max_val.item():
            continue  # torch's calculate_qparams does not search a single value either
        ours = histogram_search.search(observer)
        theirs = observer.torch_non_linear_param_search()
        assert [t.item() for t in ours] == [t.item() for t in theirs], f"observer {index}"
        checked += 1
    assert checked >= MIN_OBSERVERS * 9 // 10, f"only {checked} observers compared"


def test_comparison_is_float32() -> None:
    rng = random.Random(7)
    compared = differs = 0
    for _ in range(MIN_COMPARISONS):
        cell = float(torch.tensor(rng.uniform(0, 1e6), dtype=torch.float32))
        bound = cell + rng.choice([-1, 1]) * rng.uniform(0, 1e-3) * abs(cell) * 1e-4
        assert bool(torch.tensor(cell, dtype=torch.float32) < bound) == (cell < histogram_search.to_float32(bound))
        assert bool(torch.tensor(cell, dtype=torch.float32) > bound) == (cell > histogram_search.to_float32(bound))
        differs += (cell < bound) != (cell < histogram_search.to_float32(bound))
        compared += 1
    assert compared >= MIN_COMPARISONS
    assert differs >= MIN_COMPARISONS // 20, f"only {differs} values where float64 would compare otherwise"


def test_install_is_idempotent() -> None:
    assert histogram_search.install()
    assert histogram_search.install()
    for cls in histogram_search.observer_classes():
        assert getattr(cls, histogram_search.METHOD) is histogram_search.search
        assert cls.torch_non_linear_param_search is not histogram_search.search


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
